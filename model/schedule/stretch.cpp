#include "schedule/stretch.h"

#include "catalog/catalog.h"
#include "design/design.h"
#include "fabric/analysis.h"
#include "perf/platform.h"
#include "perf/model.h"
#include "util/inputerror.h"
#include "workload/workload.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace clab::schedule {

Stretcher::Stretcher(const design::Design &design, const Resources &resources,
                     const catalog::Catalog &catalog, std::string defaultBenchmark)
    : m_design(design)
    , m_r(resources)
    , m_catalog(catalog)
    , m_default(std::move(defaultBenchmark))
{
}

const workload::Workload *Stretcher::workloadOf(const std::string &benchmark)
{
    if (benchmark.empty())
        return nullptr;
    return workload::Library::builtin().find(benchmark);
}

void checkBenchmarks(const std::vector<Job> &jobs, const std::string &file)
{
    for (const Job &j : jobs) {
        if (j.benchmark.empty() || Stretcher::workloadOf(j.benchmark))
            continue;
        throw InputError(file, "line " + std::to_string(j.line) + ", column benchmark",
                         "unknown benchmark \"" + j.benchmark + "\" (known: " + knownBenchmarks()
                             + ")");
    }
}

BothWays runBothWays(const std::vector<Job> &jobs, const design::Design &design,
                     const Resources &resources, const Options &options, bool stretch,
                     const std::string &defaultBenchmark, const std::string &file)
{
    Options o = options;
    Stretcher stretcher(design, resources, catalog::Catalog::builtin(), defaultBenchmark);
    if (stretch) {
        checkBenchmarks(jobs, file);
        o.stretch = [&stretcher](const Job &j, const Holding &h) { return stretcher.factor(j, h); };
    }
    return {simulate(jobs, resources, Mode::Static, o), simulate(jobs, resources, Mode::Pool, o)};
}

std::string knownBenchmarks()
{
    std::string known;
    for (const auto &[id, w] : workload::Library::builtin().all())
        known += (known.empty() ? "" : ", ") + id;
    return known;
}

std::map<int, std::vector<std::string>> Stretcher::placement(const Job &job, const Holding &h) const
{
    std::map<int, std::vector<std::string>> out;
    int left = job.gpus;
    for (const auto &[server, n] : h.servers) { // a static server: its local, then composed GPUs
        std::vector<std::string> ids = m_r.localIds[std::size_t(server)];
        for (std::size_t c = 0; c < m_r.pooledIds.size(); ++c) {
            for (std::size_t g = 0; g < m_r.pooledIds[c].size(); ++g) {
                if (m_r.pooledHost[c][g] == server)
                    ids.push_back(m_r.pooledIds[c][g]);
            }
        }
        const int use = std::min({left, n, int(ids.size())});
        ids.resize(std::size_t(use));
        left -= use;
        auto &to = out[server];
        to.insert(to.end(), ids.begin(), ids.end());
    }
    for (const auto &[host, n] : h.local) {
        const auto &ids = m_r.localIds[std::size_t(host)];
        auto &to = out[host]; // one entry per host: its first n local GPUs
        to.insert(to.end(), ids.begin(),
                  ids.begin() + std::min<std::ptrdiff_t>(n, std::ssize(ids)));
    }
    std::set<std::string> taken;
    for (const auto &[c, host, n] : h.composedTo) {
        const auto &ids = m_r.pooledIds[std::size_t(c)];
        const auto &owner = m_r.pooledHost[std::size_t(c)];
        int want = n;
        // Composed to this host already, then uncomposed, then composed elsewhere.
        for (int pass = 0; pass < 3 && want > 0; ++pass) {
            for (std::size_t g = 0; g < ids.size() && want > 0; ++g) {
                const bool match = pass == 0   ? owner[g] == host
                                   : pass == 1 ? owner[g] < 0
                                               : owner[g] >= 0 && owner[g] != host;
                if (match && taken.insert(ids[g]).second) {
                    out[host].push_back(ids[g]);
                    --want;
                }
            }
        }
    }
    return out;
}

