#include "views/cluster/clusterview.h"

#include "charts/clustercharts.h"
#include "cluster/clusterspec.h"
#include "cluster/placementstudy.h"
#include "cluster/topologyspec.h"
#include "design/design.h"
#include "fabric/analysis.h"
#include "util/fileio.h"
#include "util/inputerror.h"
#include "views/charts/chartexport.h"
#include "views/charts/chartwidget.h"
#include "views/cluster/metricstable.h"
#include "views/common/qtext.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableWidget>
#include <QThreadPool>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace clab::views {

// What a worker hands back: the chosen topology's report or why there is none, and the
// reference families when they were not computed before.
struct ClusterView::Result
{
    int generation = 0;
    int scale = 1024;
    std::optional<cluster::LabelledReport> selected;
    std::optional<std::vector<cluster::LabelledReport>> references;
    std::optional<charts::ChartData> placement; // HammingMesh only
    QString error;
};

namespace {

// Utilisation against faulty boards for the three placement policies on the paper's queue, the
// median of three seeds, with the paper's published points on its two 16k systems. 64×64
// boards take about a third of a second on the worker; larger grids get no chart (composelab
// topo --place takes them).
constexpr long long kMaxPlacementChartBoards = 4096;

std::optional<charts::ChartData> placementChartOf(const cluster::TopologySpec &s)
{
    const auto grid = cluster::parsePair(s.grid, s.kind, "grid");
    const auto board = cluster::parsePair(s.board, s.kind, "board");
    if (1LL * grid.first * grid.second > kMaxPlacementChartBoards)
        return std::nullopt;
    cluster::PlacementStudyParams p;
    p.x = grid.first;
    p.y = grid.second;
    p.queue = cluster::JobQueue::Paper;
    p.seeds = 3;
    return charts::placementStudyChart(p, board.first, board.second, s.grid + " boards");
}

const std::pair<const char *, const char *> kKinds[] = {
    {"hammingmesh", QT_TR_NOOP("HammingMesh")},
    {"fattree", QT_TR_NOOP("Fat tree")},
    {"rail", QT_TR_NOOP("Rail-optimised fat tree")},
    {"dragonfly", QT_TR_NOOP("Dragonfly")},
    {"torus", QT_TR_NOOP("Torus")},
    {"hyperx", QT_TR_NOOP("HyperX")},
};

QSpinBox *spin(int minimum, int maximum, int value)
{
    auto *s = new QSpinBox;
    s->setRange(minimum, maximum);
    s->setValue(value);
    s->setGroupSeparatorShown(true);
    // Typing 1024 is one change, not four (each would build a network).
    s->setKeyboardTracking(false);
    return s;
}

} // namespace

ClusterView::ClusterView(QWidget *parent)
    : QWidget(parent)
    , m_kind(new QComboBox)
    , m_pages(new QStackedWidget)
    , m_message(new QLabel)
    , m_prices(new QLabel)
    , m_table(new QTableWidget)
    , m_tabs(new QTabWidget)
    , m_allreduce(new ChartWidget)
    , m_cost(new ChartWidget)
    , m_placement(new ChartWidget)
    , m_priceTable(cluster::defaultPriceTable())
{
    buildForm();
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_prices->setWordWrap(true);
    const auto &p = m_priceTable;
    m_prices->setText(tr("Prices (%1, resources/prices/prices.json, assumptions): switch port %2, "
                         "copper cable %3, optical cable %4, board link %5.")
                          .arg(toQString(p.currency))
                          .arg(p.switchPort.usd)
                          .arg(p.copperCable.usd)
                          .arg(p.opticalCable.usd)
                          .arg(p.boardLink.usd));
    m_prices->setToolTip(toQString(
        "switch port: " + p.switchPort.source + "\ncopper cable: " + p.copperCable.source
        + "\noptical cable: " + p.opticalCable.source + "\nboard link: " + p.boardLink.source));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);

    // The fields on top; the table and the charts in tabs below, so that each gets the whole
    // width and height of a narrow dock.
    auto *form = new QFormLayout;
    form->addRow(tr("Topology"), m_kind);
    auto *fields = new QVBoxLayout;
    fields->addLayout(form);
    fields->addWidget(m_pages);
    auto *top = new QHBoxLayout;
    top->addLayout(fields);
    top->addStretch(1);

    auto *exportButton = new QPushButton(tr("Export Chart..."));
    exportButton->setToolTip(tr("The chart on show as PNG, PDF or SVG, or its data as CSV"));
    m_tabs->addTab(m_table, tr("Metrics"));
    m_tabs->addTab(m_allreduce, tr("All-reduce bandwidth"));
    m_tabs->addTab(m_cost, tr("Cost against bandwidth"));
    m_placementTab = m_tabs->addTab(m_placement, tr("Job placement"));
    m_tabs->setTabToolTip(m_placementTab,
                          tr("HammingMesh: utilisation against faulty boards for the three "
                             "placement policies on the HammingMesh paper's job queue"));
    m_tabs->setCornerWidget(exportButton);
    connect(m_tabs, &QTabWidget::currentChanged, exportButton,
            [this, exportButton] { exportButton->setEnabled(m_tabs->currentWidget() != m_table); });
    exportButton->setEnabled(false);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_message);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_prices);

    connect(m_kind, &QComboBox::currentIndexChanged, this, [this](int i) {
        // The kinds are in the pages' order, but torus and HyperX share the sizes page.
        m_pages->setCurrentIndex(std::min(i, m_pages->count() - 1));
        recompute();
    });
    connect(exportButton, &QPushButton::clicked, this, &ClusterView::exportWithDialog);
    // Points can lie anywhere on the cost chart: its legend gets two columns and room of its
    // own above the points, kept at every layout (a resize changes the legend's share).
    m_cost->legend->setWrap(4);
    m_cost->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    connect(m_cost, &QCustomPlot::afterLayout, this, &ClusterView::keepPointsBelowLegend);
    // The placement lines stay near the top: a legend of two rows keeps below them in a
    // short dock.
    m_placement->legend->setWrap(2);
    m_placement->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    recompute();
}

