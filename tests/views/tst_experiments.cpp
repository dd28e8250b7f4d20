#include "views/experiments/experimentsview.h"
#include "views/experiments/runtablemodel.h"

#include "store/import.h"
#include "store/runquery.h"
#include "store/store.h"

#include <QComboBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QTableView>
#include <QUndoStack>
#include <QtTest>

#include <sqlite3.h>

#include <fstream>

using namespace clab;
using views::ExperimentsView;
using views::RunTableModel;

namespace {

// Row i of the generated CSV (on line i + 2). Values are a permutation of 1000.25 + 0..99999
// (7919 is prime to 100,000), so "first after sorting by value" has one answer.
struct GeneratedRun
{
    QString system;
    QString benchmark;
    double value;
    bool predicted;
    int gpus;
    QString framework;
    bool nightly;
};

GeneratedRun generated(int i)
{
    static const char *const benchmarks[] = {"resnet", "bert", "ssd", "unet3d", "gpt3"};
    return {QStringLiteral("node%1").arg(i % 23),
            QString::fromLatin1(benchmarks[i % 5]),
            1000.25 + double((std::int64_t(i) * 7919) % 100000),
            i % 3 == 0,
            1 << (i % 4),
            i % 2 ? QStringLiteral("JAX") : QStringLiteral("PyTorch"),
            i % 11 == 0};
}

void writeCsv(const QString &path, int rows)
{
    std::ofstream out(path.toStdString());
    out << "system,benchmark,value,global_batch_size,precision,framework,round,date,kind,tags,"
           "gpus\n";
    for (int i = 0; i < rows; ++i) {
        const GeneratedRun r = generated(i);
        out << r.system.toStdString() << ',' << r.benchmark.toStdString() << ','
            << QString::number(r.value, 'f', 2).toStdString() << ',' << 32 * (1 + i % 8) << ",fp16,"
            << r.framework.toStdString() << ",4.0,2024-05-" << (10 + i % 20) << ','
            << (r.predicted ? "predicted" : "measured") << ',' << (r.nightly ? "nightly;big" : "")
            << ',' << r.gpus << '\n';
    }
}

// A store with `rows` generated runs imported from <dir>/runs.csv.
QString makeStore(const QTemporaryDir &dir, int rows)
{
    const QString csv = dir.filePath(QStringLiteral("runs.csv"));
    const QString db = dir.filePath(QStringLiteral("store.sqlite"));
    writeCsv(csv, rows);
    store::Store s(db.toStdString());
    store::importPaths(s, {csv.toStdString()});
    return db;
}

QStringList rowTexts(const RunTableModel *m)
{
    QStringList out;
    for (int r = 0; r < m->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < m->columnCount(); ++c)
            cells << m->index(r, c).data().toString();
        out << cells.join(QLatin1Char('|'));
    }
    return out;
}

} // namespace

class TestExperiments : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void largeStoreFiltersAndSorts();
    void provenanceOfSelection();
    void deleteAndUndo();
    void badStoresShowError_data();
    void badStoresShowError();
};

