// The performance-model commands of the CLI: predict, validate and calibrate.
#include "catalog/catalog.h"
#include "app/clirun.h"
#include "cli/cli.h"
#include "perf/calibration.h"
#include "perf/systemspec.h"
#include "util/csv.h"
#include "util/fileio.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace {

using clab::test::examplePath;
using clab::test::Outcome;
using clab::test::run;

void writeFile(const std::string &path, const std::string &text)
{
    std::ofstream f(path, std::ios::binary);
    f << text;
}

// The header of shared/reference/mlperf_training_calibration.csv, copied so that the test runs
// without the shared folder.
const char *const kHeader
    = R"csv(round,submitter,system,division,availability,accelerator,accelerator_count,accelerators_per_node,number_of_nodes,host_processor,host_processors_per_node,framework,accelerator_interconnect,host_networking,benchmark,benchmark_definition,minutes,n_result_files,n_converged,rcp_scaling_factor,summary_csv_minutes,score_method,quality,source_url,global_batch_size,median_epoch_at_stop,train_samples,hw_notes,accelerator_host_interconnect,host_storage_type,host_memory_capacity,host_processor_core_count,accelerator_memory_capacity,host_networking_topology)csv";
// Rows 101, 4 and 44 of that file: NVIDIA DGX A100 ResNet-50 (v1.0, 28.771 min), Google TPU v3
// ResNet-50 (v0.6), NVIDIA DGX-1 MiniGo (v0.7).
const char *const kA100Resnet
    = R"csv(1.0,NVIDIA,dgxa100_ngc21.05_mxnet,closed,onprem,NVIDIA A100-SXM4-80GB (400W),8,8,1,AMD EPYC 7742,2,MXNet NVIDIA Release 21.05,"NVLINK 3.0, NVSWITCH 2.0 600GB/s","Storage: 2x ConnectX-6 IB HDR 200Gb/sec, Management: 1x ConnectX-6 Ethernet 100Gb/Sec, Compute: 8x ConnectX-6 IB HDR 200Gb/Sec",resnet,"ResNet-50 v1.5, ImageNet (75.90% top-1 per MLPerf v1.0+ rules page)",28.771,5,4,1.0,,"olympic mean of (run_stop-run_start) over result_*.txt, x scaling.json",B: computed from official result logs with result_summarizer rule (no published summary in repo to compare),https://github.com/mlcommons/training_results_v1.0/tree/master/NVIDIA/results/dgxa100_ngc21.05_mxnet/resnet,3264,35,1281167,,,NVMe SSD,2 TB,64,80 GB,)csv";
const char *const kTpuResnet
    = R"csv(0.6,Google,tpu-v3-1024,closed,cloud,tpu-v3,512,512,1,Intel Skylake,1,TensorFlow 1.14 commit hash = faf9db515c4bf550daacc1c3a22fedf3ff5dde63,custom,-,resnet,"ResNet-50 v1.5, ImageNet (75.90% top-1 per MLPerf v1.0+ rules page)",2.304,5,4,1.0,,"olympic mean of (run_stop-run_start) over result_*.txt, x scaling.json",B: computed from official result logs with result_summarizer rule (no published summary in repo to compare),https://github.com/mlcommons/training_results_v0.6/tree/master/Google/results/tpu-v3-1024/resnet,,,,none,custom,SSD,SSD,-,32 GB,-)csv";
const char *const kMinigo
    = R"csv(0.7,NVIDIA,dgx1_ngc20.06_tensorflow,closed,onprem,NVIDIA V100-SXM2-16GB (300W),8,8,1,Intel(R) Xeon(R) CPU E5-2698 v4 @ 2.20GHz,2,TensorFlow NVIDIA Release 20.06,NVLINK2.0 300GB/s,Management: 1x Ethernet 10GB/Sec,minigo,MiniGo RL,603.599,10,10,1.0,,"olympic mean of (run_stop-run_start) over result_*.txt, x scaling.json",B: computed from official result logs with result_summarizer rule (no published summary in repo to compare),https://github.com/mlcommons/training_results_v0.7/tree/master/NVIDIA/results/dgx1_ngc20.06_tensorflow/minigo,,42.5,,,,SATA SSD,512 GB,20,16 GB,)csv";
