// `composelab machine`: what a real machine printed becomes a design file that analyze and predict
// read; bad input is named and an existing file is never replaced unasked.
#include "clirun.h"
#include "util/fileio.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

using namespace clab;

namespace {

const char *kTopo = "me@node3:~$ nvidia-smi topo -m\n"
                    "        GPU0    GPU1    GPU2    GPU3    CPU Affinity    NUMA Affinity\n"
                    "GPU0     X      PIX     SYS     SYS     0-31    0\n"
                    "GPU1    PIX      X      SYS     SYS     0-31    0\n"
                    "GPU2    SYS     SYS      X      PIX     32-63   1\n"
                    "GPU3    SYS     SYS     PIX      X      32-63   1\n";

} // namespace

class TestMachineCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void buildsAnalyzableDesign();
    void refusesToReplace();
    void namesBadInput();
    void storedMeasurementsOfTheSameSystem();

private:
    std::string file(const char *name, const std::string &text)
    {
        const std::string path = m_dir.filePath(QString::fromLatin1(name)).toStdString();
        writeFileAtomically(path, text);
        return path;
    }
    QTemporaryDir m_dir;
};

void TestMachineCli::buildsAnalyzableDesign()
{
    const std::string topo = file("topo.txt", kTopo);
    const std::string out = m_dir.filePath(QStringLiteral("node3.clab")).toStdString();
    test::Outcome r = test::run({"machine", topo, "--gpu", "A100-PCIe-80GB", "--out", out});
    QVERIFY2(r.status == 0, r.err.c_str());
    QVERIFY2(r.out.find("4 GPUs (A100-PCIe-80GB), 0 NICs, 2 switches") != std::string::npos,
             r.out.c_str());
    QVERIFY2(r.out.find("note: the matrix does not name the processor") != std::string::npos,
             r.out.c_str());
    r = test::run({"analyze", out, "--json"});
    QVERIFY2(r.status == 0, r.err.c_str());
    QVERIFY(r.out.find("\"node3\"") != std::string::npos);
    r = test::run({"predict", out, "--benchmark", "resnet50"});
    QVERIFY2(r.status == 0, r.err.c_str());
}

void TestMachineCli::refusesToReplace()
{
    const std::string topo = file("topo2.txt", kTopo);
    const std::string out = file("mine.clab", "my own work");
    test::Outcome r = test::run({"machine", topo, "--gpu", "T4", "--out", out});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find("--force") != std::string::npos, r.err.c_str());
    QCOMPARE(readTextFile(out), std::string("my own work"));
    r = test::run({"machine", topo, "--gpu", "T4", "--out", out, "--force"});
    QVERIFY2(r.status == 0, r.err.c_str());
    QVERIFY(readTextFile(out) != "my own work");
}

void TestMachineCli::namesBadInput()
{
    const std::string topo = file("topo3.txt", kTopo);
    const std::string junk = file("junk.txt", "hello\n");
    const std::string out = m_dir.filePath(QStringLiteral("x.clab")).toStdString();
    test::Outcome r = test::run({"machine", topo, junk, "--gpu", "T4", "--out", out});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find(junk + ": not `nvidia-smi topo -m` output") != std::string::npos,
             r.err.c_str());
    r = test::run({"machine", topo, "--out", out});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find(": --gpu: the matrix does not name the GPU model") != std::string::npos,
             r.err.c_str());
    r = test::run({"machine", topo, "--gpu", "GTX-480", "--out", out});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find("--gpu: GPU model 'GTX-480' is not in the catalog") != std::string::npos,
             r.err.c_str());
    QVERIFY(!QFile::exists(QString::fromStdString(out)));
}

// Tool outputs imported as a system's (`import --system`) meet the model in `analyze --db` for the
// design system of that name, whatever its case; without the name, or without --db, they do not.
void TestMachineCli::storedMeasurementsOfTheSameSystem()
{
    const std::string topo = file("topo4.txt", kTopo);
    const std::string design = m_dir.filePath(QStringLiteral("node7.clab")).toStdString();
    test::Outcome r = test::run(
        {"machine", topo, "--gpu", "A100-PCIe-80GB", "--name", "node7", "--out", design});
    QVERIFY2(r.status == 0, r.err.c_str());
    const std::string data = std::string(CLAB_TEST_DATA) + "/import/";
    const std::string named = m_dir.filePath(QStringLiteral("named.sqlite")).toStdString();
    r = test::run({"import", "--db", named, "--system", "NODE7", data + "p2p_bandwidth_latency.txt",
                   data + "bandwidth_test.txt", data + "nccl_all_reduce.txt"});
    QVERIFY2(r.status == 0, r.err.c_str());
    const std::string anonymous = m_dir.filePath(QStringLiteral("anon.sqlite")).toStdString();
    r = test::run({"import", "--db", anonymous, data + "p2p_bandwidth_latency.txt"});
    QVERIFY2(r.status == 0, r.err.c_str());

    const auto measured = [&](const std::vector<std::string> &args) {
        const test::Outcome a = test::run(args);
        if (a.status != 0)
            qWarning("%s", a.err.c_str());
        const nlohmann::json j = nlohmann::json::parse(a.out);
        int h2d = 0, p2p = 0;
        for (const auto &row : j["systems"][0]["h2d"])
            h2d += row.contains("measured_GBps");
        for (const auto &row : j["systems"][0]["p2p"])
            p2p += row.contains("measured_GBps");
        return std::pair{h2d, p2p};
    };
    QCOMPARE(measured({"analyze", design, "--json"}), std::pair(0, 0));
    QCOMPARE(measured({"analyze", design, "--json", "--db", anonymous}), std::pair(0, 0));
    // bandwidthTest measured device 0; the p2p matrix has GPUs 0-2: 3 x 2 ordered pairs.
    QCOMPARE(measured({"analyze", design, "--json", "--db", named}), std::pair(1, 6));

    // The text says it too, pair by pair.
    r = test::run({"analyze", design, "--db", named});
    QVERIFY2(r.out.find("Measured beside the model") != std::string::npos, r.out.c_str());
    QVERIFY2(r.out.find("host -> gpu0") != std::string::npos, r.out.c_str());
    QVERIFY2(r.out.find("gpu0 -> gpu2") != std::string::npos, r.out.c_str());
    r = test::run({"analyze", design});
    QVERIFY(r.out.find("Measured beside the model") == std::string::npos);

    const std::string missing = m_dir.filePath(QStringLiteral("none.sqlite")).toStdString();
    r = test::run({"analyze", design, "--db", missing});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find(missing + ": no such store") != std::string::npos, r.err.c_str());
    QVERIFY(!QFile::exists(QString::fromStdString(missing)));
}

QTEST_GUILESS_MAIN(TestMachineCli)
#include "tst_machinecli.moc"
