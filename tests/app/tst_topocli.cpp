// `composelab topo`: called directly (the subcommand is wired into cli.cpp separately) and
// through a CLI11 app built with addTopoSubcommand.
#include "cli/topocommand.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>

using clab::cli::TopoOptions;

namespace {

struct Outcome
{
    int status;
    std::string out;
    std::string err;
};

Outcome run(const TopoOptions &o)
{
    std::ostringstream out, err;
    const int status = clab::cli::topoCommand(o, out, err);
    return {status, out.str(), err.str()};
}

TopoOptions parse(std::vector<std::string> args)
{
    CLI::App app;
    TopoOptions o;
    clab::cli::addTopoSubcommand(app, o);
    std::reverse(args.begin(), args.end());
    app.parse(args);
    return o;
}

} // namespace

class TestTopoCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void hammingMeshJson();
    void fatTreeAndTorusFromArguments();
    void plainTable();
    void badInput_data();
    void badInput();
    void unknownKind();
    void priceFile();
};

void TestTopoCli::hammingMeshJson()
{
    TopoOptions o;
    o.kind = "hammingmesh";
    o.board = "2x2";
    o.grid = "16x16";
    o.json = true;
    const Outcome r = run(o);
    QCOMPARE(r.status, 0);
    const auto j = nlohmann::json::parse(r.out);
    QCOMPARE(j.at("kind").get<std::string>(), std::string("hammingmesh"));
    QCOMPARE(j.at("accelerators").get<int>(), 1024);
    QCOMPARE(j.at("switches").get<int>(), 64);
    QCOMPARE(j.at("links").at("board").get<int>(), 1024);
    QCOMPARE(j.at("links").at("copper").get<int>(), 2048);
    QCOMPARE(j.at("diameter").get<int>(), 4);
    // 512 links cut (max-flow on this size) × 50 GB/s.
    QCOMPARE(j.at("bisection_GBps").get<double>(), 25600.0);
    QCOMPARE(j.at("bisection_method").get<std::string>(), std::string("max-flow"));
    QCOMPARE(j.at("injection_GBps_per_accelerator").get<double>(), 200.0);
    QCOMPARE(j.at("alltoall_GBps_per_accelerator").get<double>(), 50.0);
    QCOMPARE(j.at("allreduce").size(), std::size_t(6));
    QCOMPARE(j.at("allreduce")[0].at("bytes").get<double>(), 1024.0);
    QVERIFY(j.at("allreduce")[0].at("seconds").get<double>() > 0);
    QVERIFY(j.at("cost").get<double>() > 0);
}

void TestTopoCli::fatTreeAndTorusFromArguments()
{
    TopoOptions o = parse(
        {"topo", "fattree", "--endpoints", "1024", "--radix", "64", "--taper", "2", "--json"});
    QCOMPARE(o.kind, std::string("fattree"));
    QCOMPARE(o.taper, 2);
    Outcome r = run(o);
    QCOMPARE(r.status, 0);
    auto j = nlohmann::json::parse(r.out);
    // 2:1 at radix 64: 42 down, 21 up; ⌈1024/42⌉ = 25 leaves, ⌈25·21/64⌉ = 9 spines; 4 planes.
    QCOMPARE(j.at("switches").get<int>(), 4 * 34);
    QCOMPARE(j.at("links").at("optical").get<int>(), 4 * 25 * 21);
    QCOMPARE(j.at("diameter").get<int>(), 4);

    o = parse({"topo", "torus", "--dims", "32x32", "--json"});
    r = run(o);
    QCOMPARE(r.status, 0);
    j = nlohmann::json::parse(r.out);
    QCOMPARE(j.at("switches").get<int>(), 0);
    QCOMPARE(j.at("diameter").get<int>(), 32);
    QCOMPARE(j.at("alltoall_GBps_per_accelerator").get<double>(), 8 * 50.0 / 32); // 8B/k

    o = parse({"topo", "hammingmesh", "--board", "4x4", "--grid", "32x32", "--json"});
    r = run(o);
    QCOMPARE(r.status, 0);
    j = nlohmann::json::parse(r.out);
    QCOMPARE(j.at("accelerators").get<int>(), 16384);
    QCOMPARE(j.at("switches").get<int>(), 256);
    QCOMPARE(j.at("bisection_method").get<std::string>(), std::string("closed form"));
}

void TestTopoCli::plainTable()
{
    TopoOptions o;
    o.kind = "dragonfly";
    const Outcome r = run(o);
    QCOMPARE(r.status, 0);
    QVERIFY(r.out.find("Dragonfly p=4 a=8 h=4, 33 groups") != std::string::npos);
    QVERIFY(r.out.find("all-reduce:") != std::string::npos);
    QVERIFY(r.err.empty());
}

void TestTopoCli::badInput_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("grid");
    QTest::addColumn<QString>("expect");
    QTest::newRow("zero grid") << QStringLiteral("hammingmesh") << QStringLiteral("0x4")
                               << QStringLiteral("hammingmesh: grid: expected positive sizes");
    QTest::newRow("3d grid") << QStringLiteral("hammingmesh") << QStringLiteral("4x4x4")
                             << QStringLiteral("hammingmesh: grid: expected XxY");
    QTest::newRow("tree too big") << QStringLiteral("hammingmesh") << QStringLiteral("4x2048")
                                  << QStringLiteral("more than two levels");
}

void TestTopoCli::badInput()
{
    QFETCH(QString, kind);
    QFETCH(QString, grid);
    QFETCH(QString, expect);
    TopoOptions o;
    o.kind = kind.toStdString();
    o.grid = grid.toStdString();
    const Outcome r = run(o);
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find(expect.toStdString()) != std::string::npos, r.err.c_str());
    QVERIFY(r.out.empty());
}

void TestTopoCli::unknownKind()
{
    TopoOptions o;
    o.kind = "butterfly";
    const Outcome r = run(o);
    QCOMPARE(r.status, 2);
    QVERIFY(r.err.find("unknown kind") != std::string::npos);
}

void TestTopoCli::priceFile()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("p.json")).toStdString();
    {
        std::ofstream f(path);
        f << R"({"prices": {"switch_port": {"usd": 0, "source": "s"},
                 "copper_cable": {"usd": 1, "source": "s"},
                 "optical_cable": {"usd": 0, "source": "s"},
                 "board_link": {"usd": 0, "source": "s"}}})";
    }
    TopoOptions o;
    o.kind = "torus";
    o.dims = "4x4";
    o.prices = path;
    o.json = true;
    Outcome r = run(o);
    QCOMPARE(r.status, 0);
    QCOMPARE(nlohmann::json::parse(r.out).at("cost").get<double>(), 32.0); // 32 copper links
    {
        std::ofstream f(path);
        f << R"({"prices": {}})";
    }
    r = run(o);
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find("p.json") != std::string::npos, r.err.c_str());
}

QTEST_APPLESS_MAIN(TestTopoCli)

#include "tst_topocli.moc"
