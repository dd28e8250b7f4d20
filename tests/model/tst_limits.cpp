// The limits of model/util/limits.h on design files and JSON: each is refused with a message that
// names the file, the place and the limit, the largest allowed input still loads, and the
// analysis of a big allowed design finishes.
#include "catalog/catalog.h"
#include "design/design.h"
#include "design/examples.h"
#include "fabric/analysis.h"
#include "util/fileio.h"
#include "util/inputerror.h"
#include "util/jsonreader.h"
#include "util/limits.h"
#include "util/utf8.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace clab;

namespace {

const std::string kHead = R"({"formatVersion": 1, "appVersion": "0.1.0", )";

// A design of `n` unplaced GPUs, written the way a generator would.
std::string devices(std::size_t n)
{
    std::string text = kHead + R"("devices": [)";
    text.reserve(n * 48);
    for (std::size_t i = 0; i < n; ++i)
        text += (i ? ",\n" : "") + (R"({"id": "g)" + std::to_string(i) + R"(", "model": "x"})");
    return text + "]}";
}

// One system per entry of `sizes`, listing that many device ids (the devices need not exist for
// the reader; the rules report them).
std::string systems(const std::vector<std::size_t> &sizes)
{
    std::string text = kHead + R"("systems": [)";
    for (std::size_t s = 0; s < sizes.size(); ++s) {
        text += (s ? "," : "")
                + (R"({"name": "s)" + std::to_string(s) + R"(", "host": "h", "devices": [)");
        for (std::size_t i = 0; i < sizes[s]; ++i)
            text += (i ? "," : "") + ("\"d" + std::to_string(s) + "-" + std::to_string(i) + "\"");
        text += "]}";
    }
    return text + "]}";
}

std::string nested(std::size_t depth)
{
    return std::string(depth, '[') + std::string(depth, ']');
}

// The message of the InputError that `f` throws, or a note that it threw none.
template<typename F>
QString errorOf(F &&f)
{
    try {
        f();
    } catch (const InputError &e) {
        return QString::fromStdString(e.what());
    }
    return QStringLiteral("(accepted)");
}

bool contains(const QString &text, const std::string &part)
{
    return text.contains(QString::fromStdString(part));
}

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

// `systems` hosts, each with one GPU and one NIC cabled to a single InfiniBand switch.
design::Design networkedSystems(int systems)
{
    design::Design d;
    d.switches.push_back({"ib", "qm9700", {}});
    for (int i = 0; i < systems; ++i) {
        const std::string n = std::to_string(i);
        d.hosts.push_back({"h" + n, "xeon-platinum-8480plus-2s", {}});
        d.devices.push_back({"g" + n, "H100-SXM5-80GB", {}, {}, -1});
        d.devices.push_back({"n" + n, "cx7-ndr-1p", {}, {}, -1});
        d.links.push_back({"h" + n + "/cpu0", "g" + n, "pcie5x16", 1});
        d.links.push_back({"h" + n + "/cpu0", "n" + n, "pcie5x16", 1});
        d.links.push_back({"n" + n, "ib", "ib-ndr", 1});
        d.systems.push_back({"s" + n, "h" + n, {"g" + n, "n" + n}});
    }
    return d;
}

} // namespace

