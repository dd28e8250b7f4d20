#include "views/charts/exportdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>

#include <cmath>

namespace clab::views {

namespace {

const char *const kUnits[] = {"in", "cm", "px"};

double pixelsPer(const QString &unit)
{
    return unit == QLatin1String("in") ? 96.0 : unit == QLatin1String("cm") ? 96.0 / 2.54 : 1.0;
}

} // namespace

ChartExportDialog::ChartExportDialog(bool raster, QSize shown, QWidget *parent)
    : QDialog(parent)
    , m_shown(shown)
    , m_asShown(new QCheckBox(tr("As shown on screen")))
    , m_width(new QDoubleSpinBox)
    , m_height(new QDoubleSpinBox)
    , m_unit(new QComboBox)
    , m_style(new QComboBox)
    , m_dpi(new QSpinBox)
{
    setWindowTitle(tr("Export chart"));
    QSettings settings;
    settings.beginGroup(QStringLiteral("chartExport"));
    for (const char *u : kUnits)
        m_unit->addItem(QLatin1String(u));
    m_unit->setCurrentText(settings.value(QStringLiteral("unit"), QStringLiteral("in")).toString());
    for (QDoubleSpinBox *box : {m_width, m_height}) {
        box->setDecimals(1);
        box->setRange(0.5, 9600);
    }
    m_width->setValue(settings.value(QStringLiteral("width"), 6.0).toDouble());
    m_height->setValue(settings.value(QStringLiteral("height"), 4.0).toDouble());
    m_asShown->setChecked(settings.value(QStringLiteral("asShown"), false).toBool());
    m_style->addItem(tr("Paper"), 1.0);
    m_style->addItem(tr("Slides (text and lines 1.5 times larger)"), 1.5);
    m_style->setCurrentIndex(settings.value(QStringLiteral("slides"), false).toBool() ? 1 : 0);
    m_dpi->setRange(72, 1200);
    m_dpi->setValue(QSettings().value(QStringLiteral("exportDpi"), 300).toInt());
    m_dpi->setSuffix(tr(" dpi"));
    m_dpi->setEnabled(raster);
    m_dpi->setToolTip(raster ? QString() : tr("PDF and SVG keep their physical size"));

    auto *size = new QHBoxLayout;
    size->addWidget(m_width);
    size->addWidget(new QLabel(QStringLiteral("×")));
    size->addWidget(m_height);
    size->addWidget(m_unit);
    auto *form = new QFormLayout(this);
    form->addRow(m_asShown);
    form->addRow(tr("Size:"), size);
    form->addRow(tr("Style:"), m_style);
    form->addRow(tr("Resolution:"), m_dpi);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    const auto sync = [this] {
        for (QWidget *w : {static_cast<QWidget *>(m_width), static_cast<QWidget *>(m_height),
                           static_cast<QWidget *>(m_unit)})
            w->setEnabled(!m_asShown->isChecked());
    };
    connect(m_asShown, &QCheckBox::toggled, this, sync);
    sync();
    // A new unit keeps the physical size: 6 in become 15.2 cm.
    connect(m_unit, &QComboBox::currentTextChanged, this, [this](const QString &unit) {
        const double factor = pixelsPer(m_unit->property("previous").toString()) / pixelsPer(unit);
        m_width->setValue(m_width->value() * factor);
        m_height->setValue(m_height->value() * factor);
        m_unit->setProperty("previous", unit);
    });
    m_unit->setProperty("previous", m_unit->currentText());
}

ExportLayout ChartExportDialog::layout() const
{
    ExportLayout l;
    l.textScale = m_style->currentData().toDouble();
    if (m_asShown->isChecked()) {
        l.width = m_shown.width();
        l.height = m_shown.height();
    } else {
        const double per = pixelsPer(m_unit->currentText());
        // At least 2 x 1.5 in, as the command line's --size.
        l.width = std::max(192, int(std::lround(m_width->value() * per)));
        l.height = std::max(144, int(std::lround(m_height->value() * per)));
    }
    return l;
}

int ChartExportDialog::dpi() const
{
    return m_dpi->value();
}

void ChartExportDialog::remember() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("exportDpi"), m_dpi->value());
    settings.beginGroup(QStringLiteral("chartExport"));
    settings.setValue(QStringLiteral("unit"), m_unit->currentText());
    settings.setValue(QStringLiteral("width"), m_width->value());
    settings.setValue(QStringLiteral("height"), m_height->value());
    settings.setValue(QStringLiteral("asShown"), m_asShown->isChecked());
    settings.setValue(QStringLiteral("slides"), m_style->currentIndex() == 1);
}

} // namespace clab::views