void TestExperiments::largeStoreFiltersAndSorts()
{
    constexpr int n = 100000;
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = makeStore(dir, n);

    ExperimentsView view;
    view.resize(1280, 760);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setStorePath(db);
    QCOMPARE(view.errorText(), QString());
    RunTableModel *m = view.model();
    QCOMPARE(m->rowCount(), n);
    QCOMPARE(m->index(n - 1, RunTableModel::System).data().toString(), generated(n - 1).system);

    auto *benchmark = view.findChild<QComboBox *>(QStringLiteral("benchmark"));
    QCOMPARE(benchmark->count(), 6); // "All benchmarks" and the five names
    benchmark->setCurrentIndex(benchmark->findText(QStringLiteral("bert")));
    QCOMPARE(m->rowCount(), n / 5);

    auto *kind = view.findChild<QComboBox *>(QStringLiteral("kind"));
    kind->setCurrentIndex(kind->findData(int(store::RunKind::Predicted)));
    view.findChild<QSpinBox *>(QStringLiteral("gpus"))->setValue(2);
    view.findChild<QLineEdit *>(QStringLiteral("system"))->setText(QStringLiteral("NODE2"));
    view.applyFilters();

    int expected = 0;
    double maxValue = 0;
    for (int i = 0; i < n; ++i) {
        const GeneratedRun r = generated(i);
        if (r.benchmark == QLatin1String("bert") && r.predicted && r.gpus == 2
            && r.system.startsWith(QLatin1String("node2"))) {
            ++expected;
            maxValue = std::max(maxValue, r.value);
        }
    }
    QVERIFY(expected > 0);
    QCOMPARE(m->rowCount(), expected);

    view.table()->sortByColumn(RunTableModel::Value, Qt::DescendingOrder);
    QCOMPARE(m->rowCount(), expected);
    QCOMPARE(m->index(0, RunTableModel::Value).data().toString(),
             QString::number(maxValue, 'g', 12));
    QCOMPARE(m->index(0, RunTableModel::Benchmark).data().toString(), QStringLiteral("bert"));
    QCOMPARE(m->index(0, RunTableModel::Kind).data().toString(), QStringLiteral("predicted"));

    // The search box (tags here), typed: the query waits for the pause in typing.
    view.findChild<QLineEdit *>(QStringLiteral("search"))->setText(QStringLiteral("Nightly"));
    int nightly = 0;
    for (int i = 0; i < n; ++i) {
        const GeneratedRun r = generated(i);
        nightly += r.benchmark == QLatin1String("bert") && r.predicted && r.gpus == 2
                   && r.system.startsWith(QLatin1String("node2")) && r.nightly;
    }
    QTRY_COMPARE(m->rowCount(), nightly);

    // Everything again, sorted by value: the smallest is 1000.25, on line 2.
    view.findChild<QLineEdit *>(QStringLiteral("search"))->clear();
    view.findChild<QLineEdit *>(QStringLiteral("system"))->clear();
    view.findChild<QSpinBox *>(QStringLiteral("gpus"))->setValue(0);
    kind->setCurrentIndex(0);
    benchmark->setCurrentIndex(0);
    view.applyFilters();
    view.table()->sortByColumn(RunTableModel::Value, Qt::AscendingOrder);
    QCOMPARE(m->rowCount(), n);
    QCOMPARE(m->index(0, RunTableModel::Value).data().toString(), QStringLiteral("1000.25"));
    view.table()->selectRow(0);
    const auto *provenance = view.findChild<QPlainTextEdit *>(QStringLiteral("provenance"));
    QVERIFY(provenance->toPlainText().contains(QStringLiteral("line 2\n")));

    if (qEnvironmentVariableIsSet("CLAB_SCREENSHOT_DIR")) {
        view.table()->sortByColumn(-1, Qt::AscendingOrder);
        view.table()->selectRow(3);
        view.grab().save(qEnvironmentVariable("CLAB_SCREENSHOT_DIR")
                         + QStringLiteral("/experiments.png"));
    }
}

