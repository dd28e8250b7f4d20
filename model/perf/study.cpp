#include "perf/study.h"

#include "catalog/catalog.h"
#include "design/design.h"
#include "fabric/analysis.h"
#include "perf/report.h"
#include "store/sha256.h"
#include "util/embedded.h"
#include "util/inputerror.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

namespace clab::perf {

namespace {

// Axes that change the hardware (each distinct combination is built and analysed once), then
// the ones that change only what runs on it.
const std::vector<std::string> kCompositionAxes
    = {"gpu", "gpus", "placement", "uplinks", "nvlink", "pcie_gen", "host", "nodes"};
const std::vector<std::string> kRequestAxes
    = {"benchmark", "global_batch", "precision", "software"};
// A design base already has its placement, links and host.
const std::set<std::string> kNodeOnlyAxes = {"placement", "uplinks", "nvlink", "pcie_gen", "host"};
constexpr int kMaxLocalGpus = 8;
constexpr std::size_t kMaxCompositions = 100'000;

bool isCompositionAxis(const std::string &name)
{
    return std::find(kCompositionAxes.begin(), kCompositionAxes.end(), name)
           != kCompositionAxes.end();
}

std::string joined(const std::vector<std::string> &names)
{
    std::string s;
    for (const std::string &n : names)
        s += (s.empty() ? "" : ", ") + n;
    return s;
}

// The keys of a catalog, library or calibration map, joined for a message.
template<typename Map>
std::string keysOf(const Map &map)
{
    std::vector<std::string> keys;
    for (const auto &entry : map)
        keys.push_back(entry.first);
    return joined(keys);
}

// Checks one value of an axis (or of the base); throws InputError listing what is allowed.
Json checkedValue(const std::string &axis, const Json &v, const std::string &file,
                  const std::string &pointer, const catalog::Catalog &catalog)
{
    auto fail = [&](const std::string &what) { throw InputError(file, "at " + pointer, what); };
    auto integer = [&](int lo, int hi) {
        if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
            fail(axis + ": expected a whole number from " + std::to_string(lo) + " to "
                 + std::to_string(hi) + ", got " + v.dump());
        return v;
    };
    auto text = [&]() {
        if (!v.is_string())
            fail(axis + ": expected a string, got " + v.dump());
        return v.get<std::string>();
    };
    if (axis == "gpu") {
        const std::string id = text();
        if (!catalog.gpu(id))
            fail("gpu: unknown GPU \"" + id + "\"; the catalog has " + keysOf(catalog.gpus()));
        return v;
    }
    if (axis == "gpus")
        return integer(1, 1024);
    if (axis == "placement") {
        const std::string p = text();
        if (p != "local" && p != "pooled")
            fail("placement: unknown \"" + p + "\"; expected local or pooled");
        return v;
    }
    if (axis == "uplinks")
        return integer(1, 16);
    if (axis == "nvlink") {
        if (!v.is_boolean())
            fail("nvlink: expected true or false, got " + v.dump());
        return v;
    }
    if (axis == "pcie_gen")
        return integer(3, 6);
    if (axis == "host") {
        const std::string id = text();
        if (!catalog.host(id))
            fail("host: unknown host \"" + id + "\"; the catalog has " + keysOf(catalog.hosts()));
        return v;
    }
    if (axis == "nodes")
        return integer(1, 100'000);
    if (axis == "benchmark") {
        const workload::Workload *w = workload::Library::builtin().find(text());
        if (!w)
            fail("benchmark: unknown \"" + v.get<std::string>()
                 + "\"; known: " + keysOf(workload::Library::builtin().all()));
        return w->id;
    }
    if (axis == "global_batch")
        return integer(0, 100'000'000);
    if (axis == "precision") {
        const auto p = parsePrecision(text());
        if (!p)
            fail("precision: unknown \"" + v.get<std::string>()
                 + "\"; expected fp32, tf32, fp16, bf16 or fp8");
        return precisionName(*p);
    }
    if (axis == "software") {
        const std::string s = text();
        const Calibration &c = Calibration::builtin();
        if (!c.knowsSoftware(s) && s.rfind("mlperf-", 0) != 0)
            fail("software: unknown stack \"" + s + "\"; calibrated: " + keysOf(c.software)
                 + " (or any mlperf-X.Y round)");
        return v;
    }
    throw InputError(file, "at " + pointer,
                     "unknown axis \"" + axis + "\"; a study varies " + joined(studyAxisNames()));
}

StudyNode readNode(ObjectReader r, const catalog::Catalog &catalog)
{
    StudyNode n;
    auto text = [&](const char *key, std::string &field) {
        if (r.has(key))
            field = checkedValue(key, r.raw(key), r.file(), r.pointer(key), catalog)
                        .get<std::string>();
    };
    text("gpu", n.gpu);
    n.gpus = r.integer("gpus", n.gpus, 1);
    text("placement", n.placement);
    n.uplinks = r.integer("uplinks", n.uplinks, 0);
    n.nvlink = r.boolean("nvlink", n.nvlink);
    n.pcieGen = r.integer("pcie_gen", n.pcieGen, 0);
    n.host = r.string("host", ""); // "": the default host of the PCIe generation
    if (!n.host.empty())
        checkedValue("host", n.host, r.file(), r.pointer("host"), catalog);
    n.nodes = r.integer("nodes", n.nodes, 1);
    r.finish();
    return n;
}

} // namespace

const std::vector<std::string> &studyAxisNames()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> all = kCompositionAxes;
        all.insert(all.end(), kRequestAxes.begin(), kRequestAxes.end());
        return all;
    }();
    return names;
}

