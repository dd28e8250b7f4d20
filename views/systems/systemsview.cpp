#include "views/systems/systemsview.h"

#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace clab::views {

namespace {

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

QTableWidgetItem *number(double value)
{
    auto *item = new QTableWidgetItem(QString::number(value, 'f', 1));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

QTableWidgetItem *text(const QString &value)
{
    auto *item = new QTableWidgetItem(value);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

// A light colour scale for the peer-to-peer matrix: fast pairs are darker. Cividis-like blue to
// yellow stays readable for colour-blind users.
QColor shade(double value, double maxValue)
{
    const double t = maxValue > 0 ? std::clamp(value / maxValue, 0.0, 1.0) : 0;
    return QColor::fromRgbF(0.98 - 0.45 * t, 0.98 - 0.25 * t, 0.85 + 0.1 * t);
}

} // namespace

SystemsView::SystemsView(QWidget *parent)
    : QWidget(parent)
    , m_systems(new QListWidget)
    , m_summary(new QLabel)
    , m_h2d(new QTableWidget)
    , m_p2p(new QTableWidget)
    , m_findings(new QListWidget)
    , m_predictions(new QTableWidget)
{
    m_predictions->setObjectName(QStringLiteral("predictions"));
    m_predictions->verticalHeader()->hide();
    m_systems->setObjectName(QStringLiteral("systems"));
    m_h2d->setObjectName(QStringLiteral("hostToDevice"));
    m_p2p->setObjectName(QStringLiteral("peerToPeer"));
    m_findings->setObjectName(QStringLiteral("findings"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *tabs = new QTabWidget;
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

    auto *findingsBox = new QWidget;
    auto *findingsLayout = new QVBoxLayout(findingsBox);
    findingsLayout->setContentsMargins(0, 0, 0, 0);
    findingsLayout->addWidget(new QLabel(tr("Findings")));
    findingsLayout->addWidget(m_findings);

    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(top);
    split->addWidget(findingsBox);
    split->setStretchFactor(0, 6);
    split->setSizes({600, 70});

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(split);

    connect(m_systems, &QListWidget::currentRowChanged, this, &SystemsView::showSystem);
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
    m_analysis = analysis;
    m_predictionRows = predictions;
    {
        const QSignalBlocker blocker(m_systems);
        m_systems->clear();
        for (const auto &s : m_analysis.systems)
            m_systems->addItem(
                tr("%1  (%2 GPUs, host %3)").arg(q(s.name)).arg(s.gpus.size()).arg(q(s.host)));
    }
    m_findings->clear();
    for (const auto &f : m_analysis.findings) {
        auto *item = new QListWidgetItem(
            (f.severity == design::Severity::Error ? tr("Error: ") : tr("Warning: "))
            + q(f.message));
        item->setForeground(f.severity == design::Severity::Error ? QColor(0xb0, 0x20, 0x20)
                                                                  : QColor(0x8a, 0x5a, 0x00));
        m_findings->addItem(item);
    }
    if (m_analysis.findings.empty())
        m_findings->addItem(tr("No design-rule findings."));
    if (m_systems->count() > 0)
        m_systems->setCurrentRow(std::min(previous, m_systems->count() - 1));
    else
        showSystem(-1);
}

void SystemsView::showSystem(int row)
{
    m_h2d->clear();
    m_p2p->clear();
    m_h2d->setRowCount(0);
    m_p2p->setRowCount(0);
    m_p2p->setColumnCount(0);
    if (row < 0 || row >= static_cast<int>(m_analysis.systems.size())) {
        m_summary->setText(tr("No composed system in this design."));
        return;
    }
    const fabric::SystemReport &s = m_analysis.systems[std::size_t(row)];
    QString summary = tr("<b>%1</b> on host %2: %3 GPU(s), %4 drive(s), %5 NIC(s).")
                          .arg(q(s.name).toHtmlEscaped(), q(s.host).toHtmlEscaped())
                          .arg(s.gpus.size())
                          .arg(s.drives.size())
                          .arg(s.nics.size());
    for (const auto &c : s.sharing)
        summary += tr("<br>Shares %1 with other systems: loses %2 GB/s when all are busy.")
                       .arg(q(c.part).toHtmlEscaped())
                       .arg(c.lostGBps, 0, 'f', 1);
    m_summary->setText(summary);

    const QStringList h2dHeaders = {tr("Device"), tr("Alone (GB/s)"), tr("System busy (GB/s)"),
                                    tr("All systems busy (GB/s)"), tr("Limited by")};
    m_h2d->setColumnCount(int(h2dHeaders.size()));
    m_h2d->setHorizontalHeaderLabels(h2dHeaders);
    m_h2d->setRowCount(int(s.h2d.size()));
    for (int i = 0; i < int(s.h2d.size()); ++i) {
        const auto &h = s.h2d[std::size_t(i)];
        m_h2d->setItem(i, 0, text(q(h.device)));
        m_h2d->setItem(i, 1, number(h.aloneGBps));
        m_h2d->setItem(i, 2, number(h.concurrentGBps));
        m_h2d->setItem(i, 3, number(h.allSystemsGBps));
        m_h2d->setItem(i, 4, text(q(h.bottleneck)));
    }
    m_h2d->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_h2d->horizontalHeader()->setStretchLastSection(true);

    const int n = int(s.gpus.size());
    m_p2p->setRowCount(n);
    m_p2p->setColumnCount(n);
    QStringList names;
    for (const auto &g : s.gpus)
        names << q(g);
    m_p2p->setHorizontalHeaderLabels(names);
    m_p2p->setVerticalHeaderLabels(names);
    double best = 0;
    for (const auto &p : s.p2p)
        best = std::max(best, p.GBps);
    std::size_t k = 0;
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            if (i == j) {
                m_p2p->setItem(i, j, text(QStringLiteral("-")));
                continue;
            }
            const auto &p = s.p2p[k++];
            QTableWidgetItem *item = number(p.GBps);
            item->setBackground(shade(p.GBps, best));
            item->setForeground(Qt::black);
            item->setToolTip(
                tr("%1 to %2: %3, %4 GB/s, %5 us")
                    .arg(q(p.from), q(p.to), QString::fromLatin1(fabric::routeKindName(p.kind)))
                    .arg(p.GBps, 0, 'f', 1)
                    .arg(p.latencyUs, 0, 'f', 2));
            m_p2p->setItem(i, j, item);
        }
    }
    m_p2p->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    showPredictions(row);
}

void SystemsView::showPredictions(int row)
{
    m_predictions->clear();
    // Minutes for the time to train and its parts (they add up to it).
    const QStringList headers
        = {tr("Benchmark"), tr("Batch"), tr("Step (ms)"), tr("Samples/s"), tr("Train (min)"),
           tr("Compute"),   tr("Comm."), tr("Input"),     tr("Eval"),      tr("Memory/GPU")};
    m_predictions->setColumnCount(int(headers.size()));
    m_predictions->setHorizontalHeaderLabels(headers);
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
        const QString name = q(rows[std::size_t(i)].benchmark);
        QTableWidgetItem *bench = text(name.section(QStringLiteral(" ("), 0, 0));
        bench->setToolTip(name);
        m_predictions->setItem(i, 0, bench);
        m_predictions->setItem(i, 1, fixedItem(p.globalBatch, 0));
        m_predictions->setItem(i, 2, fixedItem(p.stepS * 1e3, 1));
        m_predictions->setItem(i, 3, fixedItem(p.throughput, 0));
        if (p.timeToTrainMin) {
            m_predictions->setItem(i, 4, fixedItem(*p.timeToTrainMin, 1));
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
            notes << q(n);
        memory->setToolTip(notes.join(QLatin1Char('\n')));
        m_predictions->setItem(i, 9, memory);
    }
    m_predictions->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

} // namespace clab::views
