#pragma once

#include "perf/model.h"
#include "util/jsonreader.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clab::catalog {
class Catalog;
}

namespace clab::design {
struct Design;
}

namespace clab::perf {

// A study: many compositions predicted at once, the product of a few axes over a base
// (model/perf/STUDY.md documents the file). Points are numbered in mixed radix over the axes in
// the file's order, the last axis fastest; rules drop the points that make no sense.

// The base composition of a study that synthesises its nodes (nodeDesign).
struct StudyNode
{
    std::string gpu = "A100-PCIe-40GB";
    int gpus = 4;
    std::string placement = "pooled"; // local (the host's own root ports) or pooled (a chassis)
    int uplinks = 0;                  // host cables into each chassis; 0: one per socket
    bool nvlink = false;              // NVLink bridges between GPU pairs
    int pcieGen = 0;                  // 0: the GPU's
    std::string host;                 // catalog host id; "": the default of the PCIe generation
    int nodes = 1;
};

struct StudyAxis
{
    std::string name;
    std::vector<Json> values;
};

struct Study
{
    static constexpr int kVersion = 1;
    static constexpr std::uint64_t kMaxPoints = 100'000'000;
    std::string file; // where it was read from
    std::string name;
    std::string description;
    std::string sha256; // of the file's text: a study's identity in stores and merges
    std::string text;   // the file's text, kept with the results
    // The base: a design file and one of its systems, or a synthesised node.
    std::string designPath;
    std::string system;
    std::shared_ptr<const design::Design> baseDesign; // read once, with the study
    StudyNode node;
    std::string benchmark = "resnet50";
    int globalBatch = 0; // 0: the fastest batch of the convergence table
    std::string precision;
    std::string software;
    std::vector<StudyAxis> axes;
    std::vector<std::map<std::string, Json>> exclude; // points matching all of one entry drop
    std::uint64_t points() const;
};

// The axes a study may vary, in the order the documentation lists them.
const std::vector<std::string> &studyAxisNames();
// An axis that moves hardware about (placement, uplinks, ...): a design base has its own.
bool isNodeOnlyAxis(const std::string &axis);

// Reads a study; bad input (an unknown axis or value, a wrong type, more than kMaxPoints points)
// throws InputError naming the file, the JSON pointer and what is allowed. A relative design path
// is taken from the study file's folder.
Study readStudy(std::string_view text, const std::string &file, const catalog::Catalog &catalog);

// A study of one system of a design, the design written into it, no axes yet (one point): what
// the GUI starts from when the user varies the open design.
std::string designStudyText(const design::Design &design, const std::string &system,
                            const std::string &name);

// The bundled seed study (resources/studies/seed.clabstudy): the composable-system paper's
// aggregations and reconfigurations.
std::string_view seedStudyText();

struct StudyResult
{
    std::uint64_t index = 0;
    std::vector<std::pair<std::string, Json>> axes; // this point's value of every axis
    std::size_t composition = 0;                    // index into StudyRunner::compositions()
    std::string benchmark;                          // workload id
    std::string dropped; // why the rules drop it; "" for a predicted point
    Prediction prediction;
};

// The shard k of n (1-based, as Slurm numbers array tasks) holds the points with index % n == k-1.
struct Shard
{
    int index = 1;
    int count = 1;
    bool holds(std::uint64_t point) const
    {
        return point % std::uint64_t(count) == std::uint64_t(index - 1);
    }
};

// Evaluates the points of a study. The constructor builds and analyses every composition the
// axes reach, once; evaluate() then only runs the model, and is safe to call from many threads.
class StudyRunner
{
public:
    struct Composition
    {
        std::string name;        // "pooled 4x A100-PCIe-40GB, 1 uplink"
        std::string description; // JSON object of its composition values
        std::string design;      // its node design (.clab text)
        std::optional<Platform> platform;
        std::string dropped; // why no point of it can be predicted
    };
    StudyRunner(const Study &study, const catalog::Catalog &catalog,
                const Calibration &calibration);
    ~StudyRunner();
    StudyResult evaluate(std::uint64_t index) const;
    const std::vector<Composition> &compositions() const { return m_compositions; }
    const Study &study() const { return m_study; }

private:
    struct Decoded;
    Decoded decode(std::uint64_t index) const;
    Study m_study; // a copy: the runner outlives the study it was given
    const Calibration &m_calibration;
    std::vector<Composition> m_compositions;
    std::vector<int> m_compositionAxes; // axis positions that change the composition
};

// A predicted point as JSON ({"point", "axes", "system", "benchmark", "time_to_train_min", ...}).
OrderedJson studyResultToJson(const StudyRunner &runner, const StudyResult &r);

} // namespace clab::perf
