#include "views/systems/systemsview.h"

#include "views/systems/peermatrixmodel.h"
#include "views/common/qtext.h"

#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPainter>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace clab::views {

namespace {

QTableWidgetItem *number(double value)
{
    auto *item = new QTableWidgetItem(QString::number(value, 'f', 1));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

// "0.96", or "0.69 ⚠" in a warning colour when the model is off by more than 15 %.
QTableWidgetItem *ratioItem(double model, double measured)
{
    const bool off = fabric::offByMoreThanTolerance(model, measured);
    auto *item = new QTableWidgetItem(QString::number(model / measured, 'f', 2)
                                      + (off ? QStringLiteral(" \u26A0") : QString()));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    if (off) {
        item->setForeground(QColor(0xb3, 0x58, 0x06));
        item->setToolTip(QObject::tr("The model is %1 % off the measurement (more than 15 %).")
                             .arg(std::abs(model / measured - 1) * 100, 0, 'f', 0));
    }
    return item;
}

QTableWidgetItem *text(const QString &value)
{
    auto *item = new QTableWidgetItem(value);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

// Paints a time-to-train breakdown (compute, communication, input, evaluation minutes, stored
// as a list in the cell's UserRole) as one stacked bar scaled to the column's longest time.
class BreakdownDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override
    {
        QStyledItemDelegate::paint(painter, option, QModelIndex());
        const QVariantList parts = index.data(Qt::UserRole).toList();
        const double scale = index.data(Qt::UserRole + 1).toDouble();
        if (parts.isEmpty() || scale <= 0)
            return;
        static const QColor colours[]
            = {{0x4a, 0x78, 0xb5}, {0xc0, 0x6a, 0x2a}, {0x3a, 0x9a, 0x3a}, {0x94, 0x67, 0xbd}};
        const QRectF r = QRectF(option.rect).adjusted(3, 4, -3, -4);
        double x = r.left();
        painter->save();
        for (int i = 0; i < parts.size() && i < 4; ++i) {
            const double w = r.width() * parts[i].toDouble() / scale;
            painter->fillRect(QRectF(x, r.top(), w, r.height()), colours[i]);
            x += w;
        }
        painter->restore();
    }
};

QString intervalHelp()
{
    return QObject::tr("80 % of outcomes fall in this range: the spread of the model's errors on "
                       "MLPerf results it was not fitted on, wider where it extrapolates (marked "
                       "with *)");
}

// The time to train's 80 % interval, as "lo-hi".
QTableWidgetItem *intervalItem(const perf::Prediction &p)
{
    auto *item = new QTableWidgetItem;
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    if (p.timeToTrainMin)
        item->setText(QStringLiteral("%1-%2")
                          .arg(p.intervalMin[0], 0, 'f', 1)
                          .arg(p.intervalMin[1], 0, 'f', 1));
    else
        item->setText(QStringLiteral("%1-%2 /s")
                          .arg(p.intervalThroughput[0], 0, 'f', 0)
                          .arg(p.intervalThroughput[1], 0, 'f', 0));
    return item;
}

// A prediction the model makes beyond what it was calibrated on: a star and the reasons.
void markExtrapolation(QTableWidgetItem *item, const perf::Prediction &p)
{
    if (p.extrapolation.empty())
        return;
    item->setText(item->text() + QStringLiteral(" *"));
    QStringList reasons;
    for (const std::string &e : p.extrapolation)
        reasons << QString::fromStdString(e);
    item->setToolTip(QObject::tr("Extrapolation, so the interval is wider:\n")
                     + reasons.join(QLatin1Char('\n')));
}

} // namespace

SystemsView::SystemsView(QWidget *parent)
    : QWidget(parent)
    , m_systems(new QListWidget)
    , m_summary(new QLabel)
    , m_h2d(new QTableWidget)
    , m_p2p(new QTableView)
    , m_peers(new PeerMatrixModel(this))
    , m_overview(new QTableWidget)
    , m_predictions(new QTableWidget)
{
    m_predictions->setObjectName(QStringLiteral("predictions"));
    m_predictions->verticalHeader()->hide();
    m_systems->setObjectName(QStringLiteral("systems"));
    m_h2d->setObjectName(QStringLiteral("hostToDevice"));
    m_p2p->setObjectName(QStringLiteral("peerToPeer"));
    m_p2p->setModel(m_peers);
    m_p2p->horizontalHeader()->setDefaultSectionSize(
        m_p2p->fontMetrics().horizontalAdvance(QStringLiteral("0000.0")) + 12);
    m_overview->setObjectName(QStringLiteral("overview"));
    m_overview->verticalHeader()->hide();
    m_overview->setItemDelegateForColumn(5, new BreakdownDelegate(m_overview));
    m_overview->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *tabs = new QTabWidget;
    tabs->addTab(m_overview, tr("All systems"));
    tabs->addTab(m_h2d, tr("Host to device"));
    tabs->addTab(m_p2p, tr("Peer to peer"));
    tabs->addTab(m_predictions, tr("Predictions"));

    auto *right = new QWidget;
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_summary);
    rightLayout->addWidget(tabs, 1);

