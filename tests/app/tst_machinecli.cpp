// `composelab machine`: what a real machine printed becomes a design file that analyze and predict
// read; bad input is named and an existing file is never replaced unasked.
#include "clirun.h"
#include "util/fileio.h"

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
    QVERIFY2(r.err.find("does not name the GPU model") != std::string::npos, r.err.c_str());
    r = test::run({"machine", topo, "--gpu", "GTX-480", "--out", out});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find("'GTX-480' is not in the catalog") != std::string::npos, r.err.c_str());
    QVERIFY(!QFile::exists(QString::fromStdString(out)));
}

QTEST_GUILESS_MAIN(TestMachineCli)
#include "tst_machinecli.moc"
