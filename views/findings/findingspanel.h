#pragma once

#include "design/rules.h"

#include <QWidget>

#include <string>
#include <vector>

class QListWidget;

namespace clab::views {

// The design-rule findings, errors first. Activating one asks to select the items it names.
class FindingsPanel : public QWidget
{
    Q_OBJECT

public:
    explicit FindingsPanel(QWidget *parent = nullptr);

    void setFindings(const std::vector<design::Finding> &findings);
    QListWidget *list() const { return m_list; }
    int errorCount() const { return m_errors; }

Q_SIGNALS:
    void itemsActivated(const std::vector<std::string> &ids);
    void countsChanged(int errors, int warnings);

private:
    QListWidget *m_list;
    std::vector<design::Finding> m_findings;
    int m_errors = 0;
};

} // namespace clab::views
