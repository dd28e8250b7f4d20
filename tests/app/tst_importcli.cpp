#include "cli/importcommand.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace clab;

namespace {

std::string fixture(const char *name)
{
    return std::string(CLAB_TEST_DATA) + "/import/" + name;
}

int run(const std::vector<std::string> &args, std::string &out, std::string &err)
{
    CLI::App app;
    app.require_subcommand(1);
    cli::ImportOptions options;
    cli::addImportSubcommand(app, options);
    std::vector<const char *> argv{"composelab"};
    for (const auto &a : args)
        argv.push_back(a.c_str());
    try {
        app.parse(int(argv.size()), argv.data());
    } catch (const CLI::ParseError &) {
        return 2;
    }
    std::ostringstream o, e;
    const int status = cli::importCommand(options, o, e);
    out = o.str();
    err = e.str();
    return status;
}

} // namespace

class TestImportCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void importsAndReports()
    {
        QTemporaryDir dir;
        const std::string db = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
        std::string out, err;
        // notes.txt was named but is no known format: it fails alone, the results land, exit 1.
        QCOMPARE(run({"import", "--db", db, "--json", fixture("mlperf"), fixture("notes.txt")}, out,
                     err),
                 1);
        const auto j = nlohmann::json::parse(out);
        QCOMPARE(j["imported"].size(), std::size_t(2));
        QCOMPARE(j["imported"][0]["kind"].get<std::string>(), std::string("mlperf"));
        QCOMPARE(j["imported"][0]["score_minutes"].get<double>(), 18.0);
        QCOMPARE(j["skipped"].size(), std::size_t(1)); // the aborted run
        QCOMPARE(j["failed"].size(), std::size_t(1));
        QVERIFY(j["failed"][0]["path"].get<std::string>().find("notes.txt") != std::string::npos);
        QVERIFY2(err.find("1 file failed") != std::string::npos, err.c_str());
        QVERIFY2(err.find("the other 2 items were imported") != std::string::npos, err.c_str());
        QCOMPARE(run({"import", "--db", db, fixture("mlperf")}, out, err), 0);
        QVERIFY2(out.find("nothing new") != std::string::npos, out.c_str());
    }

    void exitStatus()
    {
        QTemporaryDir dir;
        const std::string db = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
        std::string out, err;
        QCOMPARE(run({"import", "--db", db}, out, err), 2);
        QCOMPARE(run({"import", "--db", db, "--bogus", fixture("notes.txt")}, out, err), 2);
        QCOMPARE(run({"import", "--db", db, fixture("nccl_garbled.txt")}, out, err), 1);
        QVERIFY2(err.find("nccl_garbled.txt: line 24") != std::string::npos, err.c_str());
        QCOMPARE(run({"import", "--db", db, fixture("no_such_file.txt")}, out, err), 1);
        QCOMPARE(
            run({"import", "--db", fixture("notes.txt"), fixture("bandwidth_test.txt")}, out, err),
            1);
        QVERIFY2(err.find("not an SQLite database") != std::string::npos, err.c_str());
    }

    // A folder with one bad file: the good ones land, the bad one is listed with its line, exit 1.
    // --all-or-nothing imports nothing.
    void oneBadFileDoesNotCancelTheBatch()
    {
        namespace fs = std::filesystem;
        QTemporaryDir dir;
        const fs::path logs = dir.filePath(QStringLiteral("logs")).toStdString();
        fs::create_directory(logs);
        for (const char *name : {"nccl_all_reduce.txt", "bandwidth_test.txt", "nccl_garbled.txt"})
            fs::copy_file(fixture(name), logs / name);
        const std::string db = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
        std::string out, err;
        QCOMPARE(run({"import", "--db", db, "--all-or-nothing", logs.string()}, out, err), 1);
        QVERIFY2(err.find("nccl_garbled.txt: line 24") != std::string::npos, err.c_str());
        QVERIFY2(err.find("Nothing was imported") != std::string::npos, err.c_str());
        QCOMPARE(run({"import", "--db", db, logs.string()}, out, err), 1);
        QVERIFY2(out.find("nccl_all_reduce.txt: 26 measurements") != std::string::npos,
                 out.c_str());
        QVERIFY2(err.find("nccl_garbled.txt: line 24: expected 13 columns") != std::string::npos,
                 err.c_str());
        QVERIFY2(err.find("1 file failed and was not imported; the other 2 items were imported")
                     != std::string::npos,
                 err.c_str());
        // The good files are in: importing again finds nothing new, and still names the bad one.
        QCOMPARE(run({"import", "--db", db, logs.string()}, out, err), 1);
        QVERIFY2(out.find("nothing new") != std::string::npos, out.c_str());
    }

    // File names on Linux are bytes. A Latin-1 name is imported, and reported with U+FFFD where
    // its bytes are not UTF-8, instead of the JSON writer failing after the import committed.
    void latin1FileNames()
    {
        QTemporaryDir dir;
        const std::string db = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
        const std::string folder = dir.path().toStdString() + "/caf\xe9";
        std::filesystem::create_directory(folder);
        for (const char *name : {"generic_runs.csv", "nccl_all_reduce.txt", "notes.txt"})
            std::filesystem::copy_file(fixture(name), folder + "/r\xe9sum\xe9-" + name);
        std::string out, err;
        QCOMPARE(run({"import", "--db", db, "--json", folder}, out, err), 0);
        const auto j = nlohmann::json::parse(out);
        QCOMPARE(j["imported"].size(), std::size_t(2));
        QCOMPARE(j["skipped"].size(), std::size_t(1));
        const std::string shown = "caf\xEF\xBF\xBD/r\xEF\xBF\xBDsum\xEF\xBF\xBD-";
        for (const auto &entry : j["imported"])
            QVERIFY2(entry["path"].get<std::string>().find(shown) != std::string::npos,
                     out.c_str());
        QVERIFY(j["skipped"][0]["path"].get<std::string>().find(shown + "notes.txt")
                != std::string::npos);
        std::filesystem::remove_all(folder); // QTemporaryDir cannot remove what is not UTF-8
    }

    // MLPerf names come from folder names: a Latin-1 submitter and system folder.
    void latin1MlperfFolders()
    {
        namespace fs = std::filesystem;
        QTemporaryDir dir;
        const std::string db = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
        const fs::path root = dir.path().toStdString() + "/v9.9";
        fs::create_directories(root);
        fs::copy(fixture("mlperf/v9.9/Acme"), root / "Acm\xe9", fs::copy_options::recursive);
        const fs::path submitter = root / "Acm\xe9";
        fs::rename(submitter / "results/box_8xA100", submitter / "results/b\xf6x");
        fs::rename(submitter / "systems/box_8xA100.json", submitter / "systems/b\xf6x.json");
        std::string out, err;
        QCOMPARE(run({"import", "--db", db, "--json", root.string()}, out, err), 0);
        const auto j = nlohmann::json::parse(out);
        bool found = false;
        for (const auto &entry : j["imported"]) {
            if (entry["kind"] == "mlperf" && entry["benchmark"] == "resnet") {
                QCOMPARE(entry["submitter"].get<std::string>(), std::string("Acm\xEF\xBF\xBD"));
                QCOMPARE(entry["system"].get<std::string>(), std::string("b\xEF\xBF\xBDx"));
                QCOMPARE(entry["score_minutes"].get<double>(), 18.0);
                found = true;
            }
        }
        QVERIFY2(found, out.c_str());
        fs::remove_all(root);
    }
};

QTEST_GUILESS_MAIN(TestImportCli)
#include "tst_importcli.moc"