    auto *top = new QSplitter(Qt::Horizontal);
    top->addWidget(m_systems);
    top->addWidget(right);
    top->setStretchFactor(1, 3);
    top->setSizes({340, 760});
    m_h2d->verticalHeader()->hide();
    m_h2d->setAlternatingRowColors(true);
    m_h2d->setSelectionBehavior(QAbstractItemView::SelectRows);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(top);

    connect(m_systems, &QListWidget::currentRowChanged, this, &SystemsView::showSystem);
    connect(m_overview, &QTableWidget::cellClicked, this, [this](int row, int) {
        if (QTableWidgetItem *item = m_overview->item(row, 0))
            selectSystem(item->data(Qt::UserRole).toInt());
    });
}

// The matrix model points into m_analysis, which dies before QWidget's destructor closes the
// window and deletes the table view, and a closing view may still ask the model for cells.
SystemsView::~SystemsView()
{
    m_peers->setSystem(nullptr);
}

int SystemsView::systemCount() const
{
    return m_systems->count();
}

void SystemsView::selectSystem(int row)
{
    m_systems->setCurrentRow(row);
}

void SystemsView::setAnalysis(const fabric::Analysis &analysis,
                              const std::vector<std::vector<PredictionRow>> &predictions)
{
    const int previous = std::max(0, m_systems->currentRow());
    m_peers->setSystem(nullptr); // it points into the analysis about to be replaced
    m_analysis = analysis;
    m_predictionRows = predictions;
    {
        const QSignalBlocker blocker(m_systems);
        m_systems->clear();
        for (const auto &s : m_analysis.systems)
            m_systems->addItem(tr("%1  (%2 GPUs, host %3)")
                                   .arg(toQString(s.name))
                                   .arg(s.gpus.size())
                                   .arg(toQString(s.host)));
    }
    showOverview();
    if (m_systems->count() > 0)
        m_systems->setCurrentRow(std::min(previous, m_systems->count() - 1));
    else
        showSystem(-1);
}

void SystemsView::showSystem(int row)
{
    m_h2d->clear();
    m_h2d->setRowCount(0);
    m_peers->setSystem(nullptr);
    if (row < 0 || row >= static_cast<int>(m_analysis.systems.size())) {
        m_summary->setText(tr("No composed system in this design."));
        return;
    }
    const fabric::SystemReport &s = m_analysis.systems[std::size_t(row)];
    QString summary = tr("<b>%1</b> on host %2: %3 GPU(s), %4 drive(s), %5 NIC(s).")
                          .arg(toQString(s.name).toHtmlEscaped(), toQString(s.host).toHtmlEscaped())
                          .arg(s.gpus.size())
                          .arg(s.drives.size())
                          .arg(s.nics.size());
    for (const auto &c : s.sharing)
        summary += tr("<br>Shares %1 with other systems: loses %2 GB/s when all are busy.")
                       .arg(toQString(c.part).toHtmlEscaped())
                       .arg(c.lostGBps, 0, 'f', 1);
    if (s.measuredBusGBps) {
        const bool off = fabric::offByMoreThanTolerance(s.ringGBps, *s.measuredBusGBps);
        summary += tr("<br>Ring all-reduce bus bandwidth: model %1 GB/s, measured %2 GB/s (%3); "
                      "model / measured %4%5")
                       .arg(s.ringGBps, 0, 'f', 1)
                       .arg(*s.measuredBusGBps, 0, 'f', 1)
                       .arg(toQString(s.measuredBusBy).toHtmlEscaped())
                       .arg(s.ringGBps / *s.measuredBusGBps, 0, 'f', 2)
                       .arg(off ? tr(" <b>(off by more than 15 %)</b>") : QString());
    }
    m_summary->setText(summary);

    // The real machine's values, where the design has them, right beside the model's alone value.
    const bool measured = std::any_of(s.h2d.begin(), s.h2d.end(),
                                      [](const fabric::HostToDevice &h) { return h.measuredGBps; });
    QStringList h2dHeaders = {tr("Device"), tr("Alone (GB/s)")};
    if (measured)
        h2dHeaders << tr("Measured (GB/s)") << tr("Model / measured");
    h2dHeaders << tr("System busy (GB/s)") << tr("All systems busy (GB/s)") << tr("Limited by");
    const int shift = measured ? 2 : 0;
    m_h2d->setColumnCount(int(h2dHeaders.size()));
    m_h2d->setHorizontalHeaderLabels(h2dHeaders);
    m_h2d->setRowCount(int(s.h2d.size()));
    for (int i = 0; i < int(s.h2d.size()); ++i) {
        const auto &h = s.h2d[std::size_t(i)];
        m_h2d->setItem(i, 0, text(toQString(h.device)));
        m_h2d->setItem(i, 1, number(h.aloneGBps));
        if (h.measuredGBps) {
            m_h2d->setItem(i, 2, number(*h.measuredGBps));
            m_h2d->item(i, 2)->setToolTip(toQString(h.measuredBy));
            m_h2d->setItem(i, 3, ratioItem(h.aloneGBps, *h.measuredGBps));
        }
        m_h2d->setItem(i, 2 + shift, number(h.concurrentGBps));
        m_h2d->setItem(i, 3 + shift, number(h.allSystemsGBps));
        m_h2d->setItem(i, 4 + shift, text(toQString(h.bottleneck)));
    }
    m_h2d->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_h2d->horizontalHeader()->setStretchLastSection(true);

    m_peers->setSystem(&s);
    // Fitting every column to its contents asks for every cell's size: fine for a server's 8 or
    // 16 GPUs, not for a pool of a thousand, which gets columns as wide as the widest number.
    if (s.gpus.size() <= 64)
        m_p2p->resizeColumnsToContents();
    showPredictions(row);
}