double Stretcher::factor(const Job &job, const Holding &holding)
{
    const workload::Workload *w = workloadOf(job.benchmark.empty() ? m_default : job.benchmark);
    if (!w || job.gpus < 1)
        return 1;
    const auto where = placement(job, holding);
    // The host holding most of the job's GPUs stands for every node.
    int host = -1;
    std::size_t most = 0;
    for (const auto &[h, ids] : where) {
        if (ids.size() > most) {
            most = ids.size();
            host = h;
        }
    }
    if (host < 0)
        return 1;
    const std::vector<std::string> &ids = where.at(host);
    const int nodes = int((std::size_t(job.gpus) + most - 1) / most);
    std::string key = w->id + "|" + std::to_string(job.gpus) + "|" + std::to_string(host) + "|"
                      + std::to_string(nodes);
    for (const std::string &id : ids)
        key += "|" + id;
    if (const auto hit = m_cache.find(key); hit != m_cache.end())
        return hit->second;
    // Every GPU steps through the same local batch in both places, so step times compare.
    const int perGpu = std::max(1, perf::defaultGlobalBatch(*w, job.gpus) / job.gpus);
    const design::Device *first = m_design.device(ids.front());
    const design::Host *hostItem = m_design.host(m_r.hosts[std::size_t(host)]);
    const catalog::Gpu *gpu = first ? m_catalog.gpu(first->model) : nullptr;
    if (!gpu || !hostItem)
        return 1;
    // Where it was measured: ceil(n / 8) local PCIe servers sharing the GPUs evenly.
    perf::SystemSpec spec;
    spec.gpu = first->model;
    spec.nodes = (job.gpus + 7) / 8;
    spec.gpusPerNode = (job.gpus + spec.nodes - 1) / spec.nodes;
    spec.intraNode = perf::IntraNode::Pcie;
    spec.pcieGen = gpu->pcie.gen;
    spec.host = hostItem->model;
    const perf::Platform reference = perf::platformOf(spec, m_catalog);
    perf::Request request;
    request.globalBatch = perGpu * spec.gpusPerNode * spec.nodes;
    const double ref = perf::predict(reference, *w, request, perf::Calibration::builtin()).stepS;
    const double at = stepS(*w, perGpu * int(most) * nodes, host, ids, nodes, reference);
    const double f = at > 0 && ref > 0 && std::isfinite(at) && std::isfinite(ref) ? at / ref : 1;
    m_cache.emplace(std::move(key), f);
    return f;
}

double Stretcher::stepS(const workload::Workload &w, int globalBatch, int host,
                        const std::vector<std::string> &ids, int nodes,
                        const perf::Platform &reference)
{
    // The design with the job's GPUs composed to its host as one system, which keeps the host's
    // drives and NICs.
    design::Design d = m_design;
    const std::string &hostId = m_r.hosts[std::size_t(host)];
    const std::set<std::string> mine(ids.begin(), ids.end());
    std::vector<design::System> systems;
    design::System job{"job", hostId, ids};
    for (design::System s : d.systems) {
        if (s.host == hostId) {
            for (const std::string &id : s.devices) {
                const design::Device *dev = d.device(id);
                if (dev && !m_catalog.gpu(dev->model))
                    job.devices.push_back(id);
            }
            continue;
        }
        std::erase_if(s.devices, [&](const std::string &id) { return mine.count(id) > 0; });
        systems.push_back(std::move(s));
    }
    systems.push_back(std::move(job));
    d.systems = std::move(systems);
    const fabric::Analysis analysis = fabric::analyze(d, m_catalog);
    const std::size_t system = d.systems.size() - 1;
    if (system >= analysis.systems.size())
        return 0;
    perf::Platform platform = perf::platformOf(d, analysis, system, m_catalog);
    platform.nodes = nodes;
    // Hosts without a NIC of their own: the reference's network per GPU (one HDR port each).
    if (nodes > 1 && platform.networkGBps <= 0) {
        platform.networkGBps
            = reference.networkGBps / std::max(1, reference.gpusPerNode) * platform.gpusPerNode;
        platform.networkLatencyUs = reference.networkLatencyUs;
    }
    perf::Request request;
    request.globalBatch = globalBatch;
    return perf::predict(platform, w, request, perf::Calibration::builtin()).stepS;
}

} // namespace clab::schedule
