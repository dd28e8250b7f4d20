// `composelab topo`: called directly (the subcommand is wired into cli.cpp separately) and
// through a CLI11 app built with addTopoSubcommand.
#include "cli/topocommand.h"

#include "app/clirun.h"

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
    void placementByHand();
    void placementWithFaults();
    void paperQueueSubmesh();
    void placementChart();
    void placementBadValues_data();
    void placementBadValues();
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

void TestTopoCli::placementByHand()
{
    // A 4×4 grid and the queue 2, 16, 1. Sorted takes the 16-board job first (the whole grid)
    // and nothing else fits. FIFO greedy puts the 2-board job in a 1×2 block at (0, 0), then
    // stops at the 16-board one: 2 of 16 boards.
    const auto r = clab::test::run(
        {"topo", "hammingmesh", "--grid", "4x4", "--place", "both", "--jobs", "2,16,1", "--json"});
    QCOMPARE(r.status, 0);
    const auto j = nlohmann::json::parse(r.out);
    QCOMPARE(j.at("grid").at("boards").get<int>(), 16);
    QCOMPARE(j.at("queue").at("source").get<std::string>(), std::string("given"));
    QCOMPARE(j.at("queue").at("requested_boards").get<int>(), 19);
    QCOMPARE(j.at("runs").size(), std::size_t(2)); // no faults asked: one run per policy
    const auto &sorted = j.at("runs")[0];
    QCOMPARE(sorted.at("policy").get<std::string>(), std::string("sorted"));
    QCOMPARE(sorted.at("placed_jobs").get<int>(), 1);
    QCOMPARE(sorted.at("allocated_boards").get<int>(), 16);
    QCOMPARE(sorted.at("utilisation").get<double>(), 1.0);
    QCOMPARE(sorted.at("blocks")[0].at("job").get<int>(), 1);
    const auto &greedy = j.at("runs")[1];
    QCOMPARE(greedy.at("policy").get<std::string>(), std::string("greedy"));
    QCOMPARE(greedy.at("placed_jobs").get<int>(), 1);
    QCOMPARE(greedy.at("utilisation").get<double>(), 2.0 / 16);
    const auto &block = greedy.at("blocks")[0];
    QCOMPARE(block.at("boards").get<int>(), 2);
    QCOMPARE(block.at("row").get<int>(), 0);
    QCOMPARE(block.at("col").get<int>(), 0);
    QCOMPARE(block.at("rows").get<int>() * block.at("cols").get<int>(), 2);

    const auto plain = clab::test::run(
        {"topo", "hammingmesh", "--grid", "4x4", "--place", "greedy", "--jobs", "2,16,1"});
    QCOMPARE(plain.status, 0);
    QVERIFY2(plain.out.find("greedy        0") != std::string::npos, plain.out.c_str());
    QVERIFY2(plain.out.find("12.50 %") != std::string::npos, plain.out.c_str());
}

void TestTopoCli::placementWithFaults()
{
    const std::vector<std::string> args
        = {"topo",     "hammingmesh", "--grid", "16x16", "--place", "both",
           "--faulty", "0.05",        "--seed", "3",     "--json"};
    const auto r = clab::test::run(args);
    QCOMPARE(r.status, 0);
    QCOMPARE(clab::test::run(args).out, r.out); // seeded: the same queue and faults every time
    const auto j = nlohmann::json::parse(r.out);
    QCOMPARE(j.at("queue").at("source").get<std::string>(), std::string("trace"));
    QCOMPARE(j.at("queue").at("max_job_boards").get<int>(), 64);
    QVERIFY(j.at("queue").at("requested_boards").get<int>() >= 256);
    const int faulty = j.at("faulty_boards").get<int>();
    QCOMPARE(int(j.at("faulty_at").size()), faulty);
    QVERIFY(faulty > 0); // P(no fault among 256 at 5 %) = 0.95^256 ≈ 2e-6
    QCOMPARE(j.at("runs").size(), std::size_t(4)); // sorted, sorted with faults, greedy, ...
    const auto sizes = j.at("queue").at("sizes").get<std::vector<int>>();
    for (const auto &run : j.at("runs")) {
        const bool withFaults = run.at("faults").get<bool>();
        QCOMPARE(run.at("healthy_boards").get<int>(), 256 - (withFaults ? faulty : 0));
        // Every block lies on the grid, on healthy boards, apart from the others, and is as
        // large as its job asked or a little larger.
        std::vector<int> taken(256, 0);
        if (withFaults) {
            for (const auto &at : j.at("faulty_at"))
                taken[std::size_t(at[0].get<int>() * 16 + at[1].get<int>())] = 1;
        }
        long long requested = 0, allocated = 0;
        for (const auto &b : run.at("blocks")) {
            const int r0 = b.at("row").get<int>(), c0 = b.at("col").get<int>();
            const int h = b.at("rows").get<int>(), w = b.at("cols").get<int>();
            QVERIFY(r0 >= 0 && c0 >= 0 && r0 + h <= 16 && c0 + w <= 16);
            for (int i = r0; i < r0 + h; ++i) {
                for (int k = c0; k < c0 + w; ++k)
                    QCOMPARE(taken[std::size_t(i * 16 + k)]++, 0);
            }
            const int boards = sizes[b.at("job").get<std::size_t>()];
            QCOMPARE(b.at("boards").get<int>(), boards);
            QVERIFY(h * w >= boards);
            requested += boards;
            allocated += h * w;
        }
        QCOMPARE(run.at("requested_boards").get<long long>(), requested);
        QCOMPARE(run.at("allocated_boards").get<long long>(), allocated);
        QCOMPARE(run.at("utilisation").get<double>(),
                 double(requested) / run.at("healthy_boards").get<double>());
    }
}

