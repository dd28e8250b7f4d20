#include "app/clirun.h"
#include "cli/cli.h"
#include "cli/escapingstream.h"
#include "design/design.h"
#include "design/examples.h"

#include <nlohmann/json.hpp>

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>

namespace {

using clab::test::examplePath;
using clab::test::Outcome;
using clab::test::run;

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void analyzeJsonShape_data();
    void analyzeJsonShape();
    void analyzeText();
    void escapingStream_data();
    void escapingStream();
    void controlCharactersInNamesAreSpeltOut();
    void badInputExitsOne();
    void usageExitsTwo();
    void benchJson();
    void binaryRunsHeadless();
};

void TestCli::analyzeJsonShape_data()
{
    QTest::addColumn<QString>("example");
    for (const auto &e : clab::design::bundledExamples())
        QTest::newRow(e.fileName.c_str()) << QString::fromStdString(e.fileName);
}

void TestCli::analyzeJsonShape()
{
    QFETCH(QString, example);
    const Outcome r = run({"analyze", examplePath(example.toStdString()), "--json"});
    QCOMPARE(r.status, 0);
    QVERIFY(r.err.empty());
    const auto j = nlohmann::json::parse(r.out);
    QVERIFY(j.at("systems").is_array());
    QVERIFY(!j.at("systems").empty());
    QVERIFY(j.at("findings").is_array());
    QVERIFY(j.at("findings").empty()); // the examples are clean
    for (const auto &s : j.at("systems")) {
        QVERIFY(s.at("name").is_string());
        QVERIFY(s.at("host").is_string());
        QVERIFY(s.at("gpus").is_array());
        QCOMPARE(s.at("h2d").size(), s.at("gpus").size());
        for (const auto &h : s.at("h2d")) {
            QVERIFY(h.at("device").is_string());
            QVERIFY(h.at("alone_GBps").get<double>() > 0);
            QVERIFY(h.at("concurrent_GBps").get<double>() <= h.at("alone_GBps").get<double>());
        }
        const std::size_t n = s.at("gpus").size();
        QCOMPARE(s.at("p2p").size(), n * (n - 1));
        for (const auto &p : s.at("p2p")) {
            QVERIFY(p.at("GBps").get<double>() > 0);
            QVERIFY(p.at("latency_us").get<double>() > 0);
            QCOMPARE(p.at("route").front().get<std::string>(), p.at("from").get<std::string>());
            QCOMPARE(p.at("route").back().get<std::string>(), p.at("to").get<std::string>());
        }
    }
}

void TestCli::analyzeText()
{
    const Outcome r = run({"analyze", examplePath("seed-testbed.clab")});
    QCOMPARE(r.status, 0);
    QVERIFY(r.out.find("Host to device") != std::string::npos);
    QVERIFY(r.out.find("Peer to peer") != std::string::npos);
    QVERIFY(r.out.find("No design-rule findings.") != std::string::npos);
}

void TestCli::escapingStream_data()
{
    QTest::addColumn<QByteArray>("written");
    QTest::addColumn<QByteArray>("printed");
    QTest::newRow("plain") << QByteArray("a b\tc\n") << QByteArray("a b\tc\n");
    QTest::newRow("esc") << QByteArray("\x1b[31mred") << QByteArray("\\x1b[31mred");
    QTest::newRow("nul cr del") << QByteArray("x\0y\rz\x7f", 6)
                                << QByteArray("x\\x00y\\x0dz\\u007f");
    // UTF-8 text passes; U+00E9, U+00A0 (starts with 0xC2 too) and U+4E2D.
    QTest::newRow("utf8") << QByteArray("\xc3\xa9\xc2\xa0\xe4\xb8\xad")
                          << QByteArray("\xc3\xa9\xc2\xa0\xe4\xb8\xad");
    // U+009B is the one-character CSI of 8-bit terminals.
    QTest::newRow("c1") << QByteArray("a\xc2\x9b") + "31m" << QByteArray("a\\u009b31m");
    QTest::newRow("lone 0xC2 at the end") << QByteArray("a\xc2") << QByteArray("a\xc2");
}

