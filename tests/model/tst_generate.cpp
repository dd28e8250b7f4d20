// Synthetic job traces (schedule/generate.h) against the Helios figures they are drawn from:
// the share of one-GPU jobs, the median duration and the mean size the artifact publishes, the
// offered load, the day's shape, and a round trip through the trace reader.
#include "schedule/generate.h"
#include "schedule/trace.h"

#include <QTest>

#include <algorithm>
#include <numeric>

using namespace clab::schedule;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

class TestGenerate : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void matchesThePublishedFigures();
    void offersTheLoad();
    void followsTheDay();
    void sameSeedSameTrace();
    void readsBack();
    void badSpecs();
};

void TestGenerate::matchesThePublishedFigures()
{
    // Helios pooled (datasets/helios_jobs.json): 72.19 % of GPU jobs ask for one GPU (the four
    // clusters' shares weighted by their jobs); the artifact publishes a median duration of
    // 206 s and 3.72 GPUs per job on average (jobs above 64 GPUs, drawn at 128, make the mean
    // approximate: within 10 %).
    TraceSpec s;
    s.jobs = 200'000;
    s.totalGpus = 4096;
    s.seed = 7;
    const auto jobs = generateTrace(s);
    const double ones
        = double(std::count_if(jobs.begin(), jobs.end(), [](const Job &j) { return j.gpus == 1; }))
          / double(jobs.size());
    QVERIFY2(std::abs(ones - 0.7219) < 0.005, qPrintable(QString::number(ones)));
    std::vector<double> durations;
    double gpus = 0;
    for (const Job &j : jobs) {
        durations.push_back(j.durationS);
        gpus += j.gpus;
    }
    const double med = median(durations);
    QVERIFY2(std::abs(med - 206) < 0.1 * 206, qPrintable(QString::number(med)));
    const double mean = gpus / double(jobs.size());
    QVERIFY2(std::abs(mean - 3.72) < 0.1 * 3.72, qPrintable(QString::number(mean)));
    // Venus asks for more GPUs per job: half its jobs (51.84 %) take one.
    s.cluster = "venus";
    s.jobs = 50'000;
    const auto venus = generateTrace(s);
    const double venusOnes = double(std::count_if(venus.begin(), venus.end(),
                                                  [](const Job &j) { return j.gpus == 1; }))
                             / double(venus.size());
    QVERIFY2(std::abs(venusOnes - 0.5184) < 0.01, qPrintable(QString::number(venusOnes)));
}

void TestGenerate::offersTheLoad()
{
    // Offered load: the GPU-seconds asked for over the GPUs times the time the jobs arrive
    // over. A Poisson process of 20,000 arrivals hits its rate to about 1 % (checked to 5 %).
    TraceSpec s;
    s.jobs = 20'000;
    s.totalGpus = 64;
    s.maxGpus = 16;
    s.load = 0.6;
    const auto jobs = generateTrace(s);
    double work = 0;
    for (const Job &j : jobs) {
        QVERIFY(j.gpus >= 1 && j.gpus <= 16);
        work += j.gpus * j.durationS;
    }
    const double offered = work / (64 * jobs.back().submitS);
    QVERIFY2(std::abs(offered - 0.6) < 0.03, qPrintable(QString::number(offered)));
    QVERIFY(std::is_sorted(jobs.begin(), jobs.end(),
                           [](const Job &a, const Job &b) { return a.submitS < b.submitS; }));
    // Following the day, over many days (5 GPUs: about 30 days of arrivals), the same load.
    s.diurnal = true;
    s.totalGpus = 5;
    s.maxGpus = 4;
    const auto daily = generateTrace(s);
    work = 0;
    for (const Job &j : daily)
        work += j.gpus * j.durationS;
    const double offeredDaily = work / (5 * (daily.back().submitS - daily.front().submitS));
    QVERIFY2(daily.back().submitS > 20 * 86400, qPrintable(QString::number(daily.back().submitS)));
    QVERIFY2(std::abs(offeredDaily - 0.6) < 0.05, qPrintable(QString::number(offeredDaily)));
}

void TestGenerate::followsTheDay()
{
    // With --diurnal, submissions per hour follow Helios Venus: 16-17 h (50.0 an hour) against
    // 5-6 h (5.9): about 8.5 times as many; without it, about as many.
    TraceSpec s;
    s.jobs = 100'000;
    s.totalGpus = 1024;
    s.diurnal = true;
    auto perHour = [](const std::vector<Job> &jobs) {
        std::vector<double> n(24, 0);
        for (const Job &j : jobs)
            ++n[std::size_t(std::fmod(j.submitS, 86400) / 3600)];
        return n;
    };
    auto n = perHour(generateTrace(s));
    const double ratio = n[16] / n[5];
    QVERIFY2(ratio > 7 && ratio < 10, qPrintable(QString::number(ratio)));
    s.diurnal = false;
    n = perHour(generateTrace(s));
    QVERIFY2(n[16] / n[5] > 0.9 && n[16] / n[5] < 1.1, qPrintable(QString::number(n[16] / n[5])));
}

void TestGenerate::sameSeedSameTrace()
{
    TraceSpec s;
    s.totalGpus = 12;
    s.benchmarks = {"resnet50", "bert_large"};
    const std::string a = traceCsv(generateTrace(s)), b = traceCsv(generateTrace(s));
    QCOMPARE(a, b);
    s.seed = 2;
    QVERIFY(traceCsv(generateTrace(s)) != a);
    QVERIFY(a.find("resnet50") != std::string::npos && a.find("bert_large") != std::string::npos);
}

void TestGenerate::readsBack()
{
    // Late submissions keep their tenths (not 1.23457e+06).
    TraceSpec s;
    s.jobs = 3000;
    s.totalGpus = 12;
    s.load = 0.05;
    s.benchmarks = {"resnet50"};
    const auto jobs = generateTrace(s);
    QVERIFY(jobs.back().submitS > 1e6);
    const auto back = readTrace(traceCsv(jobs), "gen.csv", 12);
    QCOMPARE(back.size(), jobs.size());
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        QCOMPARE(back[i].gpus, jobs[i].gpus);
        QCOMPARE(back[i].submitS, jobs[i].submitS);
        QCOMPARE(back[i].durationS, jobs[i].durationS);
        QCOMPARE(back[i].benchmark, jobs[i].benchmark);
    }
}

void TestGenerate::badSpecs()
{
    TraceSpec s;
    s.totalGpus = 8;
    s.cluster = "philly";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateTrace(s));
    s.cluster = "earth";
    s.totalGpus = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateTrace(s));
    QCOMPARE(traceClusters(),
             (std::vector<std::string>{"earth", "helios", "saturn", "uranus", "venus"}));
}

QTEST_APPLESS_MAIN(TestGenerate)
#include "tst_generate.moc"
