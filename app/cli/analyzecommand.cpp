#include "cli/commands.h"

#include "catalog/catalog.h"
#include "design/design.h"
#include "fabric/analysis.h"
#include "fabric/report.h"
#include "util/inputerror.h"

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
    const fabric::Analysis analysis = fabric::analyze(design, catalog::Catalog::builtin());
    if (options.json)
        out << fabric::analysisToJson(analysis).dump(2) << "\n";
    else
        out << fabric::analysisToText(analysis);
    return 0;
}

} // namespace clab::cli
