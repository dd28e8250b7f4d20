#include "views/experiments/experimentsview.h"

#include "views/experiments/deleterunscommand.h"
#include "views/experiments/runtablemodel.h"

#include "store/runquery.h"
#include "store/sqlite.h"
#include "views/common/qtext.h"

#include <QAction>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

namespace clab::views {

ExperimentsView::ExperimentsView(QWidget *parent)
    : QWidget(parent)
    , m_undoStack(new QUndoStack(this))
    , m_model(new RunTableModel(this))
    , m_benchmark(new QComboBox)
    , m_system(new QLineEdit)
    , m_gpus(new QSpinBox)
    , m_source(new QLineEdit)
    , m_kind(new QComboBox)
    , m_search(new QLineEdit)
    , m_table(new QTableView)
    , m_count(new QLabel)
    , m_error(new QLabel)
    , m_provenance(new QPlainTextEdit)
    , m_typing(new QTimer(this))
{
    m_benchmark->setObjectName(QStringLiteral("benchmark"));
    m_system->setObjectName(QStringLiteral("system"));
    m_gpus->setObjectName(QStringLiteral("gpus"));
    m_source->setObjectName(QStringLiteral("source"));
    m_kind->setObjectName(QStringLiteral("kind"));
    m_search->setObjectName(QStringLiteral("search"));
    m_table->setObjectName(QStringLiteral("runs"));
    m_error->setObjectName(QStringLiteral("error"));
    m_provenance->setObjectName(QStringLiteral("provenance"));

    m_benchmark->setMinimumContentsLength(14);
    m_benchmark->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_system->setPlaceholderText(tr("accelerator or system"));
    m_system->setClearButtonEnabled(true);
    m_gpus->setRange(0, 65536);
    m_gpus->setSpecialValueText(tr("any"));
    m_source->setPlaceholderText(tr("part of the file path"));
    m_source->setClearButtonEnabled(true);
    m_kind->addItem(tr("Measured and predicted"), int(store::RunKind::All));
    m_kind->addItem(tr("Measured"), int(store::RunKind::Measured));
    m_kind->addItem(tr("Predicted"), int(store::RunKind::Predicted));
    m_search->setPlaceholderText(tr("Search system, benchmark, framework, tags"));
    m_search->setClearButtonEnabled(true);

    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("color: #a40000"));
    m_error->hide();

    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    // Fixed row heights and no per-row header: the view never measures rows it does not show.
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    const int widths[] = {170, 130, 110, 80, 80, 90, 80, 100, 130, 100};
    for (int c = 0; c < RunTableModel::ColumnCount; ++c)
        m_table->setColumnWidth(c, widths[c]);
    // No indicator until a header is clicked: the first order is the import order.
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_table->setSortingEnabled(true);

    auto *remove = new QAction(tr("Delete runs"), this);
    remove->setShortcut(QKeySequence::Delete);
    remove->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_table->addAction(remove);
    connect(remove, &QAction::triggered, this, &ExperimentsView::deleteSelected);
    auto *removeButton = new QPushButton(tr("Delete selected"));
    removeButton->setObjectName(QStringLiteral("delete"));
    connect(removeButton, &QPushButton::clicked, this, &ExperimentsView::deleteSelected);

    m_provenance->setReadOnly(true);
    m_provenance->setPlaceholderText(tr("Select a run to see where it came from."));
    m_provenance->setMaximumBlockCount(200);

    auto *filters = new QHBoxLayout;
    const auto addFilter = [filters](const QString &label, QWidget *w, int stretch) {
        auto *l = new QLabel(label);
        l->setBuddy(w);
        filters->addWidget(l);
        filters->addWidget(w, stretch);
    };
    addFilter(tr("&Benchmark"), m_benchmark, 2);
    addFilter(tr("S&ystem"), m_system, 2);
    addFilter(tr("&GPUs"), m_gpus, 0);
    addFilter(tr("S&ource"), m_source, 2);
    filters->addWidget(m_kind, 1);

    auto *searchRow = new QHBoxLayout;
    searchRow->addWidget(m_search, 1);
    searchRow->addWidget(m_count);
    searchRow->addWidget(removeButton);

    auto *top = new QWidget;
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addLayout(filters);
    topLayout->addLayout(searchRow);
    topLayout->addWidget(m_error);
    topLayout->addWidget(m_table, 1);

    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(top);
    split->addWidget(m_provenance);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(split);

    // Typing waits for a pause before querying: one query per word, not per key.
    m_typing->setSingleShot(true);
    m_typing->setInterval(250);
    connect(m_typing, &QTimer::timeout, this, &ExperimentsView::applyFilters);
    for (QLineEdit *edit : {m_system, m_source, m_search})
        connect(edit, &QLineEdit::textChanged, m_typing, qOverload<>(&QTimer::start));
    connect(m_gpus, &QSpinBox::valueChanged, m_typing, qOverload<>(&QTimer::start));
    connect(m_benchmark, &QComboBox::currentIndexChanged, this, &ExperimentsView::applyFilters);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &ExperimentsView::applyFilters);

    connect(m_model, &RunTableModel::failed, this, &ExperimentsView::showError);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        m_count->setText(tr("%1 runs").arg(QLocale().toString(m_model->rowCount())));
        onSelectionChanged();
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &ExperimentsView::onSelectionChanged);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ExperimentsView::updateProvenance);
    m_count->setObjectName(QStringLiteral("count"));
    m_count->setMinimumWidth(
        m_count->fontMetrics().horizontalAdvance(tr("%1 runs").arg(QLocale().toString(10000000)))
        + 8);
    m_count->setText(tr("%1 runs").arg(0));
}

