#pragma once

#include "perf/model.h"

#include <memory>
#include <optional>

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

Prediction predictSystem(const design::DesignIndex &index, const fabric::Analysis &analysis,
                         std::size_t system, const workload::Workload &w, const Request &request,
                         const Calibration &calibration, const catalog::Catalog &catalog,
                         const ScaleOut &scale = {});
// The same for several benchmarks of one system (the platform is built once).
std::vector<Prediction> predictSystem(const design::DesignIndex &index,
                                      const fabric::Analysis &analysis, std::size_t system,
                                      const std::vector<const workload::Workload *> &workloads,
                                      const Request &request, const Calibration &calibration,
                                      const catalog::Catalog &catalog, const ScaleOut &scale = {});

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
