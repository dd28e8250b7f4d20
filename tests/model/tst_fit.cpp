// The calibration fit (model/perf/fit.cpp): which factors it creates from which rows.
#include "perf/fit.h"

#include <QTest>

using namespace clab;

class TestFit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void stackFactorNeedsAnArchitectureSeenElsewhere();
    void architectureNeedsRowsToCountAsSeen();
    void unetSamplesOrEpochs();
    void bertSamplesFromTheMedian();
    void samplesFromTheLogs();
    void convergenceFloor();
    void aResultCountsOnce();
    void dleBertPaddingByFramework_data();
    void dleBertPaddingByFramework();
};

namespace {

// The MLPerf results table's columns these tests fill, up to the one that gives the samples.
const std::string kColumns
    = "round,submitter,system,accelerator,accelerator_count,accelerators_per_node,"
      "number_of_nodes,host_processor,host_processors_per_node,host_processor_core_count,"
      "accelerator_interconnect,benchmark,minutes,global_batch_size,";

std::vector<const perf::Observation *> pointers(const perf::ObservationSet &set)
{
    std::vector<const perf::Observation *> rows;
    for (const perf::Observation &o : set.rows)
        rows.push_back(&o);
    return rows;
}

// One 8-GPU node per row, in the column shapes of the MLPerf results table.
std::string row(const char *round, const char *gpu, const char *host, const char *nvlink,
                const char *minutes, const char *batch)
{
    return std::string(round) + ",Test,sys-" + round + "-" + gpu + ",NVIDIA " + gpu + ",8,8,1,"
           + host + ",2,64,\"" + nvlink + "\",resnet," + minutes + "," + batch + ",35\n";
}

// The observations a results table in the MLPerf table's columns gives.
perf::ObservationSet observe(const std::string &text, const std::string &file)
{
    perf::ObservationSet set;
    perf::addCsv(CsvTable::parse(text, file), set);
    return set;
}

} // namespace

// A benchmark-on-stack factor stands for a software year. In round 3.1 every ResNet row is an
// L40, an architecture that ran ResNet in no other round, so a 3.1 factor would hold what the
// physics misses about the L40 and hand it to every other GPU of 3.1: the fit makes none. In 3.0
// the A100 is also seen in 2.0, so 3.0 compares a GPU with itself and gets its factor.
void TestFit::stackFactorNeedsAnArchitectureSeenElsewhere()
{
    const std::string text
        = kColumns + "median_epoch_at_stop\n"
          + row("2.0", "A100-SXM4-80GB", "AMD EPYC 7742", "NVLINK 3.0, NVSWITCH 2.0 600GB/s",
                "28.7", "3264")
          + row("3.0", "A100-SXM4-80GB", "AMD EPYC 7742", "NVLINK 3.0, NVSWITCH 2.0 600GB/s",
                "27.0", "3264")
          + row("3.0", "H100-SXM5-80GB", "Intel(R) Xeon(R) Platinum 8480C",
                "NVLINK Gen4 900 GB/s + NVSWITCH Gen3", "13.6", "3200")
          + row("3.1", "L40", "Intel(R) Xeon(R) Platinum 8480+", "", "46.9", "2400");
    perf::ObservationSet set = observe(text, "fit.csv");
    QCOMPARE(set.rows.size(), std::size_t(4));
    std::vector<const perf::Observation *> rows = pointers(set);

    const perf::Calibration cal = perf::fitCalibration(rows);
    QVERIFY(cal.benchSoftware.count("resnet50/mlperf-3.0"));
    QVERIFY(cal.benchSoftware.count("resnet50/mlperf-2.0"));
    QVERIFY(!cal.benchSoftware.count("resnet50/mlperf-3.1"));
    // The L40's round still has its stack factor (all benchmarks of the year).
    QVERIFY(cal.software.count("mlperf-3.1"));

    // With an A100 row in 3.1 as well, 3.1 compares the A100 with itself and gets its factor.
    perf::addCsv(CsvTable::parse(text.substr(0, text.find('\n') + 1)
                                     + row("3.1", "A100-SXM4-80GB", "AMD EPYC 7742",
                                           "NVLINK 3.0, NVSWITCH 2.0 600GB/s", "26.5", "3264"),
                                 "more.csv"),
                 set);
    rows = pointers(set);
    QCOMPARE(rows.size(), std::size_t(5));
    QVERIFY(perf::fitCalibration(rows).benchSoftware.count("resnet50/mlperf-3.1"));
}

