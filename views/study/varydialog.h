#pragma once

#include <QDialog>

#include <map>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;

namespace clab::views {

// Asks which axis a study varies and over which values: the axes it may vary, each with the
// values it has now (or a sensible start) and a line saying what it accepts.
class VaryDialog : public QDialog
{
    Q_OBJECT

public:
    struct AxisChoice
    {
        QString name;   // "gpus"
        QString values; // "1, 2, 4, 8"
        QString hint;   // what the axis accepts
    };
    VaryDialog(const std::vector<AxisChoice> &axes, const QString &selected,
               QWidget *parent = nullptr);
    QString axis() const;
    QString values() const;

private:
    void show(int index);
    std::vector<AxisChoice> m_axes;
    QComboBox *m_axis;
    QLineEdit *m_values;
    QLabel *m_hint;
};

} // namespace clab::views