void TestCli::escapingStream()
{
    QFETCH(QByteArray, written);
    QFETCH(QByteArray, printed);
    // Once in one write, once a byte at a time: both paths of the buffer.
    for (const bool byByte : {false, true}) {
        std::ostringstream target;
        {
            clab::cli::EscapingStream s(target);
            if (byByte) {
                for (const char c : written)
                    s.put(c); // through overflow(), not xsputn()
            } else {
                s << written.toStdString();
            }
        }
        QCOMPARE(QByteArray::fromStdString(target.str()), printed);
    }
}

// A system named with a terminal escape is printed with the escape spelt out, by analyze and
// predict alike, and an error naming a file does the same.
void TestCli::controlCharactersInNamesAreSpeltOut()
{
    using namespace clab;
    QTemporaryDir dir;
    design::Design d = design::loadDesign(examplePath("seed-testbed.clab"));
    d.systems[0].name = "\x1b]0;owned\x07\x1b[2Jsys";
    const std::string file = dir.filePath(QStringLiteral("hostile.clab")).toStdString();
    design::saveDesign(d, file);

    const std::vector<std::vector<std::string>> commands
        = {{"analyze", file}, {"predict", file, "--benchmark", "resnet50"}};
    for (const auto &command : commands) {
        const Outcome r = run(command);
        QCOMPARE(r.status, 0);
        QVERIFY(r.out.find('\x1b') == std::string::npos);
        QVERIFY(r.out.find('\x07') == std::string::npos);
        QVERIFY2(r.out.find("\\x1b]0;owned\\x07\\x1b[2Jsys") != std::string::npos, r.out.c_str());
    }
    // JSON output stays valid JSON, and gives the name back: its writer escapes C0 itself and
    // passes DEL and C1 through, which the stream spells as JSON escapes.
    d.systems[0].name = "a\x7f\xc2\x85\x1b[0m";
    design::saveDesign(d, file);
    const Outcome json = run({"analyze", "--json", file});
    QCOMPARE(json.status, 0);
    QVERIFY(json.out.find('\x7f') == std::string::npos);
    const auto parsed = nlohmann::json::parse(json.out);
    QCOMPARE(parsed["systems"][0]["name"].get<std::string>(), d.systems[0].name);

    const Outcome missing = run({"analyze", dir.path().toStdString() + "/no\x1b[2J.clab"});
    QCOMPARE(missing.status, 1);
    QVERIFY(missing.err.find('\x1b') == std::string::npos);
    QVERIFY2(missing.err.find("no\\x1b[2J.clab") != std::string::npos, missing.err.c_str());
}

void TestCli::badInputExitsOne()
{
    QTemporaryDir dir;
    const std::string bad = dir.filePath(QStringLiteral("bad.clab")).toStdString();
    {
        std::ofstream f(bad);
        f << "{\n  \"formatVersion\": 1,\n  \"appVersion\": \"0.1.0\",\n  \"hosts\": [\n    "
             "{\"id\": 3}\n  ]\n}\n";
    }
    Outcome r = run({"analyze", bad});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find(bad) != std::string::npos, r.err.c_str());
    QVERIFY2(r.err.find("/hosts/0/id") != std::string::npos, r.err.c_str());
    QVERIFY2(r.err.find("expected a string") != std::string::npos, r.err.c_str());
    QVERIFY(r.out.empty());

    r = run({"analyze", dir.filePath(QStringLiteral("missing.clab")).toStdString()});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find("missing.clab") != std::string::npos, r.err.c_str());
}