void SystemsView::showOverview()
{
    m_overview->clear();
    const QStringList headers
        = {tr("System"),        tr("Benchmark"), tr("Train (min)"),
           tr("80 % interval"), tr("Samples/s"), tr("Compute | comm. | input | eval")};
    m_overview->setColumnCount(int(headers.size()));
    m_overview->setHorizontalHeaderLabels(headers);
    m_overview->horizontalHeaderItem(3)->setToolTip(intervalHelp());
    m_overview->horizontalHeaderItem(5)->setToolTip(
        tr("Time to train split into compute (blue), exposed communication (orange), input "
           "stalls (green) and evaluation (purple), on one scale for all rows."));
    int rows = 0;
    double longest = 0;
    for (const auto &system : m_predictionRows)
        for (const PredictionRow &r : system) {
            ++rows;
            longest = std::max(longest, r.prediction.timeToTrainMin.value_or(0));
        }
    m_overview->setRowCount(rows);
    int row = 0;
    for (std::size_t s = 0; s < m_predictionRows.size() && s < m_analysis.systems.size(); ++s) {
        for (const PredictionRow &r : m_predictionRows[s]) {
            const perf::Prediction &p = r.prediction;
            QTableWidgetItem *name = text(toQString(m_analysis.systems[s].name));
            name->setData(Qt::UserRole, int(s));
            m_overview->setItem(row, 0, name);
            m_overview->setItem(row, 1,
                                text(toQString(r.benchmark).section(QStringLiteral(" ("), 0, 0)));
            QTableWidgetItem *ttt = number(p.timeToTrainMin.value_or(0));
            if (!p.timeToTrainMin)
                ttt->setText(tr("n/a"));
            markExtrapolation(ttt, p);
            m_overview->setItem(row, 2, ttt);
            m_overview->setItem(row, 3, intervalItem(p));
            QTableWidgetItem *rate = number(p.throughput);
            rate->setText(QString::number(p.throughput, 'f', 0));
            m_overview->setItem(row, 4, rate);
            QTableWidgetItem *bar = text({});
            if (p.timeToTrainMin) {
                bar->setData(Qt::UserRole,
                             QVariantList{p.breakdownMin.compute, p.breakdownMin.communication,
                                          p.breakdownMin.input, p.breakdownMin.evaluation});
                bar->setData(Qt::UserRole + 1, longest);
                bar->setToolTip(tr("compute %1, communication %2, input %3, evaluation %4 min")
                                    .arg(p.breakdownMin.compute, 0, 'f', 1)
                                    .arg(p.breakdownMin.communication, 0, 'f', 1)
                                    .arg(p.breakdownMin.input, 0, 'f', 1)
                                    .arg(p.breakdownMin.evaluation, 0, 'f', 1));
            }
            m_overview->setItem(row, 5, bar);
            ++row;
        }
    }
    m_overview->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_overview->horizontalHeader()->setStretchLastSection(true);
}

