#include "cli/cli.h"
#include "mainwindow.h"
#include "catalog/catalog.h"
#include "perf/energy.h"
#include "util/fileio.h"

#include <QApplication>
#include <QFileInfo>
#include <QTimer>

#include <clocale>
#include <filesystem>
#include <iostream>

int main(int argc, char *argv[])
{
    // A subcommand, or a first argument that is neither a design file nor an option of Qt's,
    // goes to the command line so that typos get a usage message instead of an empty window.
    const bool looksLikeFile
        = argc > 1
          && (QFileInfo::exists(QString::fromLocal8Bit(argv[1]))
              || QString::fromLocal8Bit(argv[1]).endsWith(QLatin1String(".clab")));
    if (clab::cli::isCliInvocation(argc, argv) || (argc > 1 && !looksLikeFile && argv[1][0] != '-'))
        return clab::cli::run(argc, argv, std::cout, std::cerr);

    QApplication app(argc, argv);
    // QApplication adopts the user's locale (setlocale(LC_ALL, "")); the readers parse numbers
    // with strtod, which would then stop at the '.' of "26.8" under a comma-decimal locale.
    std::setlocale(LC_NUMERIC, "C");
    QApplication::setOrganizationName(QStringLiteral("ComposeLab"));
    QApplication::setApplicationName(QStringLiteral("ComposeLab"));
    QApplication::setApplicationVersion(QStringLiteral(COMPOSELAB_VERSION));

    // The user's own parts (Duplicate and Edit... writes them there).
    const std::vector<std::string> problems
        = clab::catalog::Catalog::addUserFolder(clab::catalog::Catalog::userFolder());
    // The user's own part prices for energy and cost, when they edited a copy.
    const std::string prices = clab::perf::userPartPricesPath();
    std::error_code noFile; // a home the user may not read is no file
    if (std::filesystem::exists(prices, noFile)) {
        try {
            clab::perf::setPartPrices(
                clab::perf::readPartPrices(clab::readTextFile(prices), prices));
        } catch (const std::exception &e) {
            std::cerr << "composelab: skipped the user's part prices: " << e.what() << "\n";
        }
    }
    clab::MainWindow window;
    for (const std::string &p : problems)
        std::cerr << "composelab: skipped a user part file: " << p << "\n";
    const QStringList args = QApplication::arguments();
    if (args.size() > 1 && !args.at(1).startsWith(QLatin1Char('-')))
        window.openFile(args.at(1));
    else
        window.openExample(QString::fromLatin1(clab::design::kSeedExample));
    window.show();
    window.seedStoreIfNew(); // a first start: real recorded results in the docks
    window.offerRecovery();  // work a crashed session left behind
    // tests/bench/first_start.sh: the time to a shown window, as a whole-process timing.
    if (qEnvironmentVariableIsSet("COMPOSELAB_QUIT_WHEN_SHOWN"))
        QTimer::singleShot(0, &app, &QApplication::quit);
    return app.exec();
}
