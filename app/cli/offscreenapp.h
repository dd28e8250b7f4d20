#pragma once

#include <QApplication>

#include <memory>
#include <string>

namespace clab::cli {

// Commands that draw (chart, render, the chart bench) need a QApplication for fonts and
// painting, but the CLI runs without one. This makes one on Qt's offscreen platform, unless
// QT_QPA_PLATFORM names another, so that drawing works over ssh and in CI. It returns true when
// a QApplication runs (the caller's `owned` holds it if it was made here), and false, with the
// reason in `error`, when a QCoreApplication already runs and widgets cannot be made.
bool ensureWidgetApplication(std::unique_ptr<QApplication> &owned, std::string &error);

} // namespace clab::cli