void SystemsView::showPredictions(int row)
{
    m_predictions->clear();
    // Minutes for the time to train and its parts (they add up to it).
    const QStringList headers
        = {tr("Benchmark"),    tr("Batch"),      tr("Step (ms)"),     tr("Samples/s"),
           tr("Train (min)"),  tr("Compute"),    tr("Comm."),         tr("Input"),
           tr("Eval"),         tr("Memory/GPU"), tr("80 % interval"), tr("% of peak"),
           tr("Energy (kWh)"), tr("Cost")};
    m_predictions->setColumnCount(int(headers.size()));
    m_predictions->setHorizontalHeaderLabels(headers);
    m_predictions->horizontalHeaderItem(10)->setToolTip(intervalHelp());
    m_predictions->horizontalHeaderItem(11)->setToolTip(
        tr("Model FLOPs per second over the dense peak of the precision, on every GPU"));
    if (row < 0 || row >= int(m_predictionRows.size())) {
        m_predictions->setRowCount(0);
        return;
    }
    const auto &rows = m_predictionRows[std::size_t(row)];
    m_predictions->setRowCount(int(rows.size()));
    for (int i = 0; i < int(rows.size()); ++i) {
        const perf::Prediction &p = rows[std::size_t(i)].prediction;
        auto fixedItem = [](double v, int decimals) {
            QTableWidgetItem *item = number(v);
            item->setText(QString::number(v, 'f', decimals));
            return item;
        };
        const QString name = toQString(rows[std::size_t(i)].benchmark);
        QTableWidgetItem *bench = text(name.section(QStringLiteral(" ("), 0, 0));
        bench->setToolTip(name);
        m_predictions->setItem(i, 0, bench);
        QTableWidgetItem *batch = fixedItem(p.globalBatch, 0);
        if (p.batchChosen)
            batch->setToolTip(tr("Chosen: the batch of the convergence table that trains "
                                 "fastest on this system"));
        m_predictions->setItem(i, 1, batch);
        m_predictions->setItem(i, 2, fixedItem(p.stepS * 1e3, 1));
        m_predictions->setItem(i, 3, fixedItem(p.throughput, 0));
        if (p.timeToTrainMin) {
            QTableWidgetItem *ttt = fixedItem(*p.timeToTrainMin, 1);
            markExtrapolation(ttt, p);
            m_predictions->setItem(i, 4, ttt);
            m_predictions->setItem(i, 5, fixedItem(p.breakdownMin.compute, 1));
            m_predictions->setItem(i, 6, fixedItem(p.breakdownMin.communication, 1));
            m_predictions->setItem(i, 7, fixedItem(p.breakdownMin.input, 1));
            m_predictions->setItem(i, 8, fixedItem(p.breakdownMin.evaluation, 1));
        }
        QTableWidgetItem *memory = text(
            p.fits
                ? tr("%1 of %2 GB").arg(p.requiredGB, 0, 'f', 1).arg(p.availableGB)
                : tr("does not fit: %1 of %2 GB").arg(p.requiredGB, 0, 'f', 0).arg(p.availableGB));
        if (!p.fits)
            memory->setForeground(QColor(0xb0, 0x20, 0x20));
        QStringList notes;
        for (const auto &n : p.notes)
            notes << toQString(n);
        memory->setToolTip(notes.join(QLatin1Char('\n')));
        m_predictions->setItem(i, 9, memory);
        m_predictions->setItem(i, 10, intervalItem(p));
        m_predictions->setItem(i, 11, fixedItem(p.utilization * 100, 1));
        if (p.energy) {
            const perf::EnergyCost &e = *p.energy;
            const QString run
                = e.basis == "epoch" ? tr("one epoch") : tr("the run to the quality target");
            QString help = tr("Over %1: GPUs %2 kW, other parts %3 kW, %4 kW with the facility "
                              "(PUE). Cost: hardware %5 and electricity %6, at the assumed "
                              "prices of resources/prices/parts.json or the user's copy.")
                               .arg(run)
                               .arg(e.gpuW / 1e3, 0, 'f', 2)
                               .arg(e.otherW / 1e3, 0, 'f', 2)
                               .arg(e.facilityW / 1e3, 0, 'f', 2)
                               .arg(e.hardwareUsd, 0, 'f', 2)
                               .arg(e.energyUsd, 0, 'f', 2);
            for (const auto &u : e.unknown)
                help += tr("\nNot counted: %1").arg(toQString(u));
            QTableWidgetItem *kwh = fixedItem(e.kwh, 2);
            kwh->setToolTip(help);
            m_predictions->setItem(i, 12, kwh);
            QTableWidgetItem *usd = fixedItem(e.usd(), 2);
            usd->setText(
                tr("%1 %2").arg(e.usd(), 0, 'f', 2).arg(toQString(perf::partPrices().currency)));
            usd->setToolTip(help);
            m_predictions->setItem(i, 13, usd);
        }
    }
    m_predictions->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

} // namespace clab::views
