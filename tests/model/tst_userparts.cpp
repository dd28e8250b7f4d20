// Parts that do not exist yet: a user's GPU joins the program's catalog, is refused with the
// place when it is wrong, travels inside the designs that use it, and its predictions say they
// extrapolate.
#include "model/perftest.h"

#include "design/design.h"
#include "perf/gpurates.h"
#include "util/fileio.h"

#include <QTemporaryDir>

#include <cmath>

#include <nlohmann/json.hpp>

using namespace clab;
using namespace clab::perftest;

class TestUserParts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void addsAndMarks();
    void refusesWithThePlace_data();
    void refusesWithThePlace();
    void conflictingId();
    void folderSkipsBadFiles();
    void designCarriesItsParts();
    void predictionsSayTheyExtrapolate();
    void oldReferencesStayValid();
    void userPartsAreNotPeers();
};

namespace {

// An A100-SXM4-80GB with another id and twice the memory bandwidth, as a user would write it.
std::string whatIfGpu(const std::string &id, double bandwidth = 4078)
{
    nlohmann::json gpu = nlohmann::json::parse(cat().entryJson("A100-SXM4-80GB"));
    gpu["id"] = id;
    gpu["name"] = "What-if " + id;
    gpu["aliases"] = nlohmann::json::array();
    gpu["memBwGBps"] = bandwidth;
    gpu["achieved"]["memBwGBps"] = bandwidth * 1710 / 2039;
    return nlohmann::json{{"gpus", {gpu}}}.dump();
}

} // namespace

void TestUserParts::addsAndMarks()
{
    QVERIFY(!cat().gpu("USER-GPU-1"));
    catalog::Catalog::addUserParts(whatIfGpu("USER-GPU-1"), "mine.json");
    const catalog::Gpu *g = cat().gpu("USER-GPU-1");
    QVERIFY(g);
    QVERIFY(g->user);
    QCOMPARE(g->memBwGBps, 4078.0);
    QVERIFY(!cat().gpu("A100-SXM4-80GB")->user);
    QCOMPARE(cat().sectionOf("USER-GPU-1"), std::string("gpus"));
    // The same definition again (a design that embeds it) adds nothing and is no error.
    catalog::Catalog::addUserParts(whatIfGpu("USER-GPU-1"), "again.json");
    QVERIFY(cat().gpu("USER-GPU-1"));
}

void TestUserParts::refusesWithThePlace_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value"); // JSON
    QTest::addColumn<QString>("place");
    QTest::addColumn<QString>("message");
    QTest::newRow("negative bandwidth")
        << QStringLiteral("memBwGBps") << QStringLiteral("-5")
        << QStringLiteral("/gpus/0/memBwGBps") << QStringLiteral("greater than zero");
    QTest::newRow("achieved above peak")
        << QStringLiteral("tflops") << QStringLiteral(R"({"fp16": 10, "fp32": 1})")
        << QStringLiteral("/gpus/0/achieved") << QStringLiteral("above the dense peak");
    QTest::newRow("warp share above 1")
        << QStringLiteral("achieved")
        << QStringLiteral(R"({"gemmTflops": {"fp16": 200}, "warpMmaShare": 1.5, "source": "s"})")
        << QStringLiteral("/gpus/0/achieved/warpMmaShare") << QStringLiteral("at most 1");
    QTest::newRow("no source") << QStringLiteral("source") << QStringLiteral(R"("")")
                               << QStringLiteral("/gpus/0/source")
                               << QStringLiteral("needs a source");
    // Power (and a host's memory) carry their own source, read the same way.
    QTest::newRow("power without source")
        << QStringLiteral("power") << QStringLiteral(R"({"watts": 700, "source": ""})")
        << QStringLiteral("/gpus/0/power/source") << QStringLiteral("every power figure needs");
    QTest::newRow("misspelt key") << QStringLiteral("memBwGBs") << QStringLiteral("2000")
                                  << QStringLiteral("/gpus/0/memBwGBs") << QString();
}

void TestUserParts::refusesWithThePlace()
{
    QFETCH(QString, field);
    QFETCH(QString, value);
    QFETCH(QString, place);
    QFETCH(QString, message);
    nlohmann::json file = nlohmann::json::parse(whatIfGpu("USER-BAD"));
    file["gpus"][0][field.toStdString()] = nlohmann::json::parse(value.toStdString());
    const catalog::Catalog *before = &cat();
    try {
        catalog::Catalog::addUserParts(file.dump(), "bad.json");
        QFAIL("added");
    } catch (const InputError &e) {
        QCOMPARE(e.file(), std::string("bad.json"));
        QVERIFY2(e.place().find(place.toStdString()) != std::string::npos, e.what());
        QVERIFY2(e.message().find(message.toStdString()) != std::string::npos, e.what());
    }
    QVERIFY(!cat().gpu("USER-BAD"));
    QCOMPARE(&cat(), before); // nothing published
}

void TestUserParts::conflictingId()
{
    // A built-in id with other figures: refused, the catalog's stays.
    nlohmann::json file = nlohmann::json::parse(whatIfGpu("A100-SXM4-80GB"));
    try {
        catalog::Catalog::addUserParts(file.dump(), "clash.json");
        QFAIL("added");
    } catch (const InputError &e) {
        QVERIFY2(std::string(e.what()).find("already a part") != std::string::npos, e.what());
    }
    QCOMPARE(cat().gpu("A100-SXM4-80GB")->memBwGBps, 2039.0);
}

