// `composelab study`, `merge` and `example seed-study`: the seed study run whole and as shards,
// merged back; bad studies and merges named, and nothing written by a refused merge.
#include "clirun.h"
#include "store/store.h"
#include "util/fileio.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QImage>
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <sstream>

using namespace clab;

namespace {

bool has(const std::string &text, const char *part)
{
    return text.find(part) != std::string::npos;
}

std::vector<std::string> runsOf(const std::string &path)
{
    store::Store s(path);
    std::vector<std::string> rows;
    for (const store::StoredRun &r : s.runs())
        rows.push_back(r.system + "|" + r.run().benchmark + "|" + std::to_string(r.run().value)
                       + "|" + r.run().tags + "|" + r.run().details);
    std::sort(rows.begin(), rows.end());
    return rows;
}

} // namespace

class TestStudyCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void seedStudyWholeAndSharded()
    {
        const std::string study = path("seed.clabstudy");
        test::Outcome r = test::run({"example", "seed-study", "--out", study});
        QVERIFY2(r.status == 0, r.err.c_str());
        r = test::run({"study", study, "--count"});
        QCOMPARE(r.out, std::string("64\n"));

        // --json: one object per point, dropped ones with their reason.
        r = test::run({"study", study, "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        std::istringstream lines(r.out);
        int points = 0, dropped = 0;
        for (std::string line; std::getline(lines, line); ++points) {
            const auto j = nlohmann::json::parse(line);
            QCOMPARE(j["point"].get<int>(), points);
            if (j.contains("dropped"))
                ++dropped;
            else
                QVERIFY(j["throughput"].get<double>() > 0);
        }
        QCOMPARE(points, 64);
        QCOMPARE(dropped, 16);

        // The table lists the predicted points and sums up the dropped ones.
        const std::string whole = path("whole.sqlite");
        r = test::run({"study", study, "--db", whole, "--jobs", "2"});
        QVERIFY2(r.status == 0, r.err.c_str());
        QVERIFY2(has(r.out, "pooled 8x A100-PCIe-40GB, 2 uplinks") && has(r.out, "bert_large"),
                 r.out.c_str());
        QVERIFY2(has(r.out, "Dropped 16 points: uplinks apply to pooled GPUs only"), r.out.c_str());
        QVERIFY2(has(r.err, "64 points, 48 predicted, 16 dropped")
                     && has(r.err, "48 predicted runs"),
                 r.err.c_str());

        std::vector<std::string> merge = {"merge", path("merged.sqlite")};
        for (int k = 1; k <= 4; ++k) {
            const std::string shard = path(("shard" + std::to_string(k) + ".sqlite").c_str());
            r = test::run({"study", study, "--db", shard, "--shard", std::to_string(k) + "/4"});
            QVERIFY2(r.status == 0, r.err.c_str());
            QVERIFY2(has(r.err, ("shard " + std::to_string(k) + "/4: 16 points").c_str()),
                     r.err.c_str());
            merge.push_back(shard);
        }
        r = test::run(merge);
        QVERIFY2(r.status == 0, r.err.c_str());
        QVERIFY2(has(r.out, "Merged 4 stores") && has(r.out, "48 runs"), r.out.c_str());
        QCOMPARE(runsOf(path("merged.sqlite")), runsOf(whole));

        // The compare chart of the study.
        const std::string png = path("compare.png");
        r = test::run({"chart", "--kind", "compare", "--db", whole, "--benchmark", "bert_large",
                       "--out", png});
        QVERIFY2(r.status == 0, r.err.c_str());
        QVERIFY(std::filesystem::file_size(png) > 10'000);

        // Time against cost, for a paper's column (6 x 4 in at 200 dpi) and for slides.
        const std::string pareto = path("pareto.png");
        r = test::run({"chart", "--kind", "pareto", "--db", whole, "--benchmark", "resnet50",
                       "--size", "6x4in", "--dpi", "200", "--out", pareto});
        QVERIFY2(r.status == 0, r.err.c_str());
        const QImage paper(QString::fromStdString(pareto));
        QCOMPARE(paper.size(), QSize(1200, 800));
        r = test::run({"chart", "--kind", "pareto-energy", "--db", whole, "--style", "slides",
                       "--out", pareto});
        QVERIFY2(r.status == 0, r.err.c_str());
        QVERIFY2(has(r.err, "points not drawn (chart that benchmark alone to draw them)"),
                 r.err.c_str());
        for (const char *size : {"6x4", "1x1in", "6x4ft", "x4in", "6x4in2"}) {
            r = test::run(
                {"chart", "--kind", "pareto", "--db", whole, "--size", size, "--out", pareto});
            QCOMPARE(r.status, 2);
            QVERIFY2(has(r.err, "--size"), r.err.c_str());
        }
        // Every predicted point carries its energy and cost.
        r = test::run({"study", study, "--json"});
        QVERIFY2(has(r.out, "\"energy_kwh\"") && has(r.out, "\"cost_usd\""), r.out.c_str());
    }

    void badStudiesAndMerges()
    {
        const std::string bad = path("bad.clabstudy");
        writeFileAtomically(bad, "{\"format\": \"composelab-study\", \"version\": 1, \"name\": "
                                 "\"b\", \"base\": {\"node\": {}}, \"axes\": [{\"name\": "
                                 "\"colour\", \"values\": [1]}]}");
        test::Outcome r = test::run({"study", bad});
        QCOMPARE(r.status, 1);
        QVERIFY2(has(r.err, "bad.clabstudy: at /axes/0/name: unknown axis \"colour\"")
                     && has(r.err, "gpu, gpus, placement"),
                 r.err.c_str());
        r = test::run({"study", path("none.clabstudy")});
        QCOMPARE(r.status, 1);
        for (const char *shard : {"0/4", "5/4", "1", "a/b", "1/0"}) {
            r = test::run({"study", bad, "--shard", shard});
            QCOMPARE(r.status, 2);
            QVERIFY2(has(r.err, "--shard"), r.err.c_str());
        }

        // Two different studies do not merge, and the output is not even created.
        auto studyOf = [&](const char *name, const char *gpus) {
            const std::string file = path((std::string(name) + ".clabstudy").c_str());
            writeFileAtomically(file,
                                std::string("{\"format\": \"composelab-study\", \"version\": 1, "
                                            "\"name\": \"")
                                    + name
                                    + "\", \"base\": {\"node\": {}}, \"axes\": [{\"name\": "
                                      "\"gpus\", \"values\": "
                                    + gpus + "}]}");
            const std::string db = path((std::string(name) + ".sqlite").c_str());
            const test::Outcome o = test::run({"study", file, "--db", db});
            return o.status == 0 ? db : std::string();
        };
        const std::string a = studyOf("a", "[1, 2]"), b = studyOf("b", "[4]");
        QVERIFY(!a.empty() && !b.empty());
        const std::string out = path("out.sqlite");
        r = test::run({"merge", out, a, b});
        QCOMPARE(r.status, 1);
        QVERIFY2(has(r.err, "different studies") && has(r.err, "b.sqlite"), r.err.c_str());
        QVERIFY(!std::filesystem::exists(out));
    }

private:
    std::string path(const char *name) { return m_dir.path().toStdString() + "/" + name; }
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestStudyCli)
#include "tst_studycli.moc"
