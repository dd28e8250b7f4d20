#pragma once

#include <QString>

class QGraphicsScene;

namespace clab::views {

// Writes the whole scene, framed by a margin, as PNG (at `dpi`, 96 = one pixel per unit), SVG
// or PDF, chosen by the file's extension; atomically, so a failed export leaves an older file as
// it was. Returns false with the reason in `error`.
bool exportScene(QGraphicsScene *scene, const QString &path, int dpi, QString *error);

} // namespace clab::views
