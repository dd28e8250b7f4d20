// User parts on the command line, each run a fresh process with an empty user folder, as on
// another machine: a design that embeds its parts predicts there; --catalog DIR adds a folder; a
// bad part file is named with its place and the command fails.
#include "util/fileio.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace clab;

class TestUserPartsCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void embeddedPartsTravel();
    void catalogFolder();
    void badCatalogFolder();
    void plansWithAUserSwitch();

private:
    struct Run
    {
        int status;
        QString out, err;
    };
    Run run(const QStringList &args);
    std::string gpuFile(const std::string &id) const;
    std::string designUsing(const std::string &model, const std::string &parts) const;

    QTemporaryDir m_home; // an empty user folder: nothing but what the test gives
    QTemporaryDir m_work;
};

void TestUserPartsCli::initTestCase()
{
    QVERIFY(m_home.isValid() && m_work.isValid());
}

TestUserPartsCli::Run TestUserPartsCli::run(const QStringList &args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.path());
    env.insert(QStringLiteral("HOME"), m_home.path());
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(CLAB_BINARY), args);
    p.waitForFinished(60000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

std::string TestUserPartsCli::gpuFile(const std::string &id) const
{
    // A made-up GPU, every field written out as a user would.
    nlohmann::json gpu
        = {{"id", id},
           {"name", "Made-up " + id},
           {"arch", "Future"},
           {"formFactor", "SXM"},
           {"tflops", {{"fp32", 80}, {"tf32", 600}, {"fp16", 1200}, {"bf16", 1200}, {"fp8", 2400}}},
           {"memGB", 192},
           {"memBwGBps", 6000},
           {"nvlink", {{"gen", 4}, {"links", 18}}},
           {"pcie", {{"gen", 5}, {"lanes", 16}}},
           {"tdpW", 1000},
           {"source", "what if: a test part"}};
    return nlohmann::json{{"gpus", {gpu}}}.dump(2);
}

std::string TestUserPartsCli::designUsing(const std::string &model, const std::string &parts) const
{
    nlohmann::ordered_json d
        = {{"formatVersion", 1},
           {"appVersion", "0.1.0"},
           {"hosts", {{{"id", "h"}, {"model", "xeon-platinum-8480plus-2s"}}}},
           {"devices", {{{"id", "g0"}, {"model", model}}, {{"id", "g1"}, {"model", model}}}},
           {"links",
            {{{"from", "h/cpu0"}, {"to", "g0"}, {"kind", "pcie5x16"}},
             {{"from", "h/cpu0"}, {"to", "g1"}, {"kind", "pcie5x16"}}}},
           {"systems", {{{"name", "s"}, {"host", "h"}, {"devices", {"g0", "g1"}}}}}};
    if (!parts.empty())
        d["parts"] = nlohmann::ordered_json::parse(parts);
    return d.dump(2);
}

void TestUserPartsCli::embeddedPartsTravel()
{
    const std::string file = m_work.filePath(QStringLiteral("embedded.clab")).toStdString();
    writeFileAtomically(file, designUsing("FUTURE-1", gpuFile("FUTURE-1")));
    const Run r = run({QStringLiteral("predict"), QString::fromStdString(file),
                       QStringLiteral("--benchmark"), QStringLiteral("resnet50"),
                       QStringLiteral("--json")});
    QVERIFY2(r.status == 0, qPrintable(r.err));
    const auto j = nlohmann::json::parse(r.out.toStdString());
    QVERIFY(j.at("throughput_samples_per_s").get<double>() > 0);
    bool flagged = false;
    for (const auto &e : j.at("extrapolation"))
        flagged = flagged || e.get<std::string>().find("user-defined") != std::string::npos;
    QVERIFY2(flagged, j.at("extrapolation").dump().c_str());
    // An architecture whose SMs the model does not know: said, not silently unbounded.
    bool said = false;
    for (const auto &n : j.at("notes"))
        said = said
               || n.get<std::string>().find("no SM-side rate for architecture \"Future\"")
                      != std::string::npos;
    QVERIFY2(said, j.at("notes").dump().c_str());
    // Without its parts the same design names the unknown model.
    writeFileAtomically(file, designUsing("FUTURE-1", {}));
    const Run bare = run({QStringLiteral("analyze"), QString::fromStdString(file)});
    QVERIFY2(bare.out.contains(QLatin1String("FUTURE-1"))
                 || bare.err.contains(QLatin1String("FUTURE-1")),
             qPrintable(bare.out + bare.err));
}

void TestUserPartsCli::catalogFolder()
{
    QTemporaryDir parts;
    writeFileAtomically(parts.filePath(QStringLiteral("future.json")).toStdString(),
                        gpuFile("FUTURE-2"));
    const std::string file = m_work.filePath(QStringLiteral("folder.clab")).toStdString();
    writeFileAtomically(file, designUsing("FUTURE-2", {}));
    const Run r = run({QStringLiteral("predict"), QString::fromStdString(file),
                       QStringLiteral("--benchmark"), QStringLiteral("bert"),
                       QStringLiteral("--catalog"), parts.path()});
    QVERIFY2(r.status == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(QLatin1String("user-defined")), qPrintable(r.out));
}

void TestUserPartsCli::badCatalogFolder()
{
    QTemporaryDir parts;
    nlohmann::json bad = nlohmann::json::parse(gpuFile("FUTURE-3"));
    bad["gpus"][0]["memBwGBps"] = -1;
    writeFileAtomically(parts.filePath(QStringLiteral("bad.json")).toStdString(), bad.dump());
    const std::string file = m_work.filePath(QStringLiteral("bad.clab")).toStdString();
    writeFileAtomically(file, designUsing("FUTURE-3", {}));
    const Run r = run({QStringLiteral("analyze"), QString::fromStdString(file),
                       QStringLiteral("--catalog"), parts.path()});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains(QLatin1String("bad.json")), qPrintable(r.err));
    QVERIFY2(r.err.contains(QLatin1String("/gpus/0/memBwGBps")), qPrintable(r.err));
    const Run missing = run({QStringLiteral("analyze"), QString::fromStdString(file),
                             QStringLiteral("--catalog"), m_work.filePath(QStringLiteral("nope"))});
    QCOMPARE(missing.status, 2);
}