void TestTopoCli::paperQueueSubmesh()
{
    // The paper's queue on 16×16 boards with 10 faulty ones, three policies, three seeds: each
    // queue asks for exactly the healthy boards, and a submesh job holds the crossings of its
    // rows and columns, all healthy and apart from the other jobs.
    const auto r
        = clab::test::run({"topo", "hammingmesh", "--grid", "16x16", "--place", "all", "--queue",
                           "paper", "--faulty-boards", "10", "--seeds", "3", "--json"});
    QCOMPARE(r.status, 0);
    const auto j = nlohmann::json::parse(r.out);
    QCOMPARE(j.at("queue").at("source").get<std::string>(), std::string("paper"));
    QCOMPARE(j.at("queue").at("requested_boards").get<int>(), 256);
    QCOMPARE(j.at("seeds").get<int>(), 3);
    QCOMPARE(j.at("runs").size(), std::size_t(6)); // 3 policies × (no faults, 10 faulty)
    QCOMPARE(j.at("runs")[0].at("policy").get<std::string>(), std::string("submesh"));
    const auto &faulty = j.at("runs")[1];
    QCOMPARE(faulty.at("faulty_boards").get<int>(), 10);
    QCOMPARE(faulty.at("utilisation_by_seed").size(), std::size_t(3));
    std::vector<int> taken(256, 0);
    for (const auto &at : j.at("faulty_at"))
        taken[std::size_t(at[0].get<int>() * 16 + at[1].get<int>())] = 1;
    QCOMPARE(int(j.at("faulty_at").size()), 10);
    long long requested = 0;
    for (const auto &b : faulty.at("blocks")) {
        const auto rows = b.at("row_ids").get<std::vector<int>>();
        const auto cols = b.at("col_ids").get<std::vector<int>>();
        QCOMPARE(int(rows.size()), b.at("rows").get<int>());
        QCOMPARE(int(cols.size()), b.at("cols").get<int>());
        for (int row : rows) {
            for (int col : cols)
                QCOMPARE(taken[std::size_t(row * 16 + col)]++, 0);
        }
        requested += b.at("boards").get<int>();
    }
    QCOMPARE(faulty.at("requested_boards").get<long long>(), requested);
    QCOMPARE(faulty.at("healthy_boards").get<int>(), 246);
    QCOMPARE(faulty.at("jobs").get<int>(), int(faulty.at("blocks").size())); // all placed
    // The table says the same in words.
    const auto text = clab::test::run({"topo", "hammingmesh", "--grid", "16x16", "--place", "all",
                                       "--queue", "paper", "--faulty-boards", "10"});
    QCOMPARE(text.status, 0);
    QVERIFY2(text.out.find("the HammingMesh paper's") != std::string::npos, text.out.c_str());
    QVERIFY2(text.out.find("submesh      10") != std::string::npos, text.out.c_str());
}

