#include "canvasview.h"

#include "canvasscene.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace clab::views {

namespace {

constexpr double kMinZoom = 0.05;
constexpr double kMaxZoom = 8;

} // namespace

CanvasView::CanvasView(CanvasScene *scene, QWidget *parent)
    : QGraphicsView(scene, parent)
{
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing
                   | QPainter::SmoothPixmapTransform);
    setDragMode(QGraphicsView::RubberBandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setAcceptDrops(true);
    setFocusPolicy(Qt::StrongFocus);
}

void CanvasView::zoomBy(double factor)
{
    const double next = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
    const double applied = next / zoom();
    scale(applied, applied);
}

void CanvasView::fitAll()
{
    const QRectF bounds = scene()->itemsBoundingRect().adjusted(-40, -40, 40, 40);
    if (bounds.isEmpty())
        return;
    fitInView(bounds, Qt::KeepAspectRatio);
    if (zoom() > 1.5) // a small design stays at a readable size instead of filling the window
        zoomBy(1.5 / zoom());
}

void CanvasView::wheelEvent(QWheelEvent *event)
{
    if (event->modifiers() & Qt::ControlModifier) {
        zoomBy(std::pow(1.0015, event->angleDelta().y()));
        event->accept();
        return;
    }
    QGraphicsView::wheelEvent(event);
}

void CanvasView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::MiddleButton || (m_panning && event->button() == Qt::LeftButton)) {
        // Pan by handing QGraphicsView a synthetic left press in hand-drag mode.
        setDragMode(QGraphicsView::ScrollHandDrag);
        QMouseEvent press(QEvent::MouseButtonPress, event->position(), event->globalPosition(),
                          Qt::LeftButton, Qt::LeftButton, event->modifiers());
        QGraphicsView::mousePressEvent(&press);
        return;
    }
    QGraphicsView::mousePressEvent(event);
}

void CanvasView::mouseReleaseEvent(QMouseEvent *event)
{
    if (dragMode() == QGraphicsView::ScrollHandDrag) {
        QMouseEvent release(QEvent::MouseButtonRelease, event->position(), event->globalPosition(),
                            Qt::LeftButton, Qt::NoButton, event->modifiers());
        QGraphicsView::mouseReleaseEvent(&release);
        if (!m_panning)
            setDragMode(QGraphicsView::RubberBandDrag);
        return;
    }
    QGraphicsView::mouseReleaseEvent(event);
}

void CanvasView::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat()) {
        m_panning = true;
        setDragMode(QGraphicsView::ScrollHandDrag);
        return;
    }
    QGraphicsView::keyPressEvent(event);
}

void CanvasView::keyReleaseEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat()) {
        m_panning = false;
        setDragMode(QGraphicsView::RubberBandDrag);
        return;
    }
    QGraphicsView::keyReleaseEvent(event);
}

} // namespace clab::views
