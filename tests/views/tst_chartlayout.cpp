// Every kind of chart, drawn from a store the size of a real study (1,000 runs, 100 systems), at
// 9.4 and 6 inches wide, paper and slides: no text leaves the canvas and no two texts overlap
// (title, legend, annotations, tick labels).
#include "charts/storequery.h"
#include "store/import.h"
#include "store/store.h"
#include "views/charts/chartwidget.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace clab;
using namespace clab::charts;

namespace {

struct Text
{
    QString what;
    QRectF rect;
    QPolygonF shape; // the text's own outline (turned tick labels); empty: the rectangle
    QPolygonF outline() const { return shape.isEmpty() ? QPolygonF(rect) : shape; }
};

QRectF labelRect(const QFontMetrics &m, const QString &label)
{
    return m.boundingRect(QRect(0, 0, 10000, 10000), Qt::TextDontClip, label);
}

// The tick labels QCustomPlot draws, where it draws them: centred under (or beside) the tick,
// past the tick marks and the label padding. Turned labels (bottom axis, -40°) end at their
// tick and rise to the left.
void addTickLabels(QCPAxis *axis, std::vector<Text> &texts, QStringList &problems)
{
    if (!axis->visible() || !axis->tickLabels())
        return;
    const QFontMetrics m(axis->tickLabelFont());
    const QRect plot = axis->axisRect()->rect();
    const double offset = axis->tickLabelPadding() + std::max(0, axis->tickLengthOut());
    const QVector<double> ticks = axis->tickVector();
    const QVector<QString> labels = axis->tickVectorLabels();
    const double turn = std::abs(axis->tickLabelRotation()) * M_PI / 180;
    double previous = NAN;
    for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
        if (!axis->range().contains(ticks[i]) || labels[i].isEmpty())
            continue;
        const double at = axis->coordToPixel(ticks[i]);
        const QSizeF size = labelRect(m, labels[i]).size();
        QRectF r;
        if (axis->axisType() == QCPAxis::atBottom && turn > 0) {
            // The text ends at its tick and runs down to the left.
            QTransform t;
            t.translate(at, plot.bottom() + offset);
            t.rotate(-std::abs(axis->tickLabelRotation()));
            const QPolygonF shape
                = t.map(QPolygonF(QRectF(-size.width(), 0, size.width(), size.height())));
            // Parallel turned labels touch when their ticks are closer than a line's height
            // over the sine of the angle.
            if (!std::isnan(previous) && at - previous < size.height() / std::sin(turn) * 0.9)
                problems << QStringLiteral("%1: turned tick labels %2 px apart")
                                .arg(labels[i])
                                .arg(at - previous);
            previous = at;
            texts.push_back(
                {QStringLiteral("turned tick ") + labels[i], shape.boundingRect(), shape});
            continue;
        }
        switch (axis->axisType()) {
        case QCPAxis::atBottom:
            r = QRectF(at - size.width() / 2, plot.bottom() + offset, size.width(), size.height());
            break;
        case QCPAxis::atTop:
            r = QRectF(at - size.width() / 2, plot.top() - offset - size.height(), size.width(),
                       size.height());
            break;
        case QCPAxis::atLeft:
            r = QRectF(plot.left() - offset - size.width(), at - size.height() / 2, size.width(),
                       size.height());
            break;
        case QCPAxis::atRight:
            r = QRectF(plot.right() + offset, at - size.height() / 2, size.width(), size.height());
            break;
        }
        texts.push_back({QStringLiteral("tick ") + labels[i], r, {}});
    }
}

// Every text of the chart as drawn.
std::vector<Text> textsOf(views::ChartWidget &w, QStringList &problems)
{
    std::vector<Text> texts;
    const QList<QCPLayoutElement *> elements = w.plotLayout()->elements(true);
    for (QCPLayoutElement *e : elements) {
        if (auto *title = qobject_cast<QCPTextElement *>(e); title && !title->text().isEmpty())
            texts.push_back({QStringLiteral("title"), title->outerRect(), {}});
    }
    for (QCPLayoutElement *e : elements)
        if (auto *legend = qobject_cast<QCPLegend *>(e); legend && legend->visible())
            texts.push_back({QStringLiteral("legend"), legend->outerRect(), {}});
    for (int i = 0; i < w.itemCount(); ++i)
        if (auto *t = qobject_cast<QCPItemText *>(w.item(i)))
            texts.push_back(
                {QStringLiteral("annotation ") + t->text(),
                 QRectF(t->topLeft->pixelPosition(), t->bottomRight->pixelPosition()).normalized(),
                 {}});
    for (QCPAxis *axis : w.axisRect()->axes())
        addTickLabels(axis, texts, problems);
    return texts;
}

QString describe(const QRectF &r)
{
    return QStringLiteral("(%1,%2 %3x%4)")
        .arg(r.x(), 0, 'f', 0)
        .arg(r.y(), 0, 'f', 0)
        .arg(r.width(), 0, 'f', 0)
        .arg(r.height(), 0, 'f', 0);
}

} // namespace