// The A100 row again as BERT, without its global batch size.
const char *const kBertNoBatch
    = R"csv(1.0,NVIDIA,dgxa100_ngc21.05_mxnet,closed,onprem,NVIDIA A100-SXM4-80GB (400W),8,8,1,AMD EPYC 7742,2,MXNet NVIDIA Release 21.05,"NVLINK 3.0, NVSWITCH 2.0 600GB/s","Storage: 2x ConnectX-6 IB HDR 200Gb/sec, Management: 1x ConnectX-6 Ethernet 100Gb/Sec, Compute: 8x ConnectX-6 IB HDR 200Gb/Sec",bert,"BERT-Large, Wikipedia",28.771,5,4,1.0,,"olympic mean of (run_stop-run_start) over result_*.txt, x scaling.json",B: computed from official result logs with result_summarizer rule (no published summary in repo to compare),https://github.com/mlcommons/training_results_v1.0/tree/master/NVIDIA/results/dgxa100_ngc21.05_mxnet/resnet,,35,1281167,,,NVMe SSD,2 TB,64,80 GB,)csv";

// Header plus an extra column nobody knows (ignored), and the four rows at lines 2-5; the last
// row also carries two fields more than the header has.
std::string smallCsv()
{
    return std::string(kHeader) + ",extra_unknown_column\n" + kA100Resnet + ",anything\n"
           + kTpuResnet + ",\n" + kMinigo + ",\n" + kBertNoBatch + ",x,y\n";
}

const nlohmann::json *rowAt(const nlohmann::json &rows, const std::string &where)
{
    for (const auto &r : rows) {
        if (r.at("where").get<std::string>() == where)
            return &r;
    }
    return nullptr;
}

} // namespace

class TestPerfCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void predictJson();
    void predictSelectsSystem();
    void predictErrors();
    void validateSmallTable();
    void validateWrongColumns();
    void validateRecordedSamples();
    void validateSavesForParity();
    void calibrateWritesReadableFile();
    void calibrateLlm();
    void validateReference_data();
    void validateReference();
};

void TestPerfCli::predictJson()
{
    const Outcome r = run({"predict", examplePath("seed-testbed.clab"), "--benchmark", "resnet50",
                           "--global-batch", "3264", "--json"});
    QCOMPARE(r.status, 0);
    QVERIFY2(r.err.empty(), r.err.c_str());
    const auto j = nlohmann::json::parse(r.out);
    for (const char *key :
         {"system", "benchmark", "global_batch", "step_time_s", "throughput_samples_per_s",
          "time_to_train_min", "breakdown_min", "memory"})
        QVERIFY2(j.contains(key), key);
    QCOMPARE(j.at("system").get<std::string>(), std::string("A: 4 GPUs on one uplink"));
    QCOMPARE(j.at("benchmark").get<std::string>(), std::string("resnet50"));
    QCOMPARE(j.at("global_batch").get<int>(), 3264);
    QVERIFY(j.at("step_time_s").get<double>() > 0);
    QVERIFY(j.at("throughput_samples_per_s").get<double>() > 0);
    // Throughput is the batch over the step (both rounded).
    QVERIFY(std::abs(j.at("throughput_samples_per_s").get<double>()
                         * j.at("step_time_s").get<double>() / 3264
                     - 1)
            < 1e-3);
    const auto &b = j.at("breakdown_min");
    QCOMPARE(b.size(), std::size_t(4));
    double sum = 0;
    for (const char *key : {"compute", "communication", "input", "evaluation"}) {
        QVERIFY2(b.contains(key), key);
        QVERIFY(b.at(key).get<double>() >= 0);
        sum += b.at(key).get<double>();
    }
    // Each figure is rounded to 4 decimals: the sum may be off by 4 half-units.
    const double total = j.at("time_to_train_min").get<double>();
    QVERIFY2(std::abs(sum - total) <= 2.5e-4,
             qPrintable(QStringLiteral("%1 vs %2").arg(sum).arg(total)));
    const auto &m = j.at("memory");
    QCOMPARE(m.size(), std::size_t(3));
    QVERIFY(m.at("fits").get<bool>());
    QVERIFY(m.at("required_GB").get<double>() > 0);
    QCOMPARE(m.at("available_GB").get<double>(), 40.0); // A100 PCIe 40 GB
    QVERIFY(m.at("required_GB").get<double>() <= m.at("available_GB").get<double>());

    // Text output says the same in words.
    const Outcome t = run({"predict", examplePath("seed-testbed.clab"), "--benchmark", "resnet"});
    QCOMPARE(t.status, 0);
    QVERIFY2(t.out.find("time to train") != std::string::npos, t.out.c_str());
}

