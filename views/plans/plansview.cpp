#include "views/plans/plansview.h"

#include "catalog/catalog.h"
#include "design/design.h"
#include "fabric/analysis.h"
#include "llm/shape.h"
#include "perf/platform.h"
#include "views/common/qtext.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace clab::views {

namespace {

constexpr int kShown = 20; // plans in the table
const QString kBenchmarkKey = QStringLiteral("plans/benchmark");
const QString kFusedKey = QStringLiteral("plans/fusedAttention");

QString seconds(double s)
{
    return toQString(llm::readableSeconds(s, "µs"));
}

QTableWidgetItem *cell(const QString &text, bool number = true)
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    if (number)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

PlansView::PlansView(QWidget *parent)
    : QWidget(parent)
    , m_system(new QComboBox)
    , m_benchmark(new QComboBox)
    , m_nodes(new QSpinBox)
    , m_batch(new QSpinBox)
    , m_fused(new QCheckBox(tr("Fused attention")))
    , m_summary(new QLabel)
    , m_table(new QTableWidget)
{
    for (const llm::Shape &s : llm::presets())
        m_benchmark->addItem(toQString(s.name), toQString(s.name));
    m_nodes->setRange(1, 4096);
    m_nodes->setToolTip(tr("Copies of the system joined by its network"));
    m_batch->setRange(0, 1'000'000);
    m_batch->setSpecialValueText(tr("published"));
    m_batch->setToolTip(tr("Sequences a step; \"published\" takes the model's published batch"));
    m_fused->setToolTip(tr("FlashAttention: no attention scores kept or moved through memory"));
    QSettings settings;
    const int at = m_benchmark->findData(settings.value(kBenchmarkKey).toString());
    m_benchmark->setCurrentIndex(
        at >= 0 ? at : std::max(0, m_benchmark->findData(QStringLiteral("llama2-7b"))));
    m_fused->setChecked(settings.value(kFusedKey, false).toBool());

    auto *controls = new QHBoxLayout;
    const auto labelled = [&](const QString &text, QWidget *w) {
        auto *label = new QLabel(text);
        label->setBuddy(w);
        controls->addWidget(label);
        controls->addWidget(w);
    };
    labelled(tr("S&ystem"), m_system);
    labelled(tr("&Model"), m_benchmark);
    labelled(tr("&Nodes"), m_nodes);
    labelled(tr("Global &batch"), m_batch);
    controls->addWidget(m_fused);
    controls->addStretch();

    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    const QStringList headers
        = {tr("Plan"),     tr("Step"),          tr("MFU"),         tr("Memory"),
           tr("Matrices"), tr("Element-wise"),  tr("Tensor comm"), tr("Pipeline comm"),
           tr("Bubble"),   tr("Data-parallel"), tr("Optimizer")};
    m_table->setColumnCount(int(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->verticalHeader()->setVisible(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);

    const auto again = [this] { rank(); };
    connect(m_system, &QComboBox::currentIndexChanged, this, again);
    connect(m_benchmark, &QComboBox::currentIndexChanged, this, [this] {
        QSettings().setValue(kBenchmarkKey, m_benchmark->currentData());
        rank();
    });
    connect(m_nodes, &QSpinBox::valueChanged, this, again);
    connect(m_batch, &QSpinBox::valueChanged, this, again);
    connect(m_fused, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue(kFusedKey, on);
        rank();
    });
}

void PlansView::setDesign(const design::Design &design, const fabric::Analysis &analysis)
{
    m_design = &design;
    m_analysis = &analysis;
    const QString current = m_system->currentText();
    {
        const QSignalBlocker block(m_system);
        m_system->clear();
        for (const fabric::SystemReport &s : analysis.systems)
            m_system->addItem(toQString(s.name));
        int at = m_system->findText(current);
        if (at < 0) { // the first system with a GPU
            for (std::size_t i = 0; i < analysis.systems.size() && at < 0; ++i)
                if (!analysis.systems[i].gpus.empty())
                    at = int(i);
        }
        m_system->setCurrentIndex(std::max(at, 0));
    }
    rank();
}

void PlansView::selectSystem(int index)
{
    if (index >= 0 && index < m_system->count())
        m_system->setCurrentIndex(index);
}

void PlansView::setBenchmark(const QString &presetId)
{
    const int at = m_benchmark->findData(presetId);
    if (at >= 0)
        m_benchmark->setCurrentIndex(at);
}

void PlansView::setGlobalBatch(int batch)
{
    m_batch->setValue(batch);
}

void PlansView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale)
        rank();
}