// One preview row of a new GPU (the B200's single DLRM result of v4.1) does not teach the fit an
// architecture: its predictions keep the extrapolation flag and the held-out-architecture
// interval until the architecture has the 8 rows an interval cell needs.
void TestFit::architectureNeedsRowsToCountAsSeen()
{
    std::string text = kColumns + "median_epoch_at_stop\n";
    const char *rounds[] = {"1.0", "1.1", "2.0", "2.1", "3.0", "3.1", "4.0", "4.1"};
    for (const char *round : rounds)
        text += row(round, "A100-SXM4-80GB", "AMD EPYC 7742", "NVLINK 3.0, NVSWITCH 2.0 600GB/s",
                    "28.7", "3264");
    text += row("4.1", "H100-SXM5-80GB", "Intel(R) Xeon(R) Platinum 8480C",
                "NVLINK Gen4 900 GB/s + NVSWITCH Gen3", "13.6", "3200");
    const perf::ObservationSet set = observe(text, "arch.csv");
    QCOMPARE(set.rows.size(), std::size_t(9));
    std::vector<const perf::Observation *> rows = pointers(set);
    const perf::Calibration cal = perf::fitCalibration(rows);
    QCOMPARE(cal.rows, 9);
    QVERIFY(cal.sawArchitecture("Ampere"));
    QVERIFY(!cal.sawArchitecture("Hopper"));
}

// From v3.1 the MLPerf table gives 3D U-Net's samples at stop, not epochs (the convergence
// points changed unit), yet some v3.1 rows still give epochs (xFusion's L40: 2,030). A run cannot
// stop before its first evaluation at 168,000 samples, so a smaller figure is read as epochs of
// the 168 volumes; read as samples it made one row 170x too fast and the fit's 3.1 factor 1.5.
void TestFit::unetSamplesOrEpochs()
{
    auto unetRow = [](const char *round, const char *epochs) {
        return std::string(round) + ",Test,sys,NVIDIA H100-SXM5-80GB,8,8,1,Intel Xeon,2,64,"
               + "NVLINK,unet3d,12.2,56," + epochs + "\n";
    };
    const std::string text = kColumns + "median_epoch_at_stop\n" + unetRow("3.0", "1990")
                             + unetRow("3.1", "347760") + unetRow("3.1", "2030");
    const perf::ObservationSet set = observe(text, "unet.csv");
    QCOMPARE(set.rows.size(), std::size_t(3));
    QCOMPARE(set.rows[0].trainedSamples.value_or(0), 1990.0 * 168);
    QCOMPARE(set.rows[1].trainedSamples.value_or(0), 347760.0);
    QCOMPARE(set.rows[2].trainedSamples.value_or(0), 2030.0 * 168);
}

// BERT's median_epoch_at_stop is the median samples of a submission's runs; older rows hold 1
// or an epoch there, and only then is train_samples (one run's count) read. A count the
// convergence table cannot have produced (the training set's 156,725,653 samples, or a quarter
// of the table) is another unit: the row trains the table's samples instead.
void TestFit::bertSamplesFromTheMedian()
{
    auto bertRow = [](const char *median, const char *samples) {
        return std::string("3.0,Test,sys,NVIDIA H100-SXM5-80GB,8,8,1,Intel Xeon,2,64,NVLINK,bert,")
               + "5.5,448," + median + "," + samples + "\n";
    };
    const std::string text = kColumns + "median_epoch_at_stop,train_samples\n"
                             + bertRow("2.5e+06", "3000000") + bertRow("1", "2600000")
                             + bertRow("", "156725653") + bertRow("616000", "156725653");
    const perf::ObservationSet set = observe(text, "bert.csv");
    QCOMPARE(set.rows.size(), std::size_t(4));
    QCOMPARE(set.rows[0].trainedSamples.value_or(0), 2.5e6);
    QCOMPARE(set.rows[1].trainedSamples.value_or(0), 2.6e6);
    QVERIFY(!set.rows[2].trainedSamples);
    QVERIFY(!set.rows[3].trainedSamples);
}