void TestPerfCli::predictSelectsSystem()
{
    const Outcome a = run({"predict", examplePath("seed-testbed.clab"), "--benchmark", "bert_large",
                           "--global-batch", "448", "--json"});
    const Outcome b = run({"predict", examplePath("seed-testbed.clab"), "--system",
                           "B: 6 GPUs over two switches", "--benchmark", "bert_large",
                           "--global-batch", "448", "--json"});
    QCOMPARE(a.status, 0);
    QCOMPARE(b.status, 0);
    const auto ja = nlohmann::json::parse(a.out);
    const auto jb = nlohmann::json::parse(b.out);
    QCOMPARE(jb.at("system").get<std::string>(), std::string("B: 6 GPUs over two switches"));
    // Six GPUs train faster than four.
    QVERIFY(jb.at("throughput_samples_per_s").get<double>()
            > ja.at("throughput_samples_per_s").get<double>());
    QVERIFY(jb.at("time_to_train_min").get<double>() < ja.at("time_to_train_min").get<double>());
}

void TestPerfCli::predictErrors()
{
    const std::string seed = examplePath("seed-testbed.clab");
    Outcome r = run({"predict", seed, "--system", "Z: no such system", "--benchmark", "resnet50"});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find(seed) != std::string::npos, r.err.c_str());
    QVERIFY2(r.err.find("Z: no such system") != std::string::npos, r.err.c_str());
    QVERIFY(r.out.empty());

    r = run({"predict", seed, "--benchmark", "alphafold"});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.find("alphafold") != std::string::npos, r.err.c_str());
    QVERIFY2(r.err.find("resnet50") != std::string::npos, r.err.c_str()); // lists the known ones

    r = run({"predict", seed, "--benchmark", "resnet50", "--precision", "int3"});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.find("int3") != std::string::npos, r.err.c_str());

    r = run({"predict", examplePath("no-such-design.clab"), "--benchmark", "resnet50"});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find("no-such-design.clab") != std::string::npos, r.err.c_str());
}

