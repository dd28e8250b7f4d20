#include "views/study/varydialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace clab::views {

VaryDialog::VaryDialog(const std::vector<AxisChoice> &axes, const QString &selected,
                       QWidget *parent)
    : QDialog(parent)
    , m_axes(axes)
    , m_axis(new QComboBox)
    , m_values(new QLineEdit)
    , m_hint(new QLabel)
{
    setWindowTitle(tr("Vary"));
    for (const AxisChoice &a : m_axes)
        m_axis->addItem(a.name);
    m_values->setMinimumWidth(360);
    m_values->setToolTip(tr("Values separated by commas"));
    m_hint->setWordWrap(true);
    m_hint->setMaximumWidth(480);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    auto *form = new QFormLayout(this);
    form->addRow(tr("&Axis:"), m_axis);
    form->addRow(tr("&Values:"), m_values);
    form->addRow(m_hint);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_axis, &QComboBox::currentIndexChanged, this, &VaryDialog::show);
    connect(m_values, &QLineEdit::textChanged, this, [this, buttons](const QString &text) {
        buttons->button(QDialogButtonBox::Ok)->setEnabled(!text.trimmed().isEmpty());
    });
    const int at = m_axis->findText(selected);
    m_axis->setCurrentIndex(at >= 0 ? at : 0);
    show(m_axis->currentIndex());
}

void VaryDialog::show(int index)
{
    if (index < 0 || std::size_t(index) >= m_axes.size())
        return;
    m_values->setText(m_axes[std::size_t(index)].values);
    m_hint->setText(m_axes[std::size_t(index)].hint);
}

QString VaryDialog::axis() const
{
    return m_axis->currentText();
}

QString VaryDialog::values() const
{
    return m_values->text();
}

} // namespace clab::views