std::uint64_t Study::points() const
{
    std::uint64_t n = 1;
    for (const StudyAxis &a : axes) {
        if (a.values.empty())
            return 0;
        if (n > kMaxPoints * 1000 / a.values.size())
            return kMaxPoints * 1000; // saturates: only compared with kMaxPoints
        n *= a.values.size();
    }
    return n;
}

Study readStudy(std::string_view text, const std::string &file, const catalog::Catalog &catalog)
{
    const Json root = parseJson(text, file);
    if (!root.is_object())
        throw InputError(
            file, "", "expected a study (a JSON object), got " + std::string(jsonTypeName(root)));
    ObjectReader r(root, "", file);
    Study s;
    s.file = file;
    s.text = std::string(text);
    s.sha256 = store::sha256Hex(s.text);
    if (r.string("format") != "composelab-study")
        r.fail("format", "expected \"composelab-study\"");
    const int version = r.integer("version", 1);
    if (version > Study::kVersion)
        r.fail("version", "written by a newer ComposeLab (study version " + std::to_string(version)
                              + "); this one reads version " + std::to_string(Study::kVersion));
    s.name = r.string("name");
    if (s.name.empty())
        r.fail("name", "a study needs a name");
    s.description = r.string("description", "");

    ObjectReader base = r.object("base");
    if (base.has("design")) {
        std::string designName;
        if (const Json &inline_ = base.raw("design"); inline_.is_object()) {
            // The design written into the study (the GUI's study of the open design).
            designName = file + " at " + base.pointer("design");
            s.baseDesign = std::make_shared<const design::Design>(
                design::readDesign(inline_.dump(), designName));
        } else {
            s.designPath = base.string("design");
            const std::filesystem::path p(s.designPath);
            if (p.is_relative())
                s.designPath = (std::filesystem::path(file).parent_path() / p).string();
            designName = s.designPath;
            s.baseDesign = std::make_shared<const design::Design>(
                design::loadDesign(s.designPath)); // throws InputError naming it
        }
        s.system = base.string("system", "");
        const design::Design &d = *s.baseDesign;
        bool found = s.system.empty() && !d.systems.empty();
        for (const design::System &sys : d.systems)
            found = found || sys.name == s.system;
        if (!found)
            base.fail("system", designName + " has no composed system named \"" + s.system + "\"");
        if (s.system.empty())
            s.system = d.systems.front().name;
    } else {
        s.node = readNode(base.object("node"), catalog);
    }
    auto request = [&](const char *key) {
        return base.has(key) ? checkedValue(key, base.raw(key), file, base.pointer(key), catalog)
                             : Json();
    };
    if (const Json b = request("benchmark"); b.is_string())
        s.benchmark = b.get<std::string>();
    if (const Json g = request("global_batch"); g.is_number_integer())
        s.globalBatch = g.get<int>();
    if (const Json p = request("precision"); p.is_string())
        s.precision = p.get<std::string>();
    if (const Json sw = request("software"); sw.is_string())
        s.software = sw.get<std::string>();
    base.finish();

    const Json &axes = r.array("axes");
    std::set<std::string> seen;
    for (std::size_t i = 0; i < axes.size(); ++i) {
        const std::string where = childPointer(r.pointer("axes"), i);
        if (!axes[i].is_object())
            throw InputError(file, "at " + where,
                             "expected an axis {\"name\": ..., \"values\": [...]}");
        ObjectReader a(axes[i], where, file);
        StudyAxis axis;
        axis.name = a.string("name");
        const auto &names = studyAxisNames();
        if (std::find(names.begin(), names.end(), axis.name) == names.end())
            a.fail("name", "unknown axis \"" + axis.name + "\"; a study varies " + joined(names));
        if (s.baseDesign && kNodeOnlyAxes.count(axis.name))
            a.fail("name", "the axis " + axis.name
                               + " needs a synthesised node base (\"base\": {\"node\": ...}); a "
                                 "design base varies gpu, gpus, nodes and the run");
        if (!seen.insert(axis.name).second)
            a.fail("name", "the axis " + axis.name + " is given twice");
        const Json &values = a.array("values");
        if (values.empty())
            a.fail("values", "an axis needs at least one value");
        std::set<std::string> distinct;
        for (std::size_t v = 0; v < values.size(); ++v) {
            const Json checked = checkedValue(axis.name, values[v], file,
                                              childPointer(a.pointer("values"), v), catalog);
            if (!distinct.insert(checked.dump()).second)
                throw InputError(file, "at " + childPointer(a.pointer("values"), v),
                                 axis.name + ": the value " + checked.dump() + " is given twice");
            axis.values.push_back(checked);
        }
        a.finish();
        s.axes.push_back(std::move(axis));
    }
    if (const Json *ex = r.optionalArray("exclude")) {
        for (std::size_t i = 0; i < ex->size(); ++i) {
            const std::string where = childPointer(r.pointer("exclude"), i);
            const Json &entry = (*ex)[i];
            if (!entry.is_object() || entry.empty())
                throw InputError(file, "at " + where, "expected an object of axis values to drop");
            std::map<std::string, Json> match;
            for (const auto &[key, value] : entry.items()) {
                if (!seen.count(key))
                    throw InputError(file, "at " + childPointer(where, key),
                                     "\"" + key + "\" is not an axis of this study");
                match[key] = checkedValue(key, value, file, childPointer(where, key), catalog);
            }
            s.exclude.push_back(std::move(match));
        }
    }
    r.finish();
    if (s.points() > Study::kMaxPoints) {
        long double exact = 1; // the product itself, which may not fit in 64 bits
        for (const StudyAxis &a : s.axes)
            exact *= a.values.size();
        char count[48];
        std::snprintf(count, sizeof count, exact < 1e18L ? "%.0Lf" : "%.3Lg", exact);
        throw InputError(file, "at /axes",
                         std::string("the study has ") + count + " points, more than the "
                             + std::to_string(Study::kMaxPoints) + " a study may have; split it");
    }
    std::uint64_t compositions = 1;
    for (const StudyAxis &a : s.axes)
        if (isCompositionAxis(a.name))
            compositions *= a.values.size();
    if (compositions > kMaxCompositions)
        throw InputError(file, "at /axes",
                         std::to_string(compositions) + " distinct compositions, more than "
                             + std::to_string(kMaxCompositions) + "; vary fewer hardware axes");
    return s;
}