void TestPerfCli::validateSmallTable()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string csv = dir.filePath(QStringLiteral("small.csv")).toStdString();
    writeFile(csv, smallCsv());
    const Outcome r = run({"validate", csv, "--json"});
    QCOMPARE(r.status, 0);
    QVERIFY2(r.err.empty(), r.err.c_str());
    const auto j = nlohmann::json::parse(r.out);
    const auto &rows = j.at("rows");
    QCOMPARE(rows.size(), std::size_t(4));

    const nlohmann::json *a100 = rowAt(rows, csv + ":2");
    QVERIFY(a100);
    QCOMPARE(a100->at("benchmark").get<std::string>(), std::string("resnet"));
    QCOMPARE(a100->at("measured_minutes").get<double>(), 28.771);
    QVERIFY(a100->at("predicted_minutes").is_number());
    QVERIFY(a100->at("predicted_minutes").get<double>() > 0);
    QVERIFY(a100->at("skip_reason").is_null());

    const nlohmann::json *tpu = rowAt(rows, csv + ":3");
    QVERIFY(tpu);
    QVERIFY(tpu->at("predicted_minutes").is_null());
    QVERIFY2(tpu->at("skip_reason").get<std::string>().find("non-NVIDIA") != std::string::npos,
             tpu->dump().c_str());

    const nlohmann::json *minigo = rowAt(rows, csv + ":4");
    QVERIFY(minigo);
    QVERIFY(minigo->at("predicted_minutes").is_null());
    QVERIFY2(minigo->at("skip_reason").get<std::string>().find("not modelled") != std::string::npos,
             minigo->dump().c_str());

    const nlohmann::json *bert = rowAt(rows, csv + ":5");
    QVERIFY(bert);
    QVERIFY(bert->at("predicted_minutes").is_null());
    QVERIFY2(bert->at("skip_reason").get<std::string>().find("global batch") != std::string::npos,
             bert->dump().c_str());

    const auto &summary = j.at("summary");
    QCOMPARE(summary.at("predicted").get<int>(), 1);
    QCOMPARE(summary.at("skipped").get<int>(), 3);
    QVERIFY(summary.at("errors").contains("resnet"));
    QCOMPARE(summary.at("errors").at("resnet").at("rows").get<int>(), 1);
    QVERIFY(summary.contains("skip_reasons"));
}

// validate --save keeps each prediction beside the imported measurement it predicts: the parity
// chart pairs them, and saving again adds nothing.
void TestPerfCli::validateSavesForParity()
{
    QTemporaryDir dir;
    const std::string csv = dir.filePath(QStringLiteral("small.csv")).toStdString();
    writeFile(csv, smallCsv());
    const std::string db = dir.filePath(QStringLiteral("store.sqlite")).toStdString();
    Outcome r = run({"import", "--db", db, csv});
    QVERIFY2(r.status == 0, r.err.c_str());
    r = run({"validate", csv, "--json"});
    const nlohmann::json validated = nlohmann::json::parse(r.out);
    const nlohmann::json *row = rowAt(validated.at("rows"), csv + ":2");
    QVERIFY(row);
    const double predicted = row->at("predicted_minutes").get<double>();
    r = run({"validate", csv, "--save", db});
    QVERIFY2(r.status == 0, r.err.c_str());
    QVERIFY2(r.out.find("Saved 1 predicted runs to " + db) != std::string::npos, r.out.c_str());
    r = run({"validate", csv, "--save", db, "--json"});
    QVERIFY2(r.err.find("already in " + db) != std::string::npos, r.err.c_str());
    QVERIFY(nlohmann::json::parse(r.out).contains("rows")); // stdout stays JSON

    const std::string png = dir.filePath(QStringLiteral("parity.png")).toStdString();
    const std::string points = dir.filePath(QStringLiteral("parity.csv")).toStdString();
    r = run({"chart", "--db", db, "--kind", "parity", "--out", png, "--csv", points});
    QVERIFY2(r.status == 0, r.err.c_str());
    QVERIFY(QFileInfo(QString::fromStdString(png)).size() > 1000);
    // series,kind,x,y: the A100 row at its measured minutes and the prediction (to 0.01 min, the
    // JSON's rounding).
    bool found = false;
    const clab::CsvTable t = clab::CsvTable::parse(clab::readTextFile(points), points);
    for (std::size_t i = 0; i < t.rowCount(); ++i) {
        if (t.field(i, "series").rfind("resnet (1", 0) == 0) {
            found = true;
            QCOMPARE(std::stod(t.field(i, "measured time to train (min)")), 28.771);
            QVERIFY(std::abs(std::stod(t.field(i, "predicted time to train (min)")) - predicted)
                    < 0.01);
        }
    }
    QVERIFY(found);
}