ClusterView::~ClusterView() = default;

void ClusterView::buildForm()
{
    for (const auto &[kind, label] : kKinds)
        m_kind->addItem(tr(label), QString::fromLatin1(kind));
    // Defaults: the HammingMesh paper's ~1k sizes (the generators' own defaults).
    const cluster::TopologySpec d;
    m_endpoints = spin(1, 4'000'000, d.endpoints);
    m_fatRadix = spin(1, 1024, d.radix);
    m_taper = spin(1, 1023, d.taper);
    m_levels = spin(0, 3, d.levels);
    m_levels->setSpecialValueText(tr("automatic"));
    m_servers = spin(1, 1'000'000, d.servers);
    m_perServer = spin(1, 1024, d.perServer);
    m_railRadix = spin(1, 1024, d.radix);
    m_p = spin(1, 1024, d.p);
    m_a = spin(1, 1024, d.a);
    m_h = spin(1, 1024, d.h);
    m_groups = spin(0, 1'000'000, d.groups);
    m_groups->setSpecialValueText(tr("largest (a·h+1)"));
    m_dims = new QLineEdit(toQString(d.dims));
    m_board = new QLineEdit(toQString(d.board));
    m_grid = new QLineEdit(toQString(d.grid));
    m_meshRadix = spin(1, 1024, d.radix);

    auto page = [this](std::initializer_list<std::pair<QString, QWidget *>> rows) {
        auto *w = new QWidget;
        auto *f = new QFormLayout(w);
        f->setContentsMargins(0, 0, 0, 0);
        for (const auto &[label, field] : rows)
            f->addRow(label, field);
        m_pages->addWidget(w);
    };
    page({{tr("Board (accelerators)"), m_board},
          {tr("Grid (boards)"), m_grid},
          {tr("Switch radix"), m_meshRadix}});
    page({{tr("Accelerators"), m_endpoints},
          {tr("Switch radix"), m_fatRadix},
          {tr("Taper (down:up at the leaf)"), m_taper},
          {tr("Levels"), m_levels}});
    page({{tr("Servers"), m_servers},
          {tr("Accelerators per server"), m_perServer},
          {tr("Switch radix"), m_railRadix}});
    page({{tr("Accelerators per router (p)"), m_p},
          {tr("Routers per group (a)"), m_a},
          {tr("Global links per router (h)"), m_h},
          {tr("Groups"), m_groups}});
    page({{tr("Sizes (e.g. 32x32 or 8x8x8)"), m_dims}});
    for (QSpinBox *s : {m_endpoints, m_fatRadix, m_taper, m_levels, m_servers, m_perServer,
                        m_railRadix, m_p, m_a, m_h, m_groups, m_meshRadix})
        connect(s, &QSpinBox::valueChanged, this, &ClusterView::recompute);
    for (QLineEdit *e : {m_dims, m_board, m_grid})
        connect(e, &QLineEdit::editingFinished, this, [this, e] {
            if (e->isModified()) {
                e->setModified(false);
                recompute();
            }
        });
}