void TestExperiments::provenanceOfSelection()
{
    QTemporaryDir dir;
    const QString db = makeStore(dir, 5);
    ExperimentsView view;
    view.setStorePath(db);
    QSignalSpy selected(&view, &ExperimentsView::selectionChanged);
    view.table()->selectRow(2);
    QVERIFY(!selected.isEmpty());
    const auto ids = selected.last().at(0).value<std::vector<std::int64_t>>();
    QCOMPARE(ids, std::vector<std::int64_t>{view.model()->runId(2)});

    const QString text
        = view.findChild<QPlainTextEdit *>(QStringLiteral("provenance"))->toPlainText();
    QVERIFY2(text.contains(dir.filePath(QStringLiteral("runs.csv"))), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Place: line 4")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("generic_csv")), qPrintable(text));
    store::RunQuery q(db.toStdString());
    QVERIFY(text.contains(QString::fromStdString(q.run(ids[0])->sourceSha256)));

    view.table()->clearSelection();
    QVERIFY(selected.last().at(0).value<std::vector<std::int64_t>>().empty());
}

void TestExperiments::deleteAndUndo()
{
    QTemporaryDir dir;
    const QString db = makeStore(dir, 10);
    ExperimentsView view;
    QUndoStack &stack = *view.undoStack();
    view.setStorePath(db);
    RunTableModel *m = view.model();
    QCOMPARE(m->rowCount(), 10);
    store::RunQuery q(db.toStdString());
    const std::vector<store::StoredRunRow> before = q.stored(q.ids({}));
    const QStringList textsBefore = rowTexts(m);

    auto *selection = view.table()->selectionModel();
    selection->select(QItemSelection(m->index(2, 0), m->index(4, 0)),
                      QItemSelectionModel::Select | QItemSelectionModel::Rows);
    const std::vector<std::int64_t> gone = view.selectedRunIds();
    QCOMPARE(gone.size(), std::size_t(3));
    view.deleteSelected();
    QCOMPARE(stack.count(), 1);
    QCOMPARE(view.errorText(), QString());
    QCOMPARE(m->rowCount(), 7);
    QCOMPARE(q.count(), std::int64_t(7));
    QStringList textsAfter = textsBefore;
    textsAfter.remove(2, 3);
    QCOMPARE(rowTexts(m), textsAfter);
    QVERIFY(q.stored(gone).empty());

    stack.undo();
    QCOMPARE(m->rowCount(), 10);
    QCOMPARE(q.stored(q.ids({})), before);
    QCOMPARE(rowTexts(m), textsBefore);

    stack.redo();
    QCOMPARE(m->rowCount(), 7);
    QCOMPARE(rowTexts(m), textsAfter);
    stack.undo();
    QCOMPARE(q.stored(q.ids({})), before);
}

void TestExperiments::badStoresShowError_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");
    // A store that does not exist yet is the first start, not an error: the view says how to
    // fill it.
    QTest::newRow("missing") << "missing"
                             << "No experiments yet. File > Import Results";
    QTest::newRow("corrupt") << "corrupt"
                             << "not an SQLite database";
    QTest::newRow("newer") << "newer"
                           << "schema version 7";
}

void TestExperiments::badStoresShowError()
{
    QFETCH(QString, kind);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString good = makeStore(dir, 4);
    const QString bad = dir.filePath(QStringLiteral("bad.sqlite"));
    if (kind == QLatin1String("corrupt")) {
        std::ofstream(bad.toStdString()) << "this is not a database at all\n";
    } else if (kind == QLatin1String("newer")) {
        {
            store::Store s(bad.toStdString());
        }
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(bad.toStdString().c_str(), &db), SQLITE_OK);
        sqlite3_exec(db, "PRAGMA user_version = 7", nullptr, nullptr, nullptr);
        sqlite3_close(db);
    }
    ExperimentsView view;
    view.setStorePath(good);
    QCOMPARE(view.model()->rowCount(), 4);
    view.setStorePath(bad);
    QVERIFY2(view.errorText().contains(message), qPrintable(view.errorText()));
    QVERIFY(view.errorText().contains(bad));
    QCOMPARE(view.model()->rowCount(), 0);
    QCOMPARE(view.findChild<QComboBox *>(QStringLiteral("benchmark"))->count(), 1);
    view.table()->selectAll();
    view.deleteSelected(); // nothing to delete, nothing to crash
    QCOMPARE(view.undoStack()->count(), 0);

    view.setStorePath(good); // and back
    QCOMPARE(view.errorText(), QString());
    QCOMPARE(view.model()->rowCount(), 4);
}

QTEST_MAIN(TestExperiments)
#include "tst_experiments.moc"