// --recorded-samples: a row trains the samples its runs recorded (median_epoch_at_stop), so the
// same system recorded at twice the epochs predicts about twice the time; without it both rows
// train the convergence table's samples and predict the same.
void TestPerfCli::validateRecordedSamples()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string csv = dir.filePath(QStringLiteral("epochs.csv")).toStdString();
    std::string doubled = kA100Resnet;
    const std::string epochs = ",3264,35,1281167,";
    const auto at = doubled.find(epochs);
    QVERIFY(at != std::string::npos);
    doubled.replace(at, epochs.size(), ",3264,70,1281167,");
    writeFile(csv, std::string(kHeader) + "\n" + kA100Resnet + "\n" + doubled + "\n");
    auto minutes = [&](std::vector<std::string> args, const char *where) {
        const Outcome r = run(args);
        const auto j = nlohmann::json::parse(r.out);
        const bool recorded
            = std::find(args.begin(), args.end(), "--recorded-samples") != args.end();
        if (j.at("recorded_samples").get<bool>() != recorded)
            return -2.0;
        const nlohmann::json *row = rowAt(j.at("rows"), csv + where);
        return row ? row->at("predicted_minutes").get<double>() : -1.0;
    };
    const double table = minutes({"validate", csv, "--json"}, ":2");
    QVERIFY(table > 0);
    QCOMPARE(minutes({"validate", csv, "--json"}, ":3"), table);
    const double single = minutes({"validate", csv, "--json", "--recorded-samples"}, ":2");
    const double twice = minutes({"validate", csv, "--json", "--recorded-samples"}, ":3");
    QVERIFY(single > 0);
    // Twice the steps (13,738 and 27,476), the evaluations a little more than twice as many (the
    // first epochs' are skipped), the one-time start once: 2.0004 with the shipped model.
    QVERIFY2(twice / single > 1.99 && twice / single < 2.01,
             qPrintable(QString::number(twice / single)));
    Outcome r = run({"validate", csv, "--recorded-samples"});
    QCOMPARE(r.status, 0);
    QVERIFY2(r.out.rfind("Time-to-train rows train the samples their runs recorded (the "
                         "convergence table's where a row records none or an implausible count).\n",
                         0)
                 == 0,
             r.out.c_str());
    r = run({"validate", csv});
    QVERIFY2(r.out.rfind("Time-to-train rows train the convergence table's samples.\n", 0) == 0,
             r.out.c_str());
}

void TestPerfCli::validateWrongColumns()
{
    QTemporaryDir dir;
    const std::string csv = dir.filePath(QStringLiteral("wrong.csv")).toStdString();
    writeFile(csv, "round,submitter,system,minutes\n1.0,NVIDIA,dgx,28.7\n");
    const Outcome r = run({"validate", csv, "--json"});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find(csv) != std::string::npos, r.err.c_str());
    QVERIFY2(r.err.find("expected the header") != std::string::npos, r.err.c_str());
    QVERIFY(r.out.empty());

    const Outcome missing
        = run({"validate", dir.filePath(QStringLiteral("absent.csv")).toStdString()});
    QCOMPARE(missing.status, 1);
    QVERIFY2(missing.err.find("absent.csv") != std::string::npos, missing.err.c_str());
}