cluster::TopologySpec ClusterView::spec() const
{
    cluster::TopologySpec s;
    s.kind = m_kind->currentData().toString().toStdString();
    s.endpoints = m_endpoints->value();
    s.taper = m_taper->value();
    s.levels = m_levels->value();
    s.servers = m_servers->value();
    s.perServer = m_perServer->value();
    s.p = m_p->value();
    s.a = m_a->value();
    s.h = m_h->value();
    s.groups = m_groups->value();
    s.dims = m_dims->text().trimmed().toStdString();
    s.board = m_board->text().trimmed().toStdString();
    s.grid = m_grid->text().trimmed().toStdString();
    s.radix = s.kind == "fattree" ? m_fatRadix->value()
              : s.kind == "rail"  ? m_railRadix->value()
                                  : m_meshRadix->value();
    return s;
}

void ClusterView::setSpec(const cluster::TopologySpec &s)
{
    m_filling = true;
    m_kind->setCurrentIndex(std::max(0, m_kind->findData(toQString(s.kind))));
    m_endpoints->setValue(s.endpoints);
    m_taper->setValue(s.taper);
    m_levels->setValue(s.levels);
    m_servers->setValue(s.servers);
    m_perServer->setValue(s.perServer);
    m_p->setValue(s.p);
    m_a->setValue(s.a);
    m_h->setValue(s.h);
    m_groups->setValue(s.groups);
    m_dims->setText(toQString(s.dims));
    m_board->setText(toQString(s.board));
    m_grid->setText(toQString(s.grid));
    for (QSpinBox *r : {m_fatRadix, m_railRadix, m_meshRadix})
        r->setValue(s.radix);
    m_filling = false;
    recompute();
}

bool ClusterView::showDesignCluster(const design::Design &design, const fabric::Analysis &analysis)
{
    if (!design.cluster) {
        m_message->setText(tr("This design has no cluster."));
        return false;
    }
    const design::Cluster &c = *design.cluster;
    for (const fabric::SystemReport &s : analysis.systems) {
        if (s.name != c.system)
            continue;
        try {
            setSpec(cluster::clusterTopologySpec(c.topology, c.nodes, int(s.gpus.size())));
            return true;
        } catch (const InputError &e) {
            m_message->setText(
                tr("The design's cluster cannot be shown: %1").arg(toQString(e.what())));
            return false;
        }
    }
    m_message->setText(tr("The design's cluster joins system \"%1\", which is not in the design.")
                           .arg(toQString(c.system)));
    return false;
}

QString ClusterView::message() const
{
    return m_message->text();
}

const cluster::TopologyReport *ClusterView::report() const
{
    return m_selected ? &m_selected->report : nullptr;
}

ChartWidget *ClusterView::currentChart() const
{
    if (m_tabs->currentWidget() == m_cost)
        return m_cost;
    return m_tabs->currentWidget() == m_placement ? m_placement : m_allreduce;
}

void ClusterView::recompute()
{
    if (m_filling)
        return;
    const int generation = ++m_generation;
    m_selected.reset();
    const cluster::TopologySpec s = spec();
    Result early{generation, m_scale, std::nullopt, std::nullopt, std::nullopt, {}};
    long long n = 0;
    try {
        n = cluster::acceleratorCount(s);
    } catch (const InputError &e) {
        early.error = toQString(e.what());
    }
    if (early.error.isEmpty() && n > kMaxAccelerators)
        early.error = tr("%1 accelerators: this view draws networks of up to %2 (the HammingMesh "
                         "paper's largest scale is about 16,000); composelab topo takes larger "
                         "ones.")
                          .arg(QLocale(QLocale::English).toString(n))
                          .arg(QLocale(QLocale::English).toString(kMaxAccelerators));
    if (!early.error.isEmpty()) {
        apply(early);
        return;
    }
    const int scale = cluster::referenceScale(n);
    const bool needReferences = !m_references.count(scale);
    const cluster::PriceTable prices = m_priceTable;
    m_message->setText(
        tr("Computing %1 accelerators...").arg(QLocale(QLocale::English).toString(n)));
    ++m_pending;
    QPointer<ClusterView> self(this);
    // Networks are plain values and the model functions are pure: the worker shares nothing
    // with the GUI thread but the copies it was given.
    QThreadPool::globalInstance()->start([self, s, generation, scale, needReferences, prices] {
        Result r{generation, scale, std::nullopt, std::nullopt, std::nullopt, {}};
        try {
            r.selected = cluster::LabelledReport{
                "this: " + cluster::shortLabel(s),
                cluster::reportOf(cluster::buildTopology(s), prices, cluster::chartMessageSizes())};
        } catch (const std::exception &e) {
            r.error = toQString(e.what());
        }
        if (s.kind == "hammingmesh" && r.error.isEmpty()) {
            try {
                r.placement = placementChartOf(s);
            } catch (const std::exception &) {
                // The topology was built, so its fields parse; without a chart the tab hides.
            }
        }
        try {
            if (needReferences)
                r.references = cluster::referenceReports(scale, prices);
        } catch (const std::exception &e) {
            r.error = toQString(e.what());
        }
        QMetaObject::invokeMethod(QCoreApplication::instance(), [self, r] {
            if (self) {
                --self->m_pending;
                self->apply(r);
            }
        });
    });
}

