#include "cli/commands.h"

#include "catalog/catalog.h"
#include "design/design.h"
#include "fabric/analysis.h"
#include "fabric/report.h"
#include "machine/measurements.h"
#include "store/store.h"
#include "util/inputerror.h"

#include <filesystem>
#include <ostream>

namespace clab::cli {

int analyzeCommand(const AnalyzeOptions &options, std::ostream &out, std::ostream &err)
{
    design::Design design;
    try {
        design = design::loadDesign(options.file);
    } catch (const InputError &e) {
        err << "composelab analyze: " << e.what() << "\n";
        return 1;
    }
    fabric::Analysis analysis = fabric::analyze(design, catalog::Catalog::builtin());
    if (!options.db.empty()) {
        try {
            if (!std::filesystem::exists(options.db))
                throw store::StoreError(options.db + ": no such store");
            store::Store db(options.db);
            fabric::attachMeasurements(
                analysis,
                machine::storedMeasurements(db.bandwidth(), design, catalog::Catalog::builtin()));
        } catch (const store::StoreError &e) {
            err << "composelab analyze: --db: " << e.what() << "\n";
            return 1;
        }
    }
    if (options.json)
        out << fabric::analysisToJson(analysis).dump(2) << "\n";
    else
        out << fabric::analysisToText(analysis);
    return 0;
}

} // namespace clab::cli
