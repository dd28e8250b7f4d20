#pragma once

#include "document.h"
#include "design/examples.h"

#include <QMainWindow>

class QMenu;

namespace clab {

namespace views {
class SystemsView;
}

// The main window: menus and the systems view over one Document. After every change of the
// document the analysis re-runs and the view refreshes.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);

    Document *document() { return &m_document; }
    views::SystemsView *systemsView() const { return m_view; }

    // Opens a design; on a bad file shows the error and keeps the current document.
    bool openFile(const QString &path);
    bool openExample(const QString &fileName);

Q_SIGNALS:
    void analysisUpdated();
    void errorShown(const QString &message);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createMenus();
    void refresh();
    void updateTitle();
    void open();
    bool save();
    bool saveAs();
    bool maybeSave();
    void addRecent(const QString &path);
    void fillRecentMenu();
    void showError(const QString &title, const QString &message);

    Document m_document;
    views::SystemsView *m_view;
    QMenu *m_recentMenu = nullptr;
};

} // namespace clab