void ClusterView::apply(const Result &r)
{
    if (r.references)
        m_references[r.scale] = *r.references;
    if (r.generation != m_generation)
        return; // the fields changed since; a newer result is on its way
    m_scale = r.scale;
    m_selected = r.selected;
    m_placement->setChart(r.placement.value_or(charts::ChartData{}));
    m_tabs->setTabVisible(m_placementTab, r.placement.has_value());
    if (!r.error.isEmpty())
        m_message->setText(
            tr("<span style='color:#b00020'>%1</span>").arg(r.error.toHtmlEscaped()));
    else if (m_selected)
        m_message->setText(toQString(m_selected->report.description));
    showCurrent();
    Q_EMIT updated();
}

void ClusterView::showCurrent()
{
    std::vector<cluster::LabelledReport> families;
    if (const auto it = m_references.find(m_scale); it != m_references.end())
        families = it->second;
    // The table shows the chosen topology first; the charts draw it last, on top of the families
    // it may coincide with (Hx2Mesh and Hx4Mesh of one size share the two-ring bound), in the
    // palette's black.
    std::vector<cluster::LabelledReport> columns, all = families;
    if (m_selected) {
        columns.push_back(*m_selected);
        all.push_back(*m_selected);
    }
    columns.insert(columns.end(), families.begin(), families.end());
    fillMetricsTable(m_table, columns, m_priceTable.currency);
    const std::string size = QLocale(QLocale::English).toString(m_scale).toStdString();
    m_allreduce->setChart(charts::allreduceChart(
        all, "All-reduce bandwidth by message size, families at ~" + size + " accelerators"));
    // The curves rise to the right on log axes: the bottom right corner is the empty one (when
    // the legend is inside; with many families it stands beside the plot).
    if (!m_allreduce->legendOutside())
        m_allreduce->axisRect()->insetLayout()->setInsetAlignment(0,
                                                                  Qt::AlignBottom | Qt::AlignRight);
    m_allreduce->replot();
    m_cost->setChart(charts::costChart(
        all, "Network cost against all-reduce bandwidth, families at ~" + size + " accelerators",
        m_priceTable.currency));
}

void ClusterView::keepPointsBelowLegend()
{
    double low = std::numeric_limits<double>::infinity(), high = 0;
    for (const charts::Series &series : m_cost->chart().series) {
        for (double v : series.values) {
            if (v > 0) {
                low = std::min(low, v);
                high = std::max(high, v);
            }
        }
    }
    if (!(high > 0) || !m_cost->legend->visible())
        return;
    // The chart widget's own padding on a log axis, then the points' share of the height.
    low /= 1.25;
    high *= 1.25;
    const double plot = m_cost->axisRect()->height();
    const double legend = m_cost->legend->outerRect().height() + 12;
    const double share = plot > 2 * legend ? (plot - legend) / plot : 0.5;
    m_cost->yAxis->setRange(low, low * std::pow(high / low, 1 / share));
}

bool ClusterView::exportTo(const QString &path, int dpi, QString *error)
{
    ChartWidget *chart = currentChart();
    if (QFileInfo(path).suffix().toLower() != QLatin1String("csv"))
        return exportChart(*chart, path, dpi, error);
    try {
        writeFileAtomically(path.toStdString(), charts::toCsv(chart->chart()));
        return true;
    } catch (const std::exception &e) {
        if (error)
            *error = toQString(e.what());
        return false;
    }
}

void ClusterView::exportWithDialog()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export chart"), QStringLiteral("cluster.png"),
        tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg);;CSV table (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    // The resolution File > Export Chart last asked for.
    if (!exportTo(path, QSettings().value(QStringLiteral("exportDpi"), 300).toInt(), &error))
        m_message->setText(error);
}

} // namespace clab::views
