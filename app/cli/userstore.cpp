#include "cli/userstore.h"

#include "store/seed.h"
#include "store/store.h"

#include <ostream>

namespace clab::cli {

std::string storeFor(const std::string &db, std::ostream &err)
{
    if (!db.empty())
        return db;
    const std::string path = store::defaultStorePath();
    if (store::seedIfNew(path))
        err << "Created your experiment store " << path
            << " with the recorded results ComposeLab ships (datasets/; set "
               "COMPOSELAB_EMPTY_STORE=1 to start empty).\n";
    return path;
}

} // namespace clab::cli