class TestLimits : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void designFileTooLargeIsRefusedBeforeReading()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("huge.clab"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.resize(qint64(100) << 20)); // sparse: nothing is written, nothing to parse
        }
        const QString message = errorOf([&] { design::loadDesign(path.toStdString()); });
        QCOMPARE(message, path + QStringLiteral(": is 100 MB; a design file may be at most 64 MB"));
    }

    void streamsAreCutAtTheLimit()
    {
        // /dev/zero has no size to look at first: reading stops one byte past the limit.
        const QString message = errorOf([] { readTextFile("/dev/zero", 1 << 20, "a test"); });
        QCOMPARE(message,
                 QStringLiteral("/dev/zero: is more than 1 MB; a test may be at most 1 MB"));
    }

    void nestingLimit()
    {
        QVERIFY(parseJson(nested(64), "f.json").is_array());
        QCOMPARE(errorOf([] { parseJson(nested(65), "f.json"); }),
                 QStringLiteral("f.json: line 1, column 65: nested more than 64 levels deep (the "
                                "limit for a JSON file)"));
        // Brackets inside strings are text, not nesting.
        const std::string quoted = "{\"a\": \"" + std::string(1000, '[') + "\\\"" + "\"}";
        QCOMPARE(parseJson(quoted, "q.json")["a"].get<std::string>().size(), std::size_t(1001));
        // A million levels: nlohmann would parse them, and copying or writing the result would
        // overflow the stack.
        const std::string deep = kHead + "\n\"layout\": " + nested(1000000) + "}";
        QCOMPARE(
            errorOf([&] { design::readDesign(deep, "deep.clab"); }),
            QStringLiteral("deep.clab: line 2, column 74: nested more than 64 levels deep (the "
                           "limit for a design file)"));
        QVERIFY(tryParseJson(nested(1000000)).is_discarded());
        QVERIFY(tryParseJson(nested(3)).is_array());
    }

    void itemLimit()
    {
        const design::Design d = design::readDesign(devices(100000), "big.clab");
        QCOMPARE(d.devices.size(), std::size_t(100000));
        QCOMPARE(d.devices.back().id, std::string("g99999"));
        const QString over
            = QStringLiteral("big.clab: at /devices: more than 100000 entries (the limit for "
                             "one array or object in a design file)");
        QCOMPARE(errorOf([] { design::readDesign(devices(100001), "big.clab"); }), over);
        QCOMPARE(errorOf([] { design::readDesign(devices(1000000), "big.clab"); }), over);
        // Objects count their members, and the pointer names them.
        std::string layout = kHead + "\"layout\": {\"positions\": {";
        for (int i = 0; i <= 100000; ++i)
            layout += (i ? "," : "") + ("\"g" + std::to_string(i) + "\": {\"x\": 0, \"y\": 0}");
        layout += "}}}";
        QVERIFY(contains(errorOf([&] { design::readDesign(layout, "l.clab"); }),
                         "l.clab: at /layout/positions: more than 100000 entries"));
        // Other JSON files may have up to a million entries.
        std::string many = "[";
        for (int i = 0; i < 100000; ++i)
            many += "1,";
        QCOMPARE(parseJson(many + "1]", "many.json").size(), std::size_t(100001));
    }

    void peerPairLimit()
    {
        // 1,000 devices in one system: 1000 * 999 = 999,000 ordered pairs, within 10^6.
        QCOMPARE(design::readDesign(systems({1000}), "s.clab").systems[0].devices.size(),
                 std::size_t(1000));
        QVERIFY(contains(errorOf([] { design::readDesign(systems({1001}), "s.clab"); }),
                         "s.clab: at /systems/0/devices: the composed systems list too many "
                         "devices: more than 1000000 ordered device pairs"));
        // Two systems of 708: 2 * 708 * 707 = 1,001,112 pairs; the second one crosses the limit.
        QVERIFY(contains(errorOf([] {
                             design::readDesign(systems({708, 708}), "s.clab");
                         }),
                         "at /systems/1/devices"));
        QCOMPARE(design::readDesign(systems({707, 707}), "s.clab").systems.size(),
                 std::size_t(2)); // 2 * 707 * 706 = 998,284
    }

    // limitProblem() refuses, before saving, exactly the designs readDesign() would refuse.
    void limitProblemMatchesTheReader_data()
    {
        QTest::addColumn<std::vector<int>>("sizes");
        QTest::addColumn<bool>("fits");
        QTest::newRow("1000") << std::vector<int>{1000} << true;
        QTest::newRow("1001") << std::vector<int>{1001} << false;
        QTest::newRow("707+707") << std::vector<int>{707, 707} << true;
        QTest::newRow("708+708") << std::vector<int>{708, 708} << false;
    }

    void limitProblemMatchesTheReader()
    {
        QFETCH(std::vector<int>, sizes);
        QFETCH(bool, fits);
        design::Design d;
        for (std::size_t k = 0; k < sizes.size(); ++k) {
            design::System system{"s" + std::to_string(k), "h", {}};
            for (int i = 0; i < sizes[k]; ++i)
                system.devices.push_back("d" + std::to_string(k) + "-" + std::to_string(i));
            d.systems.push_back(system);
        }
        const std::string problem = design::limitProblem(d);
        QCOMPARE(problem.empty(), fits);
        const QString read = errorOf([&] { design::readDesign(design::writeDesign(d), "s.clab"); });
        QCOMPARE(read == QStringLiteral("(accepted)"), fits);
        if (!fits)
            QVERIFY2(contains(problem, "too many devices"), problem.c_str());

        design::Design many;
        many.links.resize(limits::kMaxDesignItems + 1, design::Link{"h/cpu0", "g", "pcie4", 1});
        QVERIFY(contains(design::limitProblem(many), "100001 links"));

        design::Design far;
        far.layout["h"] = {0, 1e9};
        QVERIFY(design::limitProblem(far).empty());
        far.layout["h"] = {0, 1e9 + 40};
        QVERIFY(contains(design::limitProblem(far), "h would be placed outside the canvas"));
        QVERIFY(contains(errorOf([&] { design::readDesign(design::writeDesign(far), "f.clab"); }),
                         "expected a canvas position"));

        // Two links with one id (a design built in code): refused before saving, as on reading.
        design::Design twice;
        twice.links.push_back({"h/cpu0", "g0", "pcie4x16", 1, "link1"});
        twice.links.push_back({"h/cpu0", "g1", "pcie4x16", 1, "link2"});
        QVERIFY(design::limitProblem(twice).empty());
        twice.links[1].id = "link1";
        QVERIFY2(contains(design::limitProblem(twice), "two links would share the id link1"),
                 design::limitProblem(twice).c_str());
        QVERIFY(contains(errorOf([&] { design::readDesign(design::writeDesign(twice), "t.clab"); }),
                         "already used by the link at /links/0"));
        twice.links[1].id = "h/cpu0 to g1"; // any text but none names a link
        QCOMPARE(design::readDesign(design::writeDesign(twice), "t.clab").links[1].id,
                 twice.links[1].id);
    }

    void numbersInDesigns_data()
    {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("expected");
        const QString gpu = QStringLiteral(
            "\"chassis\": [{\"id\": \"c\", \"model\": \"m\"}], \"devices\": [{\"id\": \"g\", "
            "\"model\": \"m\", \"chassis\": \"c\", \"slot\": %1}]");
        const QString link = QStringLiteral(
            "\"links\": [{\"from\": \"a\", \"to\": \"b\", \"kind\": \"k\", \"count\": %1}]");
        const QString pos
            = QStringLiteral("\"layout\": {\"positions\": {\"g\": {\"x\": %1, \"y\": 0}}}");
        // JSON has no NaN or infinity, and nlohmann refuses numbers beyond a double.
        QTest::newRow("NaN") << gpu.arg(QStringLiteral("NaN")) << QStringLiteral("not valid JSON");
        QTest::newRow("Infinity") << gpu.arg(QStringLiteral("Infinity"))
                                  << QStringLiteral("not valid JSON");
        QTest::newRow("1e999") << gpu.arg(QStringLiteral("1e999"))
                               << QStringLiteral("not valid JSON (number overflow");
        QTest::newRow("negative slot")
            << gpu.arg(QStringLiteral("-3"))
            << QStringLiteral("at /devices/0/slot: expected an integer of at least 0, found -3");
        QTest::newRow("fractional slot")
            << gpu.arg(QStringLiteral("2.5"))
            << QStringLiteral("at /devices/0/slot: expected an integer, found a number");
        QTest::newRow("slot beyond int")
            << gpu.arg(QStringLiteral("99999999999"))
            << QStringLiteral("at /devices/0/slot: expected an integer of at least 0, found "
                              "99999999999");
        QTest::newRow("negative count")
            << link.arg(QStringLiteral("-3"))
            << QStringLiteral("at /links/0/count: expected an integer of at least 1, found -3");
        QTest::newRow("huge count")
            << link.arg(QStringLiteral("1000000000"))
            << QStringLiteral("at /links/0/count: expected at most 1024 parallel links");
        QTest::newRow("huge position")
            << pos.arg(QStringLiteral("1e300"))
            << QStringLiteral("at /layout/positions/g/x: expected a canvas position from -1e9 "
                              "to 1e9, found 1e+300");
    }

    void numbersInDesigns()
    {
        QFETCH(QString, body);
        QFETCH(QString, expected);
        const QString message
            = errorOf([&] { design::readDesign(kHead + body.toStdString() + "}", "n.clab"); });
        QVERIFY2(message.startsWith(QStringLiteral("n.clab: ")) && message.contains(expected),
                 qPrintable(message));
    }

    void ranges_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("range");
        QTest::addColumn<bool>("whole");
        QTest::addColumn<QString>("problem");
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const double inf = std::numeric_limits<double>::infinity();
        QTest::newRow("batch ok") << 65536.0 << 0 << true << QString();
        QTest::newRow("batch -3") << -3.0 << 0 << true
                                  << QStringLiteral(
                                         "expected a batch size from 1 to 1000000000, found -3");
        QTest::newRow("batch 2.5")
            << 2.5 << 0 << true
            << QStringLiteral("expected a batch size as a whole number, found 2.5");
        QTest::newRow("batch nan")
            << nan << 0 << true
            << QStringLiteral("expected a batch size from 1 to 1000000000, found nan");
        QTest::newRow("minutes 0")
            << 0.0 << 1 << false
            << QStringLiteral("expected a time in minutes above 0 and up to 10000000, found 0");
        QTest::newRow("minutes inf")
            << inf << 1 << false
            << QStringLiteral("expected a time in minutes above 0 and up to 10000000, found inf");
        QTest::newRow("minutes 1196.638") << 1196.638 << 1 << false << QString();
        QTest::newRow("bandwidth 1e300")
            << 1e300 << 2 << false
            << QStringLiteral("expected a bandwidth in GB/s from 0 to 1000000, found 1e+300");
        QTest::newRow("bandwidth 0") << 0.0 << 2 << false << QString();
    }

    void ranges()
    {
        QFETCH(double, value);
        QFETCH(int, range);
        QFETCH(bool, whole);
        QFETCH(QString, problem);
        const limits::Range &r = range == 0   ? limits::kBatch
                                 : range == 1 ? limits::kMinutes
                                              : limits::kBandwidth;
        const std::string got
            = whole ? limits::wholeRangeProblem(value, r) : limits::rangeProblem(value, r);
        QCOMPARE(QString::fromStdString(got), problem);
    }

    void utf8_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("invalidAt"); // -1: valid
        QTest::newRow("ascii") << QByteArray("rack 'A'; DROP TABLE runs; --") << -1;
        QTest::newRow("accents, CJK, emoji")
            << QByteArray("caf\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x9A\x80") << -1;
        QTest::newRow("latin-1 e-acute") << QByteArray("caf\xE9") << 3;
        QTest::newRow("overlong slash") << QByteArray("a\xC0\xAF") << 1;
        QTest::newRow("surrogate") << QByteArray("\xED\xA0\x80") << 0;
        QTest::newRow("above U+10FFFF") << QByteArray("ok\xF4\x90\x80\x80") << 2;
        QTest::newRow("cut short") << QByteArray("\xE6\x97") << 0;
        QTest::newRow("lone continuation") << QByteArray("x\x80") << 1;
    }

    void utf8()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, invalidAt);
        const std::size_t at
            = invalidUtf8At(std::string_view(text.constData(), std::size_t(text.size())));
        QCOMPARE(at == std::string_view::npos ? -1 : int(at), invalidAt);
    }

    void bigDesignAnalysisFinishes()
    {
        // The largest pool the item limit allows: 100,000 devices in 25,000 systems of three GPUs
        // and a drive or NIC, so 25,000 * 3 h2d rows and 25,000 * 3 * 2 peer pairs.
        const design::Design pool = design::generatePool(100000);
        const design::Design read = design::readDesign(design::writeDesign(pool), "pool.clab");
        const fabric::Analysis a = fabric::analyze(read, catalog::Catalog::builtin());
        QCOMPARE(a.systems.size(), std::size_t(25000));
        std::size_t h2d = 0, p2p = 0;
        for (const fabric::SystemReport &s : a.systems) {
            h2d += s.h2d.size();
            p2p += s.p2p.size();
        }
        QCOMPARE(h2d, std::size_t(75000));
        QCOMPARE(p2p, std::size_t(150000));
    }

    void networkPathsStayWithinTheRouteBudget()
    {
        // 45 single-NIC systems: 45 * 44 / 2 = 990 pairs, one route each, within 2,000: all.
        const fabric::Analysis all
            = fabric::analyze(networkedSystems(45), catalog::Catalog::builtin());
        QCOMPARE(all.network.size(), std::size_t(990));
        for (const design::Finding &f : all.findings)
            QVERIFY2(!contains(f.message, "networked"), f.message.c_str());
        // 2,500 systems would be 3,123,750 pairs: each gets the path to the next instead, for as
        // many as the budget of 2,000 routes allows, and a warning says so.
        const fabric::Analysis ring
            = fabric::analyze(networkedSystems(2500), catalog::Catalog::builtin());
        QCOMPARE(ring.network.size(), std::size_t(2000));
        QCOMPARE(ring.network[0].from, std::string("s0"));
        QCOMPARE(ring.network[0].to, std::string("s1"));
        QCOMPARE(ring.network[1999].to, std::string("s2000"));
        bool warned = false;
        for (const design::Finding &f : ring.findings)
            warned = warned
                     || (f.severity == design::Severity::Warning
                         && contains(f.message, "2500 systems are networked")
                         && contains(f.message, "for the first 2000"));
        QVERIFY(warned);
    }
};

QTEST_APPLESS_MAIN(TestLimits)
#include "tst_limits.moc"