void TestUserParts::folderSkipsBadFiles()
{
    QTemporaryDir dir;
    writeFileAtomically(dir.filePath(QStringLiteral("a.json")).toStdString(),
                        whatIfGpu("USER-FOLDER-A"));
    writeFileAtomically(dir.filePath(QStringLiteral("b.json")).toStdString(), "{\"gpus\": [");
    writeFileAtomically(dir.filePath(QStringLiteral("notes.txt")).toStdString(), "not a part");
    const std::vector<std::string> problems
        = catalog::Catalog::addUserFolder(dir.path().toStdString());
    QCOMPARE(problems.size(), std::size_t(1));
    QVERIFY2(problems.front().find("b.json") != std::string::npos, problems.front().c_str());
    QVERIFY(cat().gpu("USER-FOLDER-A"));
    QVERIFY(catalog::Catalog::addUserFolder(dir.filePath(QStringLiteral("absent")).toStdString())
                .empty());
}

void TestUserParts::designCarriesItsParts()
{
    catalog::Catalog::addUserParts(whatIfGpu("USER-GPU-2"), "mine2.json");
    design::Design d;
    d.hosts.push_back({"h", "epyc-7742-2s", {}});
    d.devices.push_back({"g0", "USER-GPU-2", {}, {}, -1});
    d.devices.push_back({"g1", "A100-SXM4-80GB", {}, {}, -1});
    d.links.push_back({"h/cpu0", "g0", "pcie4x16", 1});
    d.links.push_back({"h/cpu0", "g1", "pcie4x16", 1});
    d.systems.push_back({"s", "h", {"g0", "g1"}});
    // The user part's definition, and only it, goes into the file.
    const design::Design saved = design::withUserParts(d);
    const nlohmann::json parts = nlohmann::json::parse(saved.parts);
    QCOMPARE(parts.at("gpus").size(), std::size_t(1));
    QCOMPARE(parts.at("gpus")[0].at("id").get<std::string>(), std::string("USER-GPU-2"));
    // Save, read, save: the same bytes, parts included.
    const std::string text = design::writeDesign(saved);
    const design::Design back = design::readDesign(text, "d.clab");
    QCOMPARE(back.parts, saved.parts);
    QCOMPARE(design::writeDesign(back), text);
    // A design that uses no user part carries none.
    d.devices[0].model = "A100-SXM4-80GB";
    QVERIFY(design::withUserParts(d).parts.empty());
    // Parts of the wrong shape are refused with the place.
    try {
        design::readDesign(R"({"formatVersion": 1, "appVersion": "0", "parts": {"gpus": 3}})",
                           "p.clab");
        QFAIL("read");
    } catch (const InputError &e) {
        QVERIFY2(e.place().find("/parts") != std::string::npos, e.what());
    }
}

void TestUserParts::predictionsSayTheyExtrapolate()
{
    catalog::Catalog::addUserParts(whatIfGpu("USER-GPU-3"), "mine3.json");
    const catalog::Gpu *g = cat().gpu("USER-GPU-3");
    QVERIFY(g);
    perf::SystemSpec spec;
    spec.gpu = "USER-GPU-3";
    spec.gpusPerNode = 1;
    const perf::Platform p = perf::platformOf(spec, cat());
    QCOMPARE(p.gpu, g);
    const perf::Prediction r = predictBuiltin(p, builtinWorkload("resnet50"), 256);
    bool said = false;
    for (const std::string &e : r.extrapolation)
        said = said || e.find("user-defined") != std::string::npos;
    QVERIFY(said);
    // A wider interval than the same GPU as shipped.
    spec.gpu = "A100-SXM4-80GB";
    const perf::Prediction shipped
        = predictBuiltin(perf::platformOf(spec, cat()), builtinWorkload("resnet50"), 256);
    QVERIFY(r.intervalMin[1] / r.intervalMin[0] > shipped.intervalMin[1] / shipped.intervalMin[0]);
}

void TestUserParts::oldReferencesStayValid()
{
    // A reference taken before parts were added still reads a whole catalog (another thread may
    // hold it); the new one has the new part.
    const catalog::Catalog &old = cat();
    catalog::Catalog::addUserParts(whatIfGpu("USER-GPU-4"), "mine4.json");
    QVERIFY(!old.gpu("USER-GPU-4"));
    QVERIFY(old.gpu("A100-SXM4-80GB"));
    QVERIFY(cat().gpu("USER-GPU-4"));
}

QTEST_APPLESS_MAIN(TestUserParts)
void TestUserParts::userPartsAreNotPeers()
{
    // Two user A100s with a made-up 500 us kernel time: a shipped Ampere part without its own
    // figure (A100 PCIe) still takes the measured Ampere parts' median, 11.0 and 11.1 us.
    for (const char *id : {"USER-GPU-5", "USER-GPU-6"}) {
        nlohmann::json file = nlohmann::json::parse(whatIfGpu(id));
        file["gpus"][0]["achieved"]["gemmFixedUs"] = 500;
        catalog::Catalog::addUserParts(file.dump(), std::string(id) + ".json");
    }
    const catalog::Gpu *pcie = cat().gpu("A100-PCIe-40GB");
    QVERIFY(pcie && !pcie->achieved.gemmFixedUs);
    const perf::GpuRates r = perf::gpuRates(*pcie, perf::Precision::Fp16, cat());
    QVERIFY2(std::abs(r.gemmFixedS - 11.05e-6) < 1e-12, qPrintable(QString::number(r.gemmFixedS)));
    // The user part itself runs on its own figure.
    const perf::GpuRates own
        = perf::gpuRates(*cat().gpu("USER-GPU-5"), perf::Precision::Fp16, cat());
    QCOMPARE(own.gemmFixedS, 500e-6);
}

#include "tst_userparts.moc"