class TestChartLayout : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void everyKindStaysApart_data();
    void everyKindStaysApart();

private:
    QTemporaryDir m_dir;
    std::string m_db;
};

// 100 systems with names as long as real ones, 5 benchmarks, 1 to 64 GPUs: a measured and a
// predicted run of each system on each benchmark (with breakdown, energy and cost), and peer
// and collective bandwidth tables.
void TestChartLayout::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const std::string csv = m_dir.filePath(QStringLiteral("runs.csv")).toStdString();
    {
        std::ofstream out(csv);
        out << "system,benchmark,metric,value,unit,kind,gpus,compute_min,communication_min,"
               "input_min,evaluation_min,energy_kwh,cost_usd,study\n";
        const char *benchmarks[] = {"resnet", "bert", "unet3d", "ssd", "maskrcnn"};
        int runs = 0;
        for (int s = 0; s < 100; ++s) {
            const int gpus = 1 << (s % 7);
            char system[96];
            std::snprintf(system, sizeof system, "node %02d, %dx A100-PCIe-40GB %s", s, gpus,
                          s % 2 ? "pooled, 2 uplinks" : "local");
            for (int b = 0; b < 5; ++b) {
                const double minutes = (20 + 7 * b + s % 13) * 64.0 / gpus;
                const double predicted = minutes * (0.8 + 0.004 * ((s * 7 + b * 3) % 100));
                out << '"' << system << "\"," << benchmarks[b] << ",time_to_train," << minutes
                    << ",min,measured," << gpus << ",,,,,,,\n";
                out << '"' << system << "\"," << benchmarks[b] << ",time_to_train," << predicted
                    << ",min,predicted," << gpus << ',' << predicted * 0.7 << ',' << predicted * 0.1
                    << ',' << predicted * 0.1 << ',' << predicted * 0.1 << ','
                    << predicted * gpus * 0.006 << ',' << predicted * gpus * 0.004 << ",seed\n";
                runs += 2;
            }
        }
        QCOMPARE(runs, 1000);
    }
    m_db = m_dir.filePath(QStringLiteral("store.sqlite")).toStdString();
    store::Store s(m_db);
    store::importPaths(s, {csv, CLAB_TEST_DATA "/import/p2p_bandwidth_latency.txt",
                           CLAB_TEST_DATA "/import/nccl_all_reduce.txt"});
}

void TestChartLayout::everyKindStaysApart_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("width");
    QTest::addColumn<double>("textScale");
    for (int k = 0; k <= int(ChartKind::Error); ++k)
        for (int width : {900, 576})
            for (double scale : {1.0, 1.5}) {
                const std::string name = chartKindName(ChartKind(k)) + std::string(" at ")
                                         + std::to_string(width) + " px"
                                         + (scale > 1 ? ", slides" : "");
                QTest::newRow(name.c_str()) << k << width << scale;
            }
}

void TestChartLayout::everyKindStaysApart()
{
    QFETCH(int, kind);
    QFETCH(int, width);
    QFETCH(double, textScale);
    StoreQuery q(m_db);
    const ChartData data = chartFromStore(q, ChartKind(kind), store::RunFilter{});
    QVERIFY2(!data.empty(), chartKindName(ChartKind(kind)));
    views::ChartWidget w;
    w.setTextScale(textScale);
    w.resize(width, views::ChartWidget::preferredHeight(data, textScale, width));
    w.setChart(data);
    w.show(); // lays the chart out at its size, as on screen
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.replot();
    QCOMPARE(w.viewport().size(), w.size());
    QStringList problems;
    const std::vector<Text> texts = textsOf(w, problems);
    QVERIFY(texts.size() > 3);
    const QRectF canvas(0, 0, w.width(), w.height());
    for (const Text &t : texts)
        if (!canvas.adjusted(-1, -1, 1, 1).contains(t.rect))
            problems << t.what + QStringLiteral(" leaves the canvas: ") + describe(t.rect);
    for (std::size_t i = 0; i < texts.size(); ++i)
        for (std::size_t j = i + 1; j < texts.size(); ++j) {
            const QRectF both = texts[i].outline().intersected(texts[j].outline()).boundingRect();
            // A turned tick label's box is its rotated text's hull: neighbours' hulls meet.
            const bool turnedPair = texts[i].what.startsWith(QLatin1String("turned tick"))
                                    && texts[j].what.startsWith(QLatin1String("turned tick"));
            if (both.width() > 1 && both.height() > 1 && !turnedPair)
                problems << texts[i].what + QStringLiteral(" overlaps ") + texts[j].what
                                + QLatin1Char(' ') + describe(both);
        }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 8).join(QLatin1Char('\n'))));
}

QTEST_MAIN(TestChartLayout)
#include "tst_chartlayout.moc"