void TestCli::usageExitsTwo()
{
    QCOMPARE(run({"analyze"}).status, 2);
    QCOMPARE(run({"analyse", "x"}).status, 2);
    QCOMPARE(run({"analyze", "a", "--jsn"}).status, 2);
    QCOMPARE(run({"bench", "--filter", "no-such-benchmark"}).status, 2);
    // Every usage error names the command, the option and what it accepts.
    const Outcome unknown = run({"rnus"});
    QCOMPARE(unknown.status, 2);
    QVERIFY2(unknown.err.find("unknown command \"rnus\"") != std::string::npos,
             unknown.err.c_str());
    QVERIFY2(unknown.err.find("predict") != std::string::npos, unknown.err.c_str());
    const std::string seed = examplePath("seed-testbed.clab");
    const Outcome zero = run({"predict", seed, "--benchmark", "resnet", "--global-batch", "0"});
    QCOMPARE(zero.status, 2);
    QVERIFY2(zero.err.find("composelab predict: --global-batch: expected a whole number of at "
                           "least 1, found \"0\"")
                 != std::string::npos,
             zero.err.c_str());
    const Outcome dpi = run({"render", seed, "--out", "x.png", "--dpi", "5"});
    QCOMPARE(dpi.status, 2);
    QVERIFY2(dpi.err.find("--dpi: expected a whole number from 24 to 1200") != std::string::npos,
             dpi.err.c_str());
    const Outcome software
        = run({"predict", seed, "--benchmark", "resnet", "--software", "my-stack"});
    QCOMPARE(software.status, 2);
    QVERIFY2(software.err.find("--software: unknown software stack") != std::string::npos,
             software.err.c_str());
    // A stray word or an unknown option says what the command takes, not CLI11's "not expected".
    const Outcome stray = run({"runs", "foo"});
    QCOMPARE(stray.status, 2);
    QVERIFY2(stray.err.find("composelab runs: unexpected argument \"foo\": this command takes "
                            "only options")
                 != std::string::npos,
             stray.err.c_str());
    const Outcome second = run({"predict", seed, seed, "--benchmark", "resnet"});
    QCOMPARE(second.status, 2);
    QVERIFY2(second.err.find("this command takes <file> and options") != std::string::npos,
             second.err.c_str());
    const Outcome option = run({"predict", seed, "--benchmark", "resnet", "--globalbatch", "8"});
    QCOMPARE(option.status, 2);
    QVERIFY2(option.err.find("unknown option \"--globalbatch\"; the options are:")
                     != std::string::npos
                 && option.err.find(" --global-batch ") != std::string::npos,
             option.err.c_str());
    const Outcome v = run({"--version"});
    QCOMPARE(v.status, 0);
    QVERIFY(v.out.find("composelab ") == 0);
}

void TestCli::benchJson()
{
    const Outcome r = run({"bench", "--json", "--filter", "analyze_seed"});
    QCOMPARE(r.status, 0);
    const auto j = nlohmann::json::parse(r.out);
    QCOMPARE(j.at("results").size(), std::size_t(1));
    QCOMPARE(j.at("results")[0].at("name").get<std::string>(), std::string("analyze_seed"));
    QVERIFY(j.at("results")[0].at("median_s").get<double>() > 0);
    QVERIFY(j.at("results")[0].at("runs").get<int>() >= 5);

    // In a process that already runs a QCoreApplication (this test) the drawing benches cannot
    // make widgets: a matching one is skipped with its reason, not reported as unmatched.
    const Outcome chart = run({"bench", "--filter", "chart_100k"});
    QCOMPARE(chart.status, 0);
    QVERIFY2(chart.err.find("chart_100k: skipped") != std::string::npos, chart.err.c_str());
    QVERIFY2(chart.err.find("no benchmark matches") == std::string::npos, chart.err.c_str());
}

void TestCli::binaryRunsHeadless()
{
    // The real executable, with no display at all: a subcommand must not need one.
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(CLAB_BINARY),
            {QStringLiteral("analyze"), QString::fromStdString(examplePath("seed-testbed.clab")),
             QStringLiteral("--json")});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
    const auto j = nlohmann::json::parse(p.readAllStandardOutput().toStdString());
    QCOMPARE(j.at("systems").size(), std::size_t(4));

    p.start(QStringLiteral(CLAB_BINARY), {QStringLiteral("anlyze")});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 2);

    // The bench makes a QApplication for the chart bench and destroys it before main() returns;
    // the process ends normally (under ASan too, where a leak at exit would exit 1).
    p.start(QStringLiteral(CLAB_BINARY),
            {QStringLiteral("bench"), QStringLiteral("--filter"), QStringLiteral("chart_100k")});
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 0);
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
