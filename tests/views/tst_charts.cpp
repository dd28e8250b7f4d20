#include "charts/builders.h"
#include "charts/storequery.h"
#include "store/import.h"
#include "store/store.h"
#include "views/charts/chartexport.h"
#include "views/charts/chartwidget.h"

#include <QImage>
#include <QSet>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <fstream>

using namespace clab;
using namespace clab::charts;

// ChartWidget draws what model/charts computed: the right plottables, legend names and axis
// labels; and every export format gives a real file.
class TestCharts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void tttBarsLegendAndLabels();
    void manyCategoriesStayApart();
    void manySeriesLegendBesideThePlot();
    void scalingGraphsOnLogAxes();
    void longAxisLabelElidedInShortChart();
    void heatmapHasColourScale();
    void breakdownStacks();
    void errorBoxes();
    void systemKeepsItsColour();
    void exports_data();
    void exports();
    void refusesUnknownFormat();
    void savesEveryKind();

private:
    ChartData chart(ChartKind kind);
    QTemporaryDir m_dir;
    std::string m_db;
};

void TestCharts::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const std::string csv = m_dir.filePath(QStringLiteral("runs.csv")).toStdString();
    std::ofstream(csv)
        << "system,benchmark,metric,value,unit,kind,gpus,compute_min,communication_min,"
           "input_min,evaluation_min\n"
           "Rack A,resnet,time_to_train,32,min,measured,8,,,,\n"
           "Rack A,resnet,time_to_train,33.6,min,predicted,8,26,4.6,2,1\n"
           "Rack B,resnet,time_to_train,20,min,measured,16,,,,\n"
           "Rack B,resnet,time_to_train,17,min,predicted,16,10,4,2,1\n"
           "Rack C,resnet,time_to_train,12.5,min,measured,32,,,,\n"
           "Rack C,resnet,time_to_train,9.8,min,predicted,32,5.2,2.4,1.2,1\n"
           "Rack D,resnet,time_to_train,8.1,min,measured,64,,,,\n"
           "Rack D,resnet,time_to_train,6.1,min,predicted,64,2.6,2.3,0.2,1\n"
           "Rack B,bert,time_to_train,50,min,measured,16,,,,\n"
           "Rack B,bert,time_to_train,44,min,predicted,16,30,9,1,4\n";
    m_db = m_dir.filePath(QStringLiteral("store.sqlite")).toStdString();
    store::Store s(m_db);
    store::importPaths(s, {csv, CLAB_TEST_DATA "/import/p2p_bandwidth_latency.txt",
                           CLAB_TEST_DATA "/import/nccl_all_reduce.txt"});
}

// 39 time-to-train categories with long names: flat bars, each label its own row at the height
// the chart asks for, labels cut to the limit, the title and the legend inside the widget.
void TestCharts::manyCategoriesStayApart()
{
    std::vector<RunPoint> runs;
    for (const char *benchmark : {"bert", "resnet", "ssd"}) {
        for (int i = 1; i <= 30; ++i) {
            RunPoint r;
            r.system = "a_very_long_submission_system_name_ngc24.04_pytorch_" + std::to_string(i);
            r.benchmark = benchmark;
            r.metric = "score";
            r.value = i;
            runs.push_back(r);
        }
    }
    const ChartData c = tttChart(runs);
    views::ChartWidget w;
    w.resize(900, views::ChartWidget::preferredHeight(c));
    w.setChart(c);
    w.show(); // the plot takes its size from the shown widget
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.replot();
    QVERIFY(c.horizontal);
    const QFontMetrics font(w.yAxis->tickLabelFont());
    const double row = std::abs(w.yAxis->coordToPixel(1) - w.yAxis->coordToPixel(0));
    QVERIFY2(row >= font.height(), qPrintable(QStringLiteral("%1 px a row").arg(row)));
    auto *ticker = dynamic_cast<QCPAxisTickerText *>(w.yAxis->ticker().data());
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().size(), int(c.categories.size()));
    for (const QString &label : ticker->ticks())
        QVERIFY2(font.horizontalAdvance(label) <= views::ChartWidget::kMaxLabelWidth,
                 qPrintable(label));
    const QRect canvas = w.rect();
    QVERIFY(canvas.contains(w.plotLayout()->element(0, 0)->outerRect())); // the title
    // A title wider than the chart wraps; its lines stay inside.
    ChartData titled = c;
    titled.title = "Peer-to-peer bandwidth: Unidirectional P2P=Enabled Bandwidth (P2P Writes) "
                   "Matrix (GB/s) (ASUS ESC8000A-E12 with four RTX 6000 Ada and four NICs)";
    w.setChart(titled);
    w.resize(600, w.height());
    w.replot();
    auto *title = qobject_cast<QCPTextElement *>(w.plotLayout()->element(0, 0));
    QVERIFY(title && title->text().contains(QLatin1Char('\n')));
    const QFontMetrics titleFont(title->font());
    for (const QString &line : title->text().split(QLatin1Char('\n')))
        QVERIFY2(titleFont.horizontalAdvance(line) <= 600, qPrintable(line));
    QVERIFY(QRect(0, 0, 600, w.height()).contains(title->outerRect()));
    QVERIFY(w.axisRect()->rect().contains(w.legend->outerRect()));
    QVERIFY(canvas.contains(w.axisRect()->outerRect()));
}

