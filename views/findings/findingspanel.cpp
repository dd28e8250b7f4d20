#include "findingspanel.h"

#include <QListWidget>
#include <QStyle>
#include <QVBoxLayout>

namespace clab::views {

FindingsPanel::FindingsPanel(QWidget *parent)
    : QWidget(parent)
    , m_list(new QListWidget)
{
    m_list->setObjectName(QStringLiteral("findings"));
    m_list->setWordWrap(true);
    m_list->setToolTip(tr("Click a finding to select what it names on the canvas."));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_list);
    auto activate = [this](QListWidgetItem *item) {
        const int i = item->data(Qt::UserRole).toInt();
        if (i >= 0 && i < int(m_findings.size()))
            Q_EMIT itemsActivated(m_findings[std::size_t(i)].items);
    };
    connect(m_list, &QListWidget::itemClicked, this, activate);
    connect(m_list, &QListWidget::itemActivated, this, activate);
}

void FindingsPanel::setFindings(const std::vector<design::Finding> &findings)
{
    m_findings = findings;
    std::stable_sort(m_findings.begin(), m_findings.end(),
                     [](const design::Finding &a, const design::Finding &b) {
                         return a.severity == design::Severity::Error
                                && b.severity != design::Severity::Error;
                     });
    m_list->clear();
    m_errors = 0;
    int warnings = 0;
    for (std::size_t i = 0; i < m_findings.size(); ++i) {
        const design::Finding &f = m_findings[i];
        const bool error = f.severity == design::Severity::Error;
        (error ? m_errors : warnings) += 1;
        auto *item
            = new QListWidgetItem(style()->standardIcon(error ? QStyle::SP_MessageBoxCritical
                                                              : QStyle::SP_MessageBoxWarning),
                                  QString::fromStdString(f.message));
        item->setData(Qt::UserRole, int(i));
        m_list->addItem(item);
    }
    if (m_findings.empty()) {
        auto *item = new QListWidgetItem(tr("No design-rule findings."));
        item->setData(Qt::UserRole, -1);
        m_list->addItem(item);
    }
    Q_EMIT countsChanged(m_errors, warnings);
}

} // namespace clab::views