void TestTopoCli::placementChart()
{
    // `chart --kind placement`: utilisation against faulty boards for the three policies, with
    // the paper's published points on Hx4Mesh 32×32; the CSV holds what is drawn.
    QTemporaryDir dir;
    const std::string png = dir.filePath(QStringLiteral("placement.png")).toStdString();
    const std::string csv = dir.filePath(QStringLiteral("placement.csv")).toStdString();
    auto r = clab::test::run({"chart", "--kind", "placement", "--grid", "32x32", "--board", "4x4",
                              "--faulty-boards", "50,100", "--seeds", "3", "--out", png, "--csv",
                              csv});
    QVERIFY2(r.status == 0, r.err.c_str());
    QVERIFY(QFileInfo(QString::fromStdString(png)).size() > 10'000);
    std::ifstream in(csv);
    std::stringstream text;
    text << in.rdbuf();
    const std::string data = text.str();
    QVERIFY2(data.find("submesh: any rows and columns,predicted,100,") != std::string::npos,
             data.c_str());
    QVERIFY2(data.find("\"paper, sorted (published)\",measured,100,96.08") != std::string::npos,
             data.c_str());
    int lines = 0;
    for (char c : data)
        lines += c == '\n';
    QCOMPARE(lines, 1 + 3 * 3 + 3); // header, 3 policies × (0, 50, 100), the paper's 3 points

    // A grid that is not one of the paper's has no published points; bad values are named.
    r = clab::test::run({"chart", "--kind", "placement", "--grid", "8x8", "--queue", "trace",
                         "--out", png, "--csv", csv});
    QVERIFY2(r.status == 0, r.err.c_str());
    r = clab::test::run(
        {"chart", "--kind", "placement", "--grid", "8x8", "--faulty-boards", "64", "--out", png});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find("faulty-boards: expected 1 to 63") != std::string::npos, r.err.c_str());
    r = clab::test::run({"chart", "--kind", "placement", "--grid", "8", "--out", png});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find("grid") != std::string::npos, r.err.c_str());
}

void TestTopoCli::placementBadValues_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("expect");
    const QStringList base = {QStringLiteral("topo"), QStringLiteral("hammingmesh")};
    auto with = [&](std::initializer_list<const char *> more) {
        QStringList l = base;
        for (const char *m : more)
            l << QString::fromUtf8(m);
        return l;
    };
    QTest::newRow("unknown policy") << with({"--place", "diagonal"}) << 2 << "--place";
    QTest::newRow("other kind") << QStringList{QStringLiteral("topo"), QStringLiteral("torus"),
                                               QStringLiteral("--place"), QStringLiteral("sorted")}
                                << 2 << "hammingmesh only";
    QTest::newRow("faulty without place") << with({"--faulty", "0.1"}) << 2 << "--place";
    QTest::newRow("seed not a number")
        << with({"--place", "sorted", "--seed", "abc"}) << 2 << "--seed";
    QTest::newRow("faulty 1.5") << with({"--place", "sorted", "--faulty", "1.5"}) << 1
                                << "hammingmesh: faulty: expected a fraction";
    QTest::newRow("faulty negative")
        << with({"--place", "sorted", "--faulty", "-0.1"}) << 1 << "hammingmesh: faulty";
    QTest::newRow("zero job") << with({"--place", "sorted", "--jobs", "2,0"}) << 1
                              << "hammingmesh: jobs: job 2 asks for 0 boards";
    QTest::newRow("job too big") << with({"--place", "sorted", "--jobs", "300"}) << 1
                                 << "grid's 256";
    QTest::newRow("huge grid") << with({"--place", "sorted", "--grid", "300x300"}) << 1
                               << "at most 16384 boards";
    QTest::newRow("3d grid") << with({"--place", "sorted", "--grid", "4x4x4"}) << 1
                             << "hammingmesh: grid: expected XxY";
    QTest::newRow("bad board") << with({"--place", "sorted", "--board", "2"}) << 1
                               << "hammingmesh: board: expected AxB";
    QTest::newRow("queue too long") << with({"--place", "sorted", "--jobs-boards", "99999999"}) << 1
                                    << "hammingmesh: jobs-boards";
    QTest::newRow("faulty boards 0")
        << with({"--place", "submesh", "--faulty-boards", "50,0"}) << 1
        << "hammingmesh: faulty-boards: expected 1 to 255 faulty boards";
    QTest::newRow("faulty boards all")
        << with({"--place", "submesh", "--faulty-boards", "256"}) << 1 << "faulty-boards";
    QTest::newRow("no seeds") << with({"--place", "submesh", "--seeds", "0"}) << 1
                              << "hammingmesh: seeds: expected 1 to 1000 seeds, got 0";
    QTest::newRow("unknown queue")
        << with({"--place", "submesh", "--queue", "philly"}) << 2 << "--queue";
    QTest::newRow("queue without place") << with({"--queue", "paper"}) << 2 << "--place";
    QTest::newRow("max job too big")
        << with({"--place", "sorted", "--max-job", "257"}) << 1 << "hammingmesh: max-job";
}

void TestTopoCli::placementBadValues()
{
    QFETCH(QStringList, args);
    QFETCH(int, status);
    QFETCH(QString, expect);
    std::vector<std::string> a;
    for (const QString &s : args)
        a.push_back(s.toStdString());
    const auto r = clab::test::run(a);
    QCOMPARE(r.status, status);
    QVERIFY2(r.err.find(expect.toStdString()) != std::string::npos, r.err.c_str());
    QVERIFY(r.out.empty());
}

QTEST_APPLESS_MAIN(TestTopoCli)

#include "tst_topocli.moc"
