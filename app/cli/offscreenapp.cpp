#include "cli/offscreenapp.h"

#include <clocale>

namespace clab::cli {

bool ensureWidgetApplication(std::unique_ptr<QApplication> &owned, std::string &error)
{
    if (QCoreApplication *core = QCoreApplication::instance()) {
        if (qobject_cast<QApplication *>(core))
            return true;
        error = "needs a QApplication to draw text, but a QCoreApplication is running";
        return false;
    }
    static int argc = 1;
    static char name[] = "composelab";
    static char *argv[] = {name, nullptr};
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    owned = std::make_unique<QApplication>(argc, argv);
    // QApplication adopts the user's locale; the readers parse numbers with strtod, which a
    // comma-decimal locale would stop at the '.' of "26.8" (as main() does for the GUI).
    std::setlocale(LC_NUMERIC, "C");
    return true;
}

} // namespace clab::cli
