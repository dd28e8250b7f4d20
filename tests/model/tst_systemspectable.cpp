// Every row of the published MLPerf results tables through the system parser: what it reads of
// each, and how many rows of catalog GPUs it covers (the parse of single fields is
// tst_systemspec.cpp).
#include "catalog/catalog.h"
#include "perf/systemspec.h"
#include "util/csv.h"
#include "util/fileio.h"

#include <QtTest>

#include <fstream>
#include <map>
#include <set>

using namespace clab;
using perf::IntraNode;

class TestSystemSpecTable : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void wholeCsv_data();
    void wholeCsv();
};

void TestSystemSpecTable::wholeCsv_data()
{
    QTest::addColumn<QString>("file");
    // The repository's copy of the published results (fewer columns: no hardware notes or core
    // counts) runs in every checkout; the shared reference table only where it is.
    QTest::newRow("datasets") << QStringLiteral(COMPOSELAB_SOURCE_DIR
                                                "/datasets/mlperf_training_results.csv");
    QTest::newRow("shared") << QStringLiteral(CLAB_SHARED_DIR
                                              "/reference/mlperf_training_calibration.csv");
}

void TestSystemSpecTable::wholeCsv()
{
    QFETCH(QString, file);
    const std::string path = file.toStdString();
    if (!std::ifstream(path).good())
        QSKIP("mlperf_training_calibration.csv not present");
    const CsvTable table = CsvTable::parse(readTextFile(path), path);
    QVERIFY(table.rowCount() > 0);

    std::vector<perf::MlperfSystemFields> rows;
    std::vector<std::string> benchmarks;
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
        perf::MlperfSystemFields f;
        f.accelerator = table.field(r, "accelerator");
        f.acceleratorsPerNode = table.field(r, "accelerators_per_node");
        f.numberOfNodes = table.field(r, "number_of_nodes");
        f.acceleratorCount = table.field(r, "accelerator_count");
        f.hostProcessor = table.field(r, "host_processor");
        f.hostProcessorsPerNode = table.field(r, "host_processors_per_node");
        f.hostProcessorCoreCount = table.field(r, "host_processor_core_count");
        f.acceleratorInterconnect = table.field(r, "accelerator_interconnect");
        f.acceleratorHostInterconnect = table.field(r, "accelerator_host_interconnect");
        f.hostNetworking = table.field(r, "host_networking");
        f.hostNetworkingTopology = table.field(r, "host_networking_topology");
        f.hwNotes = table.field(r, "hw_notes");
        rows.push_back(std::move(f));
        benchmarks.push_back(table.field(r, "benchmark"));
    }
    QCOMPARE(rows.size(), std::size_t(712));

    const catalog::Catalog &cat = catalog::Catalog::builtin();
    // The denominator is chosen without the parser: rows whose accelerator names the model of a
    // catalog GPU ("A100", "L40S", ...) as a whole word.
    std::vector<QString> models;
    for (const auto &[id, gpu] : cat.gpus())
        models.push_back(QString::fromStdString(id).section(QLatin1Char('-'), 0, 0));
    auto namesCatalogGpu = [&](const std::string &accelerator) {
        const QString text = QString::fromStdString(accelerator).toUpper();
        for (const QString &m : models) {
            const QRegularExpression word(QStringLiteral("(^|[^A-Z0-9])") + m
                                          + QStringLiteral("($|[^A-Z0-9])"));
            if (word.match(text).hasMatch())
                return true;
        }
        return false;
    };
    const std::set<std::string> benchmarkSet
        = {"resnet", "bert", "ssd", "maskrcnn", "unet3d", "rnnt", "dlrm"};

    // Speed is measured by `composelab bench` (validate_calibration), not here.
    std::vector<perf::ParsedSystem> parsed;
    for (const auto &f : rows)
        parsed.push_back(perf::parseMlperfSystem(f, cat));

    int eligible = 0, eligibleParsed = 0;
    std::map<std::string, int> reasons;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const perf::ParsedSystem &p = parsed[i];
        if (!p.spec) {
            QVERIFY2(!p.skipReason.empty(), rows[i].accelerator.c_str());
            reasons[p.skipReason.substr(0, p.skipReason.find(':'))]++;
        } else {
            QVERIFY(cat.gpu(p.spec->gpu));
            QVERIFY(p.spec->gpusPerNode > 0 && p.spec->nodes > 0);
            QVERIFY(p.spec->intraNode != IntraNode::Unknown);
            QVERIFY(p.spec->pcieGen >= 3 && p.spec->pcieGen <= 5);
        }
        if (benchmarkSet.count(benchmarks[i]) && namesCatalogGpu(rows[i].accelerator)) {
            ++eligible;
            eligibleParsed += p.spec ? 1 : 0;
        }
    }
    const double coverage = eligible ? double(eligibleParsed) / eligible : 0;
    qDebug("coverage: %d of %d catalog-GPU rows of the seven benchmarks (%.1f %%)", eligibleParsed,
           eligible, 100 * coverage);
    for (const auto &[reason, n] : reasons)
        qDebug("skipped %3d: %s", n, reason.c_str());
    QVERIFY(eligible > 300);
    QVERIFY2(coverage >= 0.95, qPrintable(QString::number(100 * coverage) + QStringLiteral(" %")));
}

QTEST_APPLESS_MAIN(TestSystemSpecTable)
#include "tst_systemspectable.moc"