bool isNodeOnlyAxis(const std::string &axis)
{
    return kNodeOnlyAxes.count(axis) > 0;
}

std::string designStudyText(const design::Design &design, const std::string &system,
                            const std::string &name)
{
    OrderedJson study;
    study["format"] = "composelab-study";
    study["version"] = Study::kVersion;
    study["name"] = name;
    study["description"] = "Variants of " + system + ", from its design.";
    study["base"]["design"] = OrderedJson::parse(design::writeDesign(design));
    study["base"]["system"] = system;
    study["axes"] = OrderedJson::array();
    return study.dump(2) + "\n";
}

std::string_view seedStudyText()
{
    for (const EmbeddedFile &f : embeddedFiles())
        if (f.path == "resources/studies/seed.clabstudy")
            return f.text;
    return {};
}

// The choice of every axis for one point.
struct StudyRunner::Decoded
{
    std::vector<std::size_t> choice;
    std::size_t composition = 0;
};

StudyRunner::Decoded StudyRunner::decode(std::uint64_t index) const
{
    Decoded d;
    d.choice.resize(m_study.axes.size());
    for (std::size_t i = m_study.axes.size(); i-- > 0;) {
        const std::size_t n = m_study.axes[i].values.size();
        d.choice[i] = std::size_t(index % n);
        index /= n;
    }
    for (int a : m_compositionAxes)
        d.composition
            = d.composition * m_study.axes[std::size_t(a)].values.size() + d.choice[std::size_t(a)];
    return d;
}