ExperimentsView::~ExperimentsView() = default;

void ExperimentsView::setStorePath(const QString &path)
{
    m_storePath = path;
    reload();
}

void ExperimentsView::reload()
{
    m_error->clear();
    m_error->hide();
    std::shared_ptr<store::RunQuery> query;
    if (!m_storePath.isEmpty() && !QFileInfo::exists(m_storePath)) {
        // A first start: no store yet is not an error.
        m_error->setText(tr("No experiments yet. File > Import Results loads recorded results "
                            "into %1.")
                             .arg(m_storePath));
        m_error->setStyleSheet(QString());
        m_error->show();
    } else if (!m_storePath.isEmpty()) {
        try {
            query = std::make_shared<store::RunQuery>(m_storePath.toStdString());
        } catch (const store::StoreError &e) {
            showError(QString::fromStdString(e.what()));
        }
    }
    // The benchmark list comes from the new store; keep the choice when it is still there.
    m_model->setQuery(nullptr);
    const QString benchmark = m_benchmark->currentData().toString();
    {
        const QSignalBlocker blocker(m_benchmark);
        m_benchmark->clear();
        m_benchmark->addItem(tr("All benchmarks"), QString());
        if (query) {
            try {
                for (const std::string &b : query->benchmarks())
                    m_benchmark->addItem(toQString(b), toQString(b));
            } catch (const store::StoreError &e) {
                showError(QString::fromStdString(e.what()));
                query.reset();
            }
        }
        m_benchmark->setCurrentIndex(std::max(0, m_benchmark->findData(benchmark)));
    }
    store::RunFilter filter = m_model->filter();
    filter.benchmark = m_benchmark->currentData().toString().toStdString();
    m_model->setFilter(filter);
    m_model->setQuery(std::move(query));
}

void ExperimentsView::applyFilters()
{
    m_typing->stop();
    store::RunFilter filter;
    filter.benchmark = m_benchmark->currentData().toString().toStdString();
    filter.system = m_system->text().trimmed().toStdString();
    filter.gpus = m_gpus->value() > 0 ? m_gpus->value() : -1;
    filter.source = m_source->text().trimmed().toStdString();
    filter.kind = store::RunKind(m_kind->currentData().toInt());
    filter.search = m_search->text().trimmed().toStdString();
    m_model->setFilter(filter);
}

QString ExperimentsView::errorText() const
{
    return m_error->text();
}

std::vector<std::int64_t> ExperimentsView::selectedRunIds() const
{
    std::vector<std::int64_t> ids;
    for (const QModelIndex &index : m_table->selectionModel()->selectedRows())
        if (const std::int64_t id = m_model->runId(index.row()))
            ids.push_back(id);
    std::sort(ids.begin(), ids.end());
    return ids;
}

void ExperimentsView::deleteSelected()
{
    std::vector<std::int64_t> ids = selectedRunIds();
    if (ids.empty() || m_storePath.isEmpty() || !m_model->query())
        return;
    QPointer<ExperimentsView> self(this);
    m_undoStack->push(
        new DeleteRunsCommand(m_storePath, std::move(ids), [self](const QString &error) {
            if (self)
                self->storeChanged(error);
        }));
}

void ExperimentsView::storeChanged(const QString &error)
{
    // Keep the view where it was: the same filter and order, the first visible run on top.
    const int top = m_table->rowAt(0);
    m_model->refresh();
    if (top > 0)
        m_table->scrollTo(m_model->index(std::min(top, m_model->rowCount() - 1), 0),
                          QAbstractItemView::PositionAtTop);
    if (!error.isEmpty())
        showError(error);
}

void ExperimentsView::showError(const QString &message)
{
    m_error->setStyleSheet(QStringLiteral("color: #a40000"));
    m_error->setText(message);
    m_error->show();
}

void ExperimentsView::onSelectionChanged()
{
    updateProvenance();
    Q_EMIT selectionChanged(selectedRunIds());
}

void ExperimentsView::updateProvenance()
{
    // The current row when it is selected (the last one clicked), else the first selected run.
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    if (current.isValid() && m_table->selectionModel()->isRowSelected(current.row())) {
        showProvenance(m_model->runId(current.row()));
        return;
    }
    const std::vector<std::int64_t> ids = selectedRunIds();
    showProvenance(ids.empty() ? 0 : ids.front());
}

void ExperimentsView::showProvenance(std::int64_t id)
{
    if (!id || !m_model->query()) {
        m_provenance->clear();
        return;
    }
    std::optional<store::StoredRun> p;
    try {
        p = m_model->query()->run(id);
    } catch (const store::StoreError &e) {
        showError(QString::fromStdString(e.what()));
    }
    if (!p) {
        m_provenance->clear();
        return;
    }
    const store::RunRecord run = p->run();
    QStringList lines;
    lines << tr("Source file: %1").arg(toQString(p->sourcePath))
          << tr("Place: %1").arg(run.place.empty() ? tr("(not recorded)") : toQString(run.place))
          << tr("SHA-256: %1").arg(toQString(p->sourceSha256))
          << tr("Imported: %1 (as %2)").arg(toQString(p->importedAt), toQString(p->sourceKind));
    if (!run.tags.empty())
        lines << tr("Tags: %1").arg(toQString(run.tags));
    if (!run.details.empty())
        lines << tr("Details: %1").arg(toQString(run.details));
    lines << tr("Run id: %1").arg(p->row.id);
    m_provenance->setPlainText(lines.join(QLatin1Char('\n')));
}

} // namespace clab::views
