#include "canvasexport.h"

#include <QBuffer>
#include <QFileInfo>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QPalette>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

namespace clab::views {

namespace {

constexpr double kMargin = 30;

} // namespace

bool exportScene(QGraphicsScene *scene, const QString &path, int dpi, QString *error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    const QRectF source = scene->itemsBoundingRect().adjusted(-kMargin, -kMargin, kMargin, kMargin);
    if (source.isEmpty()) {
        *error = QObject::tr("The canvas is empty; there is nothing to export.");
        return false;
    }
    // Selection outlines belong to the screen, not to a report.
    const QList<QGraphicsItem *> selected = scene->selectedItems();
    scene->clearSelection();
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    bool ok = true;
    if (suffix == QLatin1String("png")) {
        const double scale = std::max(0.1, dpi / 96.0);
        const QSize size = (source.size() * scale).toSize();
        if (size.width() > 30000 || size.height() > 30000) {
            *error = QObject::tr("At %1 dpi the image would be %2×%3 pixels; choose a lower "
                                 "resolution or SVG/PDF.")
                         .arg(dpi)
                         .arg(size.width())
                         .arg(size.height());
            ok = false;
        } else {
            QImage image(size, QImage::Format_ARGB32_Premultiplied);
            image.setDotsPerMeterX(int(dpi / 0.0254));
            image.setDotsPerMeterY(int(dpi / 0.0254));
            image.fill(scene->palette().color(QPalette::Window));
            QPainter painter(&image);
            painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
            scene->render(&painter, QRectF(QPointF(0, 0), size), source);
            painter.end();
            ok = image.save(&buffer, "PNG");
        }
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(source.size().toSize());
        svg.setViewBox(QRectF(QPointF(0, 0), source.size()));
        svg.setTitle(QObject::tr("ComposeLab canvas"));
        QPainter painter(&svg);
        scene->render(&painter, QRectF(QPointF(0, 0), source.size()), source);
    } else if (suffix == QLatin1String("pdf")) {
        QPdfWriter pdf(&buffer);
        pdf.setPageSize(QPageSize(source.size() * 0.75, QPageSize::Point)); // 96 units per inch
        pdf.setPageMargins({0, 0, 0, 0});
        pdf.setResolution(96);
        pdf.setTitle(QObject::tr("ComposeLab canvas"));
        QPainter painter(&pdf);
        scene->render(&painter, QRectF(QPointF(0, 0), source.size()), source);
    } else {
        *error = QObject::tr("%1: unknown format; use .png, .svg or .pdf.").arg(path);
        ok = false;
    }
    for (QGraphicsItem *item : selected)
        item->setSelected(true);
    if (!ok) {
        if (error->isEmpty())
            *error = QObject::tr("Could not draw the image for %1.").arg(path);
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(buffer.data()) != buffer.size()
        || !file.commit()) {
        *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace clab::views