void TestPerfCli::calibrateWritesReadableFile()
{
    QTemporaryDir dir;
    const std::string csv = dir.filePath(QStringLiteral("small.csv")).toStdString();
    const std::string out = dir.filePath(QStringLiteral("calibration.json")).toStdString();
    writeFile(csv, smallCsv());
    const Outcome r = run({"calibrate", csv, "--out", out, "--no-cross-validation"});
    QCOMPARE(r.status, 0);
    QVERIFY2(r.out.find("Wrote") != std::string::npos, r.out.c_str());
    const clab::perf::Calibration c
        = clab::perf::Calibration::fromJson(clab::readTextFile(out), out);
    QCOMPARE(c.inputs.size(), std::size_t(1));
    QVERIFY(c.inputs[0].find("small.csv") != std::string::npos);
    QVERIFY(!c.fittedAt.empty());
    QVERIFY(c.params("resnet50") && c.params("resnet50")->gemmEfficiency > 0);
    QVERIFY(c.params("resnet50")->gemmEfficiency <= 1);
    QVERIFY(c.overlap >= 0 && c.overlap <= 1);

    // validate reads it back too.
    const Outcome v = run({"validate", csv, "--json", "--calibration", out});
    QCOMPARE(v.status, 0);
    const auto j = nlohmann::json::parse(v.out);
    QVERIFY(rowAt(j.at("rows"), csv + ":2")->at("predicted_minutes").is_number());
}

void TestPerfCli::calibrateLlm()
{
    // calibrate --llm fits the planner's GEMM efficiency to the published Megatron-LM runs and
    // writes what the shipped datasets/llm_calibration.json holds.
    QTemporaryDir dir;
    const std::string out = dir.filePath(QStringLiteral("llm.json")).toStdString();
    const std::string tables = COMPOSELAB_SOURCE_DIR "/datasets/llm/";
    const Outcome r = run({"calibrate", "--llm", tables + "korthikanti2022.json",
                           tables + "narayanan2021.json", "--out", out});
    QCOMPARE(r.status, 0);
    QVERIFY2(r.out.find("held out") != std::string::npos, r.out.c_str());
    const auto fitted = nlohmann::json::parse(clab::readTextFile(out));
    const auto shipped = nlohmann::json::parse(
        clab::readTextFile(COMPOSELAB_SOURCE_DIR "/datasets/llm_calibration.json"));
    QCOMPARE(fitted.at("gemmEfficiency").get<double>(), shipped.at("gemmEfficiency").get<double>());
    QCOMPARE(fitted.at("heldOut").size(), std::size_t(2));

    // Without --out, or beside another kind of fit, it is a usage error; a broken or empty table
    // names its file and leaves --out alone.
    QCOMPARE(run({"calibrate", "--llm", tables + "narayanan2021.json"}).status, 2);
    QCOMPARE(
        run({"calibrate", "--llm", tables + "narayanan2021.json", "--bandwidth", out, "--out", out})
            .status,
        2);
    const std::string empty = dir.filePath(QStringLiteral("empty.json")).toStdString();
    writeFile(empty, R"({"about": "a", "source": "b", "rows": []})");
    const Outcome none = run({"calibrate", "--llm", empty, "--out", out});
    QCOMPARE(none.status, 1);
    QVERIFY2(none.err.find("no published run") != std::string::npos, none.err.c_str());
    const std::string broken = dir.filePath(QStringLiteral("broken.json")).toStdString();
    writeFile(broken, "{\"rows\": [");
    const Outcome bad = run({"calibrate", "--llm", broken, "--out", out});
    QCOMPARE(bad.status, 1);
    QVERIFY2(bad.err.find("broken.json") != std::string::npos, bad.err.c_str());
    // Two tables of one file name would fit as one publication: refused, naming both.
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("copy")));
    const std::string copy = dir.filePath(QStringLiteral("copy/narayanan2021.json")).toStdString();
    writeFile(copy, clab::readTextFile(tables + "narayanan2021.json"));
    const Outcome twice
        = run({"calibrate", "--llm", tables + "narayanan2021.json", copy, "--out", out});
    QCOMPARE(twice.status, 1);
    QVERIFY2(twice.err.find("same name") != std::string::npos
                 && twice.err.find("copy/narayanan2021.json") != std::string::npos,
             twice.err.c_str());
    const Outcome again = run({"calibrate", "--llm", copy, copy, "--out", out});
    QCOMPARE(again.status, 1);
    QVERIFY2(again.err.find("given twice") != std::string::npos, again.err.c_str());
    QCOMPARE(nlohmann::json::parse(clab::readTextFile(out)), fitted);
}

