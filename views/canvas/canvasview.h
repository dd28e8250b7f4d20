#pragma once

#include <QGraphicsView>

namespace clab::views {

class CanvasScene;

// The canvas' window: zoom with Ctrl+wheel or the keyboard, pan with the middle button or
// Space+drag, rubber-band selection, fit to view. Antialiased and drawn at the screen's pixel
// ratio, so it stays crisp on HiDPI screens.
class CanvasView : public QGraphicsView
{
    Q_OBJECT

public:
    explicit CanvasView(CanvasScene *scene, QWidget *parent = nullptr);

    void zoomBy(double factor);
    void fitAll();
    double zoom() const { return transform().m11(); }

protected:
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void keyReleaseEvent(QKeyEvent *event) override;

private:
    bool m_panning = false;
};

} // namespace clab::views