// Ten curves: the legend leaves the plot's corner for a column beside it, every entry listed;
// a chart of two curves brings it back inside.
void TestCharts::manySeriesLegendBesideThePlot()
{
    ChartData c;
    c.kind = ChartKind::Collective;
    c.title = "Collective bus bandwidth against message size";
    c.x = {"message size (bytes)", true};
    c.y = {"bus bandwidth (GB/s)", false};
    for (int i = 0; i < 10; ++i)
        c.series.push_back({"machine " + std::to_string(i) + ": all_reduce_perf out-of-place",
                            SeriesKind::Measured,
                            {1024, 1048576, 1073741824},
                            {1.0 + i, 10.0 + i, 100.0 + i}});
    views::ChartWidget w;
    w.resize(900, 560);
    w.setChart(c);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.replot();
    QVERIFY(w.legendOutside());
    QCOMPARE(w.legend->itemCount(), 10);
    QVERIFY(!w.legend->outerRect().intersects(w.axisRect()->rect()));
    QVERIFY(w.rect().contains(w.legend->outerRect()));
    c.series.resize(2);
    w.setChart(c);
    w.replot();
    QVERIFY(!w.legendOutside());
    QVERIFY(w.axisRect()->rect().contains(w.legend->outerRect()));
}

ChartData TestCharts::chart(ChartKind kind)
{
    StoreQuery q(m_db);
    store::RunFilter f;
    if (kind == ChartKind::Scaling)
        f.benchmark = "resnet";
    return chartFromStore(q, kind, f);
}

void TestCharts::tttBarsLegendAndLabels()
{
    views::ChartWidget w;
    w.setChart(chart(ChartKind::Ttt));
    QCOMPARE(w.barCount(), 2);
    QCOMPARE(w.plottableCount(), 2);
    QCOMPARE(w.legendNames(),
             (QStringList{QStringLiteral("measured"), QStringLiteral("predicted")}));
    QCOMPARE(w.yAxis->label(), QStringLiteral("time to train (min)"));
    QCOMPARE(w.xAxis->label(), QStringLiteral("system / benchmark"));
    // One error label per measured-and-predicted pair: all five pairs here.
    QCOMPARE(w.itemCount(), 5);
    auto *ticker = dynamic_cast<QCPAxisTickerText *>(w.xAxis->ticker().data());
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().size(), 5);
}

void TestCharts::scalingGraphsOnLogAxes()
{
    views::ChartWidget w;
    w.setChart(chart(ChartKind::Scaling));
    QCOMPARE(w.graphCount(), 3);
    QCOMPARE(w.legendNames(), (QStringList{QStringLiteral("measured"), QStringLiteral("predicted"),
                                           QStringLiteral("ideal (linear)")}));
    QCOMPARE(w.xAxis->scaleType(), QCPAxis::stLogarithmic);
    QCOMPARE(w.yAxis->scaleType(), QCPAxis::stLogarithmic);
    // Labelled at 1, 2 and 5 times a power of ten.
    w.yAxis->setRange(3, 700);
    w.replot();
    QCOMPARE(w.yAxis->tickVector(), (QVector<double>{5, 10, 20, 50, 100, 200, 500}));
    QCOMPARE(w.graph(0)->dataCount(), 4);
    QCOMPARE(w.xAxis->label(), QStringLiteral("GPUs"));
}

