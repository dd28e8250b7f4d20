#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace clab::store {

class Store;

// One run of a study, or of one shard of it: the study's identity (the SHA-256 of its file),
// which shard, and the study's text, kept beside the source its predicted runs belong to.
struct StudyShard
{
    std::string name;
    std::string sha256;
    int shard = 1;
    int shards = 1;
    std::int64_t points = 0; // the whole study's
    std::string text;
};

void addStudy(Store &store, std::int64_t sourceId, const StudyShard &study);
std::vector<StudyShard> studies(Store &store);

struct MergeCounts
{
    int inputs = 0;
    int sources = 0; // added; a source already in the output is skipped with its rows
    int skipped = 0;
    std::int64_t runs = 0;
    std::int64_t bandwidth = 0;
    std::int64_t schedules = 0;
};

// Merges experiment stores into `out` (created when absent) in one transaction. Refused with a
// StoreError, and nothing written, when an input is missing, is not an experiment store, has
// another schema version than this build writes, or holds another study than the output or the
// other inputs. Merging the same input again adds nothing.
MergeCounts mergeStores(const std::string &out, const std::vector<std::string> &inputs);

} // namespace clab::store