void PlansView::rank()
{
    // Every canvas edit reaches here; a hidden dock ranks when it is next shown.
    m_stale = !isVisible();
    if (m_stale)
        return;
    try {
        rankOrThrow();
    } catch (const std::exception &e) { // a preset file or part the model cannot read
        m_shown.clear();
        m_table->setRowCount(0);
        m_summary->setText(tr("Cannot plan: %1").arg(QString::fromUtf8(e.what())));
    }
}

void PlansView::rankOrThrow()
{
    m_shown.clear();
    m_table->setRowCount(0);
    const int index = m_system->currentIndex();
    if (!m_design || !m_analysis || index < 0 || index >= int(m_analysis->systems.size())) {
        m_summary->setText(tr("No composed system."));
        return;
    }
    const catalog::Catalog &cat = catalog::Catalog::builtin();
    const perf::Platform platform
        = perf::platformOf(*m_design, *m_analysis, std::size_t(index), cat);
    const QString name = m_system->currentText();
    if (!platform.gpu) {
        m_summary->setText(tr("%1 has no GPU: compose GPUs to it to plan a model.").arg(name));
        return;
    }
    const long long nodes = m_nodes->value();
    if (nodes > 1 && platform.networkGBps <= 0) {
        m_summary->setText(
            tr("%1 has no NIC and no network path to another system, so %2 copies of "
               "it cannot be joined: compose a NIC to it, or plan on one node.")
                .arg(name)
                .arg(nodes));
        return;
    }
    const llm::Shape shape = llm::parseShape(m_benchmark->currentData().toString().toStdString());
    const llm::Hardware hw = llm::hardwareOf(platform, nodes);
    const long long batch = m_batch->value() > 0 ? m_batch->value() : shape.globalBatch;
    if (batch <= 0) {
        m_summary->setText(
            tr("%1 has no published global batch: set Global batch.").arg(toQString(shape.name)));
        return;
    }
    const llm::Attention attention
        = m_fused->isChecked() ? llm::Attention::Fused : llm::Attention::Unfused;
    llm::Search found = llm::searchPlans(shape, hw, batch, attention);
    QString text = tr("%1 on %2 × %3 (%4 a node), global batch %5: %6 valid plans, %7 do not fit "
                      "in memory.")
                       .arg(toQString(shape.name))
                       .arg(hw.gpus)
                       .arg(toQString(hw.gpu))
                       .arg(hw.gpusPerNode)
                       .arg(batch)
                       .arg(found.valid)
                       .arg(found.tooLarge);
    if (found.valid == 0)
        text += QLatin1Char(' ')
                + tr("No plan meets the rules: the data-parallel replicas (GPUs / (tensor × "
                     "pipeline)) must divide the global batch; try a batch that %1 divides.")
                      .arg(hw.gpus);
    else if (found.plans.empty())
        text += QLatin1Char(' ')
                + tr("No plan fits: add GPUs or nodes, or choose a larger GPU or a smaller batch.");
    for (const std::string &note : hw.notes)
        text += QLatin1Char('\n') + toQString(note);
    m_summary->setText(text);
    if (found.plans.size() > std::size_t(kShown))
        found.plans.resize(kShown);
    m_shown = std::move(found.plans);
    m_table->setRowCount(int(m_shown.size()));
    for (int r = 0; r < int(m_shown.size()); ++r) {
        const llm::Evaluated &e = m_shown[std::size_t(r)];
        const llm::StepTime &t = e.time;
        const QList<QTableWidgetItem *> row
            = {cell(toQString(llm::describe(e.plan)), false),
               cell(seconds(t.total)),
               cell(QString::number(100 * t.mfu, 'f', 1) + QStringLiteral(" %")),
               cell(QString::number(e.memory.total() / double(1ull << 30), 'f', 1)
                    + QStringLiteral(" / ")
                    + QString::number(e.memory.capacity / double(1ull << 30), 'f', 0)
                    + QStringLiteral(" GiB")),
               cell(seconds(t.compute)),
               cell(seconds(t.elementwise)),
               cell(seconds(t.tensorComm)),
               cell(seconds(t.pipelineComm)),
               cell(seconds(t.bubble)),
               cell(seconds(t.dataParallel)),
               cell(seconds(t.optimizer))};
        for (int c = 0; c < int(row.size()); ++c)
            m_table->setItem(r, c, row[c]);
    }
}

} // namespace clab::views
