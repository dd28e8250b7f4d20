#include "cli/importcommand.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <QtTest>

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
        QCOMPARE(run({"import", "--db", db, "--json", fixture("mlperf"), fixture("notes.txt")}, out,
                     err),
                 0);
        const auto j = nlohmann::json::parse(out);
        QCOMPARE(j["imported"].size(), std::size_t(2));
        QCOMPARE(j["imported"][0]["kind"].get<std::string>(), std::string("mlperf"));
        QCOMPARE(j["imported"][0]["score_minutes"].get<double>(), 18.0);
        QCOMPARE(j["skipped"].size(), std::size_t(2)); // the aborted run and notes.txt
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
};

QTEST_GUILESS_MAIN(TestImportCli)
#include "tst_importcli.moc"