namespace {

// The composition values of one point: the base with the composition axes applied.
struct CompositionValues
{
    StudyNode node;
    bool uplinksVaried = false;
    bool uplinksFirst = true;
};

std::string compositionName(const Study &s, const StudyNode &n)
{
    std::string name;
    if (s.baseDesign) {
        name = s.system + " " + std::to_string(n.gpus) + "x " + n.gpu;
    } else {
        name = n.placement + " " + std::to_string(n.gpus) + "x " + n.gpu;
        if (n.placement == "pooled" && n.uplinks > 0)
            name += ", " + std::to_string(n.uplinks) + (n.uplinks == 1 ? " uplink" : " uplinks");
        if (n.nvlink)
            name += ", NVLink";
        if (n.pcieGen > 0)
            name += ", PCIe " + std::to_string(n.pcieGen);
        if (!n.host.empty())
            name += ", " + n.host;
    }
    if (n.nodes > 1)
        name += " x " + std::to_string(n.nodes) + " nodes";
    return name;
}

} // namespace

StudyRunner::StudyRunner(const Study &study, const catalog::Catalog &catalog,
                         const Calibration &calibration)
    : m_study(study)
    , m_calibration(calibration)
{
    std::size_t count = 1;
    for (std::size_t i = 0; i < study.axes.size(); ++i) {
        if (isCompositionAxis(study.axes[i].name)) {
            m_compositionAxes.push_back(int(i));
            count *= study.axes[i].values.size();
        }
    }
    // The design read with the study: the runner sees what readStudy checked.
    const design::Design *baseDesign = study.baseDesign.get();
    m_compositions.reserve(count);
    for (std::size_t c = 0; c < count; ++c) {
        // The composition axes' choices of composition c (mixed radix, last axis fastest).
        StudyNode n = study.node;
        std::size_t rest = c;
        bool uplinksNotFirst = false;
        for (std::size_t k = m_compositionAxes.size(); k-- > 0;) {
            const StudyAxis &axis = study.axes[std::size_t(m_compositionAxes[k])];
            const std::size_t pick = rest % axis.values.size();
            rest /= axis.values.size();
            const Json &v = axis.values[pick];
            if (axis.name == "gpu")
                n.gpu = v.get<std::string>();
            else if (axis.name == "gpus")
                n.gpus = v.get<int>();
            else if (axis.name == "placement")
                n.placement = v.get<std::string>();
            else if (axis.name == "uplinks") {
                n.uplinks = v.get<int>();
                uplinksNotFirst = pick > 0;
            } else if (axis.name == "nvlink")
                n.nvlink = v.get<bool>();
            else if (axis.name == "pcie_gen")
                n.pcieGen = v.get<int>();
            else if (axis.name == "host")
                n.host = v.get<std::string>();
            else if (axis.name == "nodes")
                n.nodes = v.get<int>();
        }
        Composition comp;
        if (baseDesign) {
            const design::System *sys = nullptr; // readStudy found it in this design
            for (const design::System &s : baseDesign->systems)
                if (s.name == study.system)
                    sys = &s;
            // The system's GPUs, in its order; the gpus axis keeps the first k of them.
            std::vector<std::string> gpus;
            std::set<std::string> gpuIds;
            for (const design::Device &dev : baseDesign->devices)
                if (catalog.gpu(dev.model))
                    gpuIds.insert(dev.id);
            for (const std::string &id : sys->devices)
                if (gpuIds.count(id))
                    gpus.push_back(id);
            bool gpusVaried = false, modelVaried = false;
            for (int a : m_compositionAxes) {
                gpusVaried = gpusVaried || study.axes[std::size_t(a)].name == "gpus";
                modelVaried = modelVaried || study.axes[std::size_t(a)].name == "gpu";
            }
            if (!gpusVaried)
                n.gpus = int(gpus.size());
            if (!modelVaried && !gpus.empty())
                for (const design::Device &dev : baseDesign->devices)
                    if (dev.id == gpus.front())
                        n.gpu = dev.model;
            comp.name = compositionName(study, n);
            if (std::size_t(n.gpus) > gpus.size()) {
                comp.dropped = study.system + " has " + std::to_string(gpus.size()) + " GPUs, not "
                               + std::to_string(n.gpus);
            } else {
                design::Design d = *baseDesign;
                std::set<std::string> keep(gpus.begin(), gpus.begin() + n.gpus);
                for (design::System &s : d.systems) {
                    if (s.name != study.system)
                        continue;
                    std::erase_if(s.devices, [&](const std::string &id) {
                        return gpuIds.count(id) && !keep.count(id);
                    });
                }
                for (design::Device &dev : d.devices)
                    if (keep.count(dev.id))
                        dev.model = n.gpu;
                const fabric::Analysis a = fabric::analyze(d, catalog);
                for (std::size_t i = 0; i < a.systems.size(); ++i)
                    if (a.systems[i].name == study.system)
                        comp.platform = platformOf(d, a, i, catalog);
                comp.design = design::writeDesign(d);
            }
        } else {
            comp.name = compositionName(study, n);
            const catalog::Gpu *gpu = catalog.gpu(n.gpu);
            if (n.placement == "local" && uplinksNotFirst)
                comp.dropped = "uplinks apply to pooled GPUs only";
            else if (n.placement == "local" && n.gpus > kMaxLocalGpus)
                comp.dropped = "a server holds at most " + std::to_string(kMaxLocalGpus)
                               + " GPUs on its own root ports; pool them";
            else if (gpu && gpu->formFactor == "OAM" && n.placement == "pooled")
                comp.dropped = n.gpu
                               + " is an OAM module: it sits on its maker's baseboard, "
                                 "not in a PCIe chassis";
            else if (gpu && gpu->formFactor == "OAM" && !n.nvlink)
                comp.dropped = n.gpu + "'s baseboard always joins its GPUs by " + gpu->peerLink
                               + ": nvlink false describes no such node";
            else if (n.nvlink && (!gpu || gpu->peerLinks == 0))
                comp.dropped = n.gpu + " has no NVLink";
            else if (n.nvlink && n.gpus < 2)
                comp.dropped = "NVLink needs two GPUs";
            else {
                SystemSpec spec;
                spec.gpu = n.gpu;
                spec.gpusPerNode = n.gpus;
                spec.nodes = n.nodes;
                spec.host = n.host;
                spec.pcieGen = n.pcieGen;
                spec.composable = n.placement == "pooled";
                spec.chassisUplinks = spec.composable ? n.uplinks : 0;
                // Cards pair up over bridges; OAM modules are a mesh on their baseboard.
                spec.intraNode = !n.nvlink                  ? IntraNode::Pcie
                                 : gpu->formFactor == "OAM" ? IntraNode::NvlinkMesh
                                                            : IntraNode::NvlinkBridge;
                comp.platform = platformOf(spec, catalog);
                comp.design = design::writeDesign(nodeDesign(spec, catalog));
            }
        }
        if (comp.platform && !comp.platform->gpu)
            comp.dropped = "the system has no GPU", comp.platform.reset();
        if (comp.platform) {
            comp.platform->nodes = n.nodes;
            if (n.nodes > 1 && comp.platform->networkGBps <= 0)
                comp.dropped = "no network joins the nodes", comp.platform.reset();
        }
        OrderedJson desc{{"gpu", n.gpu}, {"gpus", n.gpus}, {"nodes", n.nodes}};
        if (!study.baseDesign) {
            desc["placement"] = n.placement;
            desc["uplinks"] = n.uplinks;
            desc["nvlink"] = n.nvlink;
            desc["pcie_gen"] = n.pcieGen;
            desc["host"] = n.host;
        } else {
            desc["design"] = study.designPath.empty() ? "(in the study)" : study.designPath;
            desc["system"] = study.system;
        }
        desc["study"] = study.name;
        comp.description = desc.dump();
        m_compositions.push_back(std::move(comp));
    }
}