void TestCharts::longAxisLabelElidedInShortChart()
{
    views::ChartWidget w;
    charts::ChartData c = chart(ChartKind::Scaling);
    c.y.label = "GPU utilisation (% of 12 GPUs, mean over 200 stretches of the run)";
    w.setChart(c);
    QCOMPARE(w.yAxis->label(), QString::fromStdString(c.y.label)); // 560 px: room enough
    // A short dock: the label keeps its start and ends in "…" within the plot's height.
    w.resize(600, 220);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.replot();
    const QString shown = w.yAxis->label();
    QVERIFY2(shown.startsWith(QLatin1String("GPU utilisation (")), qPrintable(shown));
    QVERIFY2(shown.endsWith(QChar(0x2026)), qPrintable(shown));
    QVERIFY(QFontMetrics(w.yAxis->labelFont()).horizontalAdvance(shown) <= w.axisRect()->height());
    // Tall again, whole again.
    w.resize(900, 560);
    w.replot();
    QCOMPARE(w.yAxis->label(), QString::fromStdString(c.y.label));
}

void TestCharts::heatmapHasColourScale()
{
    views::ChartWidget w;
    w.setChart(chart(ChartKind::Heatmap));
    QVERIFY(w.colorMap());
    QVERIFY(w.colorScale());
    QCOMPARE(w.colorMap()->data()->keySize(), 3);
    QCOMPARE(w.colorScale()->axis()->label(), QStringLiteral("bandwidth (GB/s)"));
    QVERIFY(!w.legend->visible());
    // Switching to another kind removes the colour scale again.
    w.setChart(chart(ChartKind::Ttt));
    QVERIFY(!w.colorScale());
    for (int i = 0; i < w.plotLayout()->elementCount(); ++i)
        QVERIFY(!qobject_cast<QCPColorScale *>(w.plotLayout()->elementAt(i)));
}

void TestCharts::breakdownStacks()
{
    views::ChartWidget w;
    w.setChart(chart(ChartKind::Breakdown));
    QCOMPARE(w.barCount(), 4);
    auto *bars = qobject_cast<QCPBars *>(w.plottable(1));
    QVERIFY(bars);
    QCOMPARE(bars->barBelow(), qobject_cast<QCPBars *>(w.plottable(0)));
    QCOMPARE(w.legendNames().at(1), QStringLiteral("exposed communication"));
}

// The error chart: a box per benchmark (resnet's four pairs at +5, -15, -21.6 and -24.7 %, bert's
// one at -12 %), the zero line, and the benchmarks with their counts under the boxes.
void TestCharts::errorBoxes()
{
    views::ChartWidget w;
    w.setChart(chart(ChartKind::Error));
    QCOMPARE(w.plottableCount(), 2);
    auto *resnet = qobject_cast<QCPStatisticalBox *>(w.plottable(1));
    QVERIFY(resnet);
    QCOMPARE(resnet->data()->size(), 1);
    const double median = resnet->data()->at(0)->median;
    QVERIFY2(std::abs(median - (-18.3)) < 0.1, qPrintable(QString::number(median)));
    QCOMPARE(w.itemCount(), 1); // the zero line
    const auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(w.xAxis->ticker());
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().value(1), QStringLiteral("resnet (4)"));
    QVERIFY(w.yAxis->range().contains(5) && w.yAxis->range().contains(-24.7));
}

