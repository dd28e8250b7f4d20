#pragma once

#include "perf/model.h"

#include <memory>
#include <optional>
#include <unordered_map>

namespace clab::cluster {
struct Topology;
}

namespace clab::perf {

// The one prediction of a composed system that the GUI's Results and `composelab predict` both
// show, so that they cannot drift: the system's platform from the fabric analysis (optionally
// scaled out), the model, and the platform's own notes.
struct ScaleOut
{
    int nodes = 1;
    // The scale-out network joining the nodes (one endpoint per GPU); null: the network the
    // design gives the system.
    std::shared_ptr<const cluster::Topology> network;
};

// Remembers the predictions it has made, so that predicting a design's systems again after an edit
// costs only the systems the edit changed (the GUI re-predicts after every edit of the canvas;
// identical systems of a pool share one prediction too). Keyed on everything predict() reads: the
// platform's values, the workload, the request, and the calibration by address: it is for
// long-lived ones (the built-in calibration and catalogs, which never change once built: a user
// part publishes a new catalog). The energy figures are
// worked out again every time, from the prices in force. Holds at most kLimit predictions.
class PredictionMemo
{
public:
    static constexpr std::size_t kLimit = 4096;

    // perf::predict, or the prediction remembered for an equal key.
    const Prediction &predict(const Platform &platform, const workload::Workload &w,
                              const Request &request, const Calibration &calibration);
    std::size_t size() const { return m_entries.size(); }
    std::size_t hits() const { return m_hits; }

private:
    struct Entry
    {
        Platform platform;
        const workload::Workload *workload = nullptr;
        Request request;
        const Calibration *calibration = nullptr;
        Prediction prediction;
    };
    std::unordered_multimap<std::size_t, Entry> m_entries; // by a hash of the key
    std::size_t m_hits = 0;
};

Prediction predictSystem(const design::DesignIndex &index, const fabric::Analysis &analysis,
                         std::size_t system, const workload::Workload &w, const Request &request,
                         const Calibration &calibration, const catalog::Catalog &catalog,
                         const ScaleOut &scale = {});
// The same for several benchmarks of one system (the platform is built once); with a memo,
// predictions of an equal platform made before are reused (the GUI after an edit).
std::vector<Prediction> predictSystem(const design::DesignIndex &index,
                                      const fabric::Analysis &analysis, std::size_t system,
                                      const std::vector<const workload::Workload *> &workloads,
                                      const Request &request, const Calibration &calibration,
                                      const catalog::Catalog &catalog, const ScaleOut &scale = {},
                                      PredictionMemo *memo = nullptr);

// The design's own cluster (design::Cluster), predicted at the default global batch of all its
// GPUs; nullopt when the design has none. Throws InputError as clusterPlatformOf does.
struct ClusterPrediction
{
    std::size_t system = 0;
    int gpus = 0;
    std::string network; // the topology's description
    Prediction prediction;
};
std::optional<ClusterPrediction>
predictDesignCluster(const design::DesignIndex &index, const fabric::Analysis &analysis,
                     const workload::Workload &w, const Request &request,
                     const Calibration &calibration, const catalog::Catalog &catalog);

} // namespace clab::perf