StudyRunner::~StudyRunner() = default;

StudyResult StudyRunner::evaluate(std::uint64_t index) const
{
    const Decoded d = decode(index);
    StudyResult r;
    r.index = index;
    r.composition = d.composition;
    std::string benchmark = m_study.benchmark, precision = m_study.precision,
                software = m_study.software;
    int globalBatch = m_study.globalBatch;
    r.axes.reserve(m_study.axes.size());
    for (std::size_t i = 0; i < m_study.axes.size(); ++i) {
        const StudyAxis &axis = m_study.axes[i];
        const Json &v = axis.values[d.choice[i]];
        r.axes.emplace_back(axis.name, v);
        if (axis.name == "benchmark")
            benchmark = v.get<std::string>();
        else if (axis.name == "global_batch")
            globalBatch = v.get<int>();
        else if (axis.name == "precision")
            precision = v.get<std::string>();
        else if (axis.name == "software")
            software = v.get<std::string>();
    }
    r.benchmark = benchmark;
    for (const auto &rule : m_study.exclude) {
        bool all = true;
        for (const auto &[axis, value] : rule)
            for (const auto &[name, v] : r.axes)
                all = all && (name != axis || v == value);
        if (all) {
            r.dropped = "excluded by the study";
            return r;
        }
    }
    const Composition &comp = m_compositions[d.composition];
    if (!comp.platform) {
        r.dropped = comp.dropped;
        return r;
    }
    const Platform &platform = *comp.platform;
    Request request;
    request.globalBatch = globalBatch;
    request.software = software;
    if (!precision.empty()) {
        request.precision = parsePrecision(precision);
        std::string note;
        peakTflops(*platform.gpu, *request.precision, &note);
        if (!note.empty()) {
            r.dropped = platform.gpu->id + " has no " + precision;
            return r;
        }
    }
    const int gpus = platform.gpusPerNode * platform.nodes;
    if (globalBatch > 0 && globalBatch < gpus) {
        r.dropped = "a global batch of " + std::to_string(globalBatch) + " leaves some of the "
                    + std::to_string(gpus) + " GPUs idle";
        return r;
    }
    const workload::Workload *w = workload::Library::builtin().find(benchmark);
    r.prediction = predict(platform, *w, request, m_calibration);
    if (!platform.bill.empty())
        r.prediction.energy = energyCostOf(platform, r.prediction, *w, partPrices());
    return r;
}

