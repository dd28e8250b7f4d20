#pragma once

#include <string>
#include <vector>

// Labels of many similar names (a study's variants): words every name shares go to the title
// once, instead of into every label.
namespace clab::charts {

// The words (without a trailing comma) that every name holds; none when a name would be left
// with nothing.
std::vector<std::string> sharedWords(const std::vector<std::string> &names);

// The name without those words; a comma they carried stays with the word before.
std::string withoutWords(const std::string &name, const std::vector<std::string> &drop);

// A study point's composition without its size: "pooled 4x G, 1 uplink x 2 nodes" is the
// variant "pooled G, 1 uplink". The words "<n>x" and "x <n> nodes" go.
std::string withoutSize(const std::string &name);

} // namespace clab::charts