void TestPerfCli::validateReference_data()
{
    QTest::addColumn<QString>("file");
    // The repository's copy of the published MLPerf Training results (its own columns) runs in
    // every checkout; the shared reference table only where it is.
    QTest::newRow("datasets") << QStringLiteral(COMPOSELAB_SOURCE_DIR
                                                "/datasets/mlperf_training_results.csv");
    QTest::newRow("shared") << QStringLiteral(CLAB_SHARED_DIR
                                              "/reference/mlperf_training_calibration.csv");
}

void TestPerfCli::validateReference()
{
    QFETCH(QString, file);
    const std::string path = file.toStdString();
    if (!QFileInfo::exists(file))
        QSKIP("shared/reference is not present");
    const Outcome r = run({"validate", path, "--json"});
    QCOMPARE(r.status, 0);
    const auto j = nlohmann::json::parse(r.out);

    // The rows that should be predicted: modelled benchmarks on NVIDIA GPUs of the catalog, with
    // a measured time.
    const clab::catalog::Catalog &cat = clab::catalog::Catalog::builtin();
    const clab::CsvTable table = clab::CsvTable::parse(clab::readTextFile(path), path);
    const std::set<std::string> modelled
        = {"resnet", "bert", "ssd", "maskrcnn", "unet3d", "rnnt", "dlrm", "gnn"};
    // A result whose logs are listed in more than one row (a later round's repository, a
    // submitter's power entries) is predicted once: rows are counted by result, by the minutes,
    // batch and samples of one system's logs.
    std::map<std::string, std::string> resultOf; // where -> result
    std::set<std::string> expected;
    for (std::size_t i = 0; i < table.rowCount(); ++i) {
        if (!modelled.count(table.field(i, "benchmark")))
            continue;
        const auto gpu = clab::perf::matchGpu(table.field(i, "accelerator"), cat);
        if (!gpu || cat.gpu(*gpu)->name.find("NVIDIA") == std::string::npos)
            continue;
        if (!(std::atof(table.field(i, "minutes").c_str()) > 0))
            continue;
        std::string result;
        for (const char *column : {"submitter", "system", "benchmark", "minutes",
                                   "global_batch_size", "median_epoch_at_stop", "train_samples"})
            result += table.field(i, column) + "|";
        resultOf[path + ":" + std::to_string(table.lineOf(i))] = result;
        expected.insert(result);
    }
    QVERIFY(expected.size() > 100);
    std::set<std::string> predictedResults;
    QStringList missed;
    for (const auto &row : j.at("rows")) {
        const std::string where = row.at("where").get<std::string>();
        if (!resultOf.count(where))
            continue;
        if (row.at("predicted_minutes").is_number())
            QVERIFY2(predictedResults.insert(resultOf.at(where)).second,
                     qPrintable(QString::fromStdString("predicted twice: " + where)));
        else if (missed.size() < 10
                 && row.at("skip_reason").get<std::string>().find("same logs") == std::string::npos)
            missed << QString::fromStdString(where + " " + row.at("skip_reason").dump());
    }
    const std::size_t predicted = predictedResults.size();
    QVERIFY2(predicted >= 0.95 * double(expected.size()),
             qPrintable(QStringLiteral("%1 of %2 predicted; e.g. %3")
                            .arg(predicted)
                            .arg(expected.size())
                            .arg(missed.join(QStringLiteral("; ")))));
    const double resnet
        = j.at("summary").at("errors").at("resnet").at("median_abs_error").get<double>();
    QVERIFY2(resnet < 0.15, qPrintable(QString::number(resnet)));
}

QTEST_MAIN(TestPerfCli) // `chart` draws with widgets
#include "tst_perfcli.moc"
