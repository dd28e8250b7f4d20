#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace clab::cli {

struct StudyOptions
{
    std::string file;
    std::string db;     // where the predicted points go; "" keeps nothing
    std::string shard;  // "k/N" (1-based); "" the whole study
    int jobs = 0;       // 0: one per core
    bool json = false;  // one JSON object per point on out (JSON lines)
    bool count = false; // only say how many points the study has
};
int studyCommand(const StudyOptions &options, std::ostream &out, std::ostream &err);

struct MergeOptions
{
    std::string out;
    std::vector<std::string> inputs;
};
int mergeCommand(const MergeOptions &options, std::ostream &out, std::ostream &err);

void addStudySubcommands(CLI::App &app, StudyOptions &study, MergeOptions &merge);

} // namespace clab::cli