// Stable Diffusion's rows leave median_epoch_at_stop empty; its runs stop only at a checkpoint
// every 512,000 samples, so NVIDIA's v4.1 8 x H100 score kept runs that trained 2,240,000 on
// average (4 of its 10 needed 2,560,000) against the table's 2,048,000 at batch 256: read from
// datasets/mlperf_trained_samples.json, for that row and batch only.
void TestFit::samplesFromTheLogs()
{
    auto sdRow = [](const char *system, const char *batch) {
        return std::string("4.1,NVIDIA,") + system + ",NVIDIA H100-SXM5-80GB,8,8,1,Intel Xeon,2,64,"
               + "NVLINK,stable_diffusion,33.967," + batch + ",\n";
    };
    const std::string text = kColumns + "median_epoch_at_stop\n" + sdRow("eos_ngc24.09_nemo", "256")
                             + sdRow("eos_ngc24.09_nemo", "512") + sdRow("another", "256");
    const perf::ObservationSet set = observe(text, "sd.csv");
    QCOMPARE(set.rows.size(), std::size_t(3));
    QCOMPARE(set.rows[0].trainedSamples.value_or(0), 2240000.0);
    QVERIFY(!set.rows[1].trainedSamples);
    QVERIFY(!set.rows[2].trainedSamples);
}

// What the convergence table alone misses: BERT's table gives 2,549,220 samples at batch 448
// (resources/workloads/workloads.json: 2,414,421 at 448, but a larger batch never converges in
// fewer samples than the 2,549,220 of batch 256); rows that trained that, 1.25x that and 0.8x that
// are off by 0, 20 % and 25 % however right the step time is. A row without trained samples counts
// not.
void TestFit::convergenceFloor()
{
    auto bertRow = [](const char *samples) {
        return std::string("2.0,Test,sys,NVIDIA A100-SXM4-80GB,8,8,1,AMD EPYC 7742,2,64,"
                           "NVLINK,bert,20,448,")
               + samples + "\n";
    };
    const std::string text = kColumns + "train_samples\n" + bertRow("2549220") + bertRow("3186525")
                             + bertRow("2039376") + bertRow("");
    const perf::ObservationSet set = observe(text, "bert.csv");
    QCOMPARE(set.rows.size(), std::size_t(4));
    std::vector<perf::RowResult> results;
    for (const auto &o : set.rows)
        results.push_back({&o, 20.0});
    const auto floor = perf::convergenceFloor(results);
    QCOMPARE(floor.at("bert").rows, 3);
    QCOMPARE(floor.at("all").rows, 3);
    QCOMPARE(floor.at("bert").median, 0.2);
    QCOMPARE(floor.at("bert").p90, 0.24); // 0.2 + 0.8 x (0.25 - 0.2), interpolated
    // A row that was not predicted is not counted either.
    results[1].predicted.reset();
    QCOMPARE(perf::convergenceFloor(results).at("bert").rows, 2);
}