// A user's NVSwitch system lifts `plans`' cap on GPUs a node (the largest switch system of the
// GPU's NVLink generation), and only where --catalog brings it.
void TestUserPartsCli::plansWithAUserSwitch()
{
    QTemporaryDir parts;
    const nlohmann::json board = {{"nvswitches",
                                   {{{"id", "what-if-h100-16gpu"},
                                     {"name", "What-if 16-GPU NVLink 4 switch board"},
                                     {"nvlinkGen", 4},
                                     {"gpus", 16},
                                     {"linksPerGpu", 18},
                                     {"source", "what if: a test part"}}}}};
    writeFileAtomically(parts.filePath(QStringLiteral("board.json")).toStdString(), board.dump(2));
    const QStringList args = {QStringLiteral("plans"),
                              QStringLiteral("--benchmark"),
                              QStringLiteral("gpt3-175b"),
                              QStringLiteral("--gpu"),
                              QStringLiteral("H100-SXM5-80GB"),
                              QStringLiteral("--gpus"),
                              QStringLiteral("256"),
                              QStringLiteral("--gpus-per-node"),
                              QStringLiteral("16"),
                              QStringLiteral("--top"),
                              QStringLiteral("1")};
    const Run capped = run(args);
    QCOMPARE(capped.status, 2);
    QVERIFY2(capped.err.contains(QLatin1String("hgx-h100-8gpu")), qPrintable(capped.err));
    const Run lifted = run(args + QStringList{QStringLiteral("--catalog"), parts.path()});
    QVERIFY2(lifted.status == 0, qPrintable(lifted.err));
    QVERIFY2(lifted.out.contains(QLatin1String("16 GPUs of a node")), qPrintable(lifted.out));
}

QTEST_GUILESS_MAIN(TestUserPartsCli)
#include "tst_userpartscli.moc"