OrderedJson studyResultToJson(const StudyRunner &runner, const StudyResult &r)
{
    OrderedJson j;
    j["point"] = r.index;
    OrderedJson axes = OrderedJson::object();
    for (const auto &[name, value] : r.axes)
        axes[name] = value;
    j["axes"] = axes;
    j["system"] = runner.compositions()[r.composition].name;
    j["benchmark"] = r.benchmark;
    if (!r.dropped.empty()) {
        j["dropped"] = r.dropped;
        return j;
    }
    const Prediction &p = r.prediction;
    if (const auto &platform = runner.compositions()[r.composition].platform)
        j["gpus"] = platform->gpusPerNode * platform->nodes;
    j["global_batch"] = p.globalBatch;
    j["precision"] = precisionName(p.precision);
    j["step_ms"] = p.stepS * 1e3;
    j["throughput"] = p.throughput;
    j["throughput_interval"] = {p.intervalThroughput[0], p.intervalThroughput[1]};
    if (p.timeToTrainMin) {
        j["time_to_train_min"] = *p.timeToTrainMin;
        j["interval_min"] = {p.intervalMin[0], p.intervalMin[1]};
        j["breakdown_min"] = {{"compute", p.breakdownMin.compute},
                              {"communication", p.breakdownMin.communication},
                              {"input", p.breakdownMin.input},
                              {"evaluation", p.breakdownMin.evaluation}};
    }
    j["breakdown_step_ms"] = {{"compute", p.computeS * 1e3},
                              {"exposed_communication", p.exposedCommS * 1e3},
                              {"input_stall", p.stallS * 1e3}};
    j["utilization"] = p.utilization;
    if (p.energy) {
        j["energy_kwh"] = p.energy->kwh;
        j["cost_usd"] = p.energy->usd();
    }
    j["fits"] = p.fits;
    if (!p.extrapolation.empty())
        j["extrapolation"] = p.extrapolation;
    return j;
}

} // namespace clab::perf