// A later round's results repository re-lists earlier runs (NVIDIA's eos_n434 BERT logs of round
// 3.1 are in the 3.1, 4.0 and 4.1 repositories) and power entries repeat performance logs: one
// result is one row, in the earliest round that lists it, whatever the order of the file; the
// others are skipped with their reason. Rounds compare as versions (9.1 before 10.0).
void TestFit::aResultCountsOnce()
{
    auto bertRow = [](const char *round, const char *minutes) {
        return std::string(round) + ",NVIDIA,eos_n434,NVIDIA H100-SXM5-80GB,3472,8,434,"
               + "Intel Xeon,2,56,NVLINK,bert," + minutes + ",13888,5107312\n";
    };
    const std::string text = kColumns + "train_samples\n" + bertRow("4.0", "0.119")
                             + bertRow("3.1", "0.119") + bertRow("4.1", "0.119")
                             + bertRow("4.1", "0.121") + bertRow("10.0", "0.2")
                             + bertRow("9.1", "0.2") + bertRow("", "0.119");
    const perf::ObservationSet set = observe(text, "relisted.csv");
    QCOMPARE(set.rows.size(), std::size_t(3));
    QCOMPARE(set.rows[0].round, std::string("3.1"));
    QCOMPARE(set.rows[0].where, std::string("relisted.csv:3"));
    QCOMPARE(set.rows[1].measured, 0.121);
    QCOMPARE(set.rows[2].round, std::string("9.1"));
    QCOMPARE(set.skipped.size(), std::size_t(4)); // the row without a round yields too
    for (const perf::Skipped &s : set.skipped)
        QVERIFY2(s.reason.find("same logs") != std::string::npos, s.reason.c_str());
    QCOMPARE(set.skipped[0].row.round, std::string("4.0"));
    QCOMPARE(set.skipped[2].row.round, std::string("10.0"));
}

// DeepLearningExamples' BERT phase-2 tables: TensorFlow pads every sequence to 512 tokens, the
// PyTorch (NGC 21.11 on) and PaddlePaddle scripts batch by length in 64-token bins (LDDL), so the
// same model name is two workloads. Older PyTorch tables and an unnamed framework pad.
void TestFit::dleBertPaddingByFramework_data()
{
    QTest::addColumn<QString>("framework");
    QTest::addColumn<QString>("workload");
    QTest::newRow("tensorflow 1") << "TensorFlow 1 (NGC 20.06)"
                                  << "bert_large_seq512";
    QTest::newRow("tensorflow 2, lower case") << "tensorflow 2 (NGC 22.10)"
                                              << "bert_large_seq512";
    QTest::newRow("pytorch before LDDL") << "PyTorch (NGC 20.06)"
                                         << "bert_large_seq512";
    QTest::newRow("no framework") << ""
                                  << "bert_large_seq512";
    QTest::newRow("pytorch with LDDL") << "PyTorch (NGC 21.11)"
                                       << "bert_large_seq512_binned";
    QTest::newRow("pytorch later") << "PyTorch (NGC 22.12)"
                                   << "bert_large_seq512_binned";
    QTest::newRow("paddle, lower case") << "paddlepaddle (NGC 22.12)"
                                        << "bert_large_seq512_binned";
}

void TestFit::dleBertPaddingByFramework()
{
    QFETCH(QString, framework);
    QFETCH(QString, workload);
    const std::string text
        = "model,gpu,gpu_count,precision,batch_size,throughput,framework,system,source_url\n"
          "BERT-Large pretraining seq512,A100-SXM4-80GB,8,AMP,32,1657,\""
          + framework.toStdString()
          + "\",DGX A100,https://github.com/NVIDIA/DeepLearningExamples/x\n";
    const perf::ObservationSet set = observe(text, "dle.csv");
    QCOMPARE(set.rows.size(), std::size_t(1));
    QCOMPARE(set.rows[0].workload->id, workload.toStdString());
    // Binned samples cost fewer FLOPs than padded ones.
    const auto *padded = workload::Library::builtin().find("bert_large_seq512");
    const auto *binned = workload::Library::builtin().find("bert_large_seq512_binned");
    QVERIFY(binned->trainFlopsPerSample < 0.6 * padded->trainFlopsPerSample);
}

QTEST_APPLESS_MAIN(TestFit)
#include "tst_fit.moc"