// A series that stands for a system has the same colour and marker in every chart, whatever else
// the chart holds; 40 systems get 40 different looks; a line that stands for no system is grey.
void TestCharts::systemKeepsItsColour()
{
    const auto pointsChart = [](const std::vector<std::string> &systems) {
        ChartData c;
        c.kind = ChartKind::Pareto;
        for (std::size_t i = 0; i < systems.size(); ++i) {
            Series s{systems[i], SeriesKind::Measured, {double(i + 1)}, {double(i + 2)}};
            s.identity = systems[i];
            c.series.push_back(std::move(s));
        }
        c.series.push_back({"Pareto front", SeriesKind::Predicted, {1, 2}, {2, 3}});
        return c;
    };
    const auto look = [](views::ChartWidget &w, int graph) {
        return std::pair(w.graph(graph)->pen().color().name(),
                         int(w.graph(graph)->scatterStyle().shape()));
    };
    views::ChartWidget a, b;
    a.setChart(pointsChart({"Rack A", "Rack B"}));
    b.setChart(pointsChart({"Rack Z", "Rack Y", "Rack X", "Rack B"}));
    QCOMPARE(look(a, 1), look(b, 3));
    QCOMPARE(a.graph(2)->pen().color(), QColor(0x55, 0x55, 0x55));

    std::vector<std::string> many;
    for (int i = 0; i < 40; ++i)
        many.push_back("node " + std::to_string(i));
    views::ChartWidget c;
    c.setChart(pointsChart(many));
    QSet<QString> looks;
    for (int i = 0; i < 40; ++i)
        looks.insert(look(c, i).first + QString::number(look(c, i).second));
    QCOMPARE(looks.size(), 40);
}

void TestCharts::exports_data()
{
    QTest::addColumn<QString>("suffix");
    QTest::newRow("png") << QStringLiteral("png");
    QTest::newRow("pdf") << QStringLiteral("pdf");
    QTest::newRow("svg") << QStringLiteral("svg");
}

void TestCharts::exports()
{
    QFETCH(QString, suffix);
    views::ChartWidget w;
    w.resize(800, 500);
    w.setChart(chart(ChartKind::Ttt));
    const QString path = m_dir.filePath(QStringLiteral("ttt.") + suffix);
    QString error;
    QVERIFY2(views::exportChart(w, path, 192, &error), qPrintable(error));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    if (suffix == QLatin1String("png")) {
        QImage image;
        QVERIFY(image.loadFromData(bytes, "PNG"));
        QCOMPARE(image.size(), QSize(1600, 1000)); // 192 dpi = twice the 96-dpi size
        QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 192);
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
        QVERIFY(colours.contains(qRgb(0x00, 0x72, 0xB2))); // the measured bars' blue
    } else if (suffix == QLatin1String("pdf")) {
        QVERIFY(bytes.startsWith("%PDF"));
        QVERIFY(bytes.size() > 1024);
    } else {
        QXmlStreamReader xml(bytes);
        int paths = 0, texts = 0;
        QString root;
        while (!xml.atEnd())
            if (xml.readNext() == QXmlStreamReader::StartElement) {
                if (root.isEmpty())
                    root = xml.name().toString();
                // Vector shapes: QSvgGenerator writes fills as <path>, strokes as <polyline>,
                // rectangles as <rect>.
                for (const char *shape : {"path", "polyline", "polygon", "rect", "line"})
                    paths += xml.name() == QLatin1String(shape);
                texts += xml.name() == QLatin1String("text");
            }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(root, QStringLiteral("svg"));
        QVERIFY(paths > 10);
        QVERIFY(texts > 5);
        QVERIFY(bytes.contains("time to train (min)"));
    }
}

void TestCharts::refusesUnknownFormat()
{
    views::ChartWidget w;
    w.setChart(chart(ChartKind::Ttt));
    QString error;
    const QString path = m_dir.filePath(QStringLiteral("chart.bmp"));
    QVERIFY(!views::exportChart(w, path, 96, &error));
    QVERIFY(error.contains(QStringLiteral("chart.bmp")));
    QVERIFY(!QFile::exists(path));
}

// With CLAB_CHART_DIR set, one PNG of each kind goes there for a person to look at.
void TestCharts::savesEveryKind()
{
    const QString dir = qEnvironmentVariable("CLAB_CHART_DIR");
    for (ChartKind kind :
         {ChartKind::Ttt, ChartKind::Scaling, ChartKind::Bandwidth, ChartKind::Heatmap,
          ChartKind::Collective, ChartKind::Breakdown, ChartKind::Parity, ChartKind::Error}) {
        views::ChartWidget w;
        w.setChart(chart(kind));
        QVERIFY2(!w.chart().empty(), chartKindName(kind));
        const QString path = (dir.isEmpty() ? m_dir.path() : dir) + QLatin1Char('/')
                             + QLatin1String(chartKindName(kind)) + QStringLiteral(".png");
        QString error;
        QVERIFY2(views::exportChart(w, path, 96, &error), qPrintable(error));
    }
}

QTEST_MAIN(TestCharts)
#include "tst_charts.moc"
