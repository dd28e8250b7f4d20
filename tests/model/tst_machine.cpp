// A machine becomes a design: `nvidia-smi topo -m` in every layout drivers have printed (own
// fixtures, written for each variant), `nvidia-smi -L` for the GPU model, MLPerf system files; and
// the published outputs of ../shared/reference/tool_outputs where that folder exists.
#include "catalog/catalog.h"
#include "design/rules.h"
#include "fabric/analysis.h"
#include "design/designindex.h"
#include "machine/machine.h"
#include "perf/calibration.h"
#include "perf/platform.h"
#include "perf/service.h"
#include "util/fileio.h"
#include "workload/workload.h"
#include "util/inputerror.h"

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace clab;
using namespace clab::machine;

namespace {

const catalog::Catalog &cat()
{
    return catalog::Catalog::builtin();
}

// Today's layout: spaces, a prompt, NIC rows without affinity cells, the NIC legend.
const char *kTwoSockets = R"(me@gpubox7:~$ nvidia-smi topo -m
        GPU0    GPU1    GPU2    GPU3    NIC0    NIC1    CPU Affinity    NUMA Affinity   GPU NUMA ID
GPU0     X      NODE    SYS     SYS     NODE    SYS     0-23    0               N/A
GPU1    NODE     X      SYS     SYS     NODE    SYS     0-23    0               N/A
GPU2    SYS     SYS      X      PHB     SYS     NODE    24-47   1               N/A
GPU3    SYS     SYS     PHB      X      SYS     NODE    24-47   1               N/A
NIC0    NODE    NODE    SYS     SYS      X      SYS
NIC1    SYS     SYS     NODE    NODE    SYS      X

Legend:

  X    = Self
  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)
  NV#  = Connection traversing a bonded set of # NVLinks

NIC Legend:

  NIC0: mlx5_0
  NIC1: mlx5_3
)";

// Two levels of PCIe switch: pairs one bridge apart (PIX), the pairs several apart (PXB).
const char *kSwitchTree = "\tGPU0\tGPU1\tGPU2\tGPU3\tCPU Affinity\tNUMA Affinity\n"
                          "GPU0\t X \tPIX\tPXB\tPXB\t0-15\t0\n"
                          "GPU1\tPIX\t X \tPXB\tPXB\t0-15\t0\n"
                          "GPU2\tPXB\tPXB\t X \tPIX\t0-15\t0\n"
                          "GPU3\tPXB\tPXB\tPIX\t X \t0-15\t0\n";

// A 2017 driver: no leading tab, SOC, CPU affinity only; then a user's comment.
const char *kOldSoc
    = "GPU0\tGPU1\tGPU2\tCPU Affinity\n"
      "GPU0\t X \tPHB\tSOC\t0-9\n"
      "GPU1\tPHB\t X \tSOC\t0-9\n"
      "GPU2\tSOC\tSOC\t X \t10-19\n"
      "\nLegend:\n\nX   = Self\nSOC  = Connection traversing PCIe as well as the SMP "
      "link between CPU sockets(e.g. QPI)\n\n---\nlooks odd to me\n";

// ANSI underline around the header, as a terminal shows it; no affinity columns at all.
const char *kEscapes = "\t\x1b[4mGPU0\tGPU1\tGPU2\tGPU3\x1b[0m\r\n"
                       "GPU0\t X \tPHB\tSYS\tSYS\r\n"
                       "GPU1\tPHB\t X \tSYS\tSYS\r\n"
                       "GPU2\tSYS\tSYS\t X \tPHB\r\n"
                       "GPU3\tSYS\tSYS\tPHB\t X \r\n";

// A bridged pair, and the `topo -p2p` matrix printed before it in the same paste.
const char *kBridged = R"($ nvidia-smi topo -p2p r
        GPU0    GPU1
 GPU0   X       OK
 GPU1   OK      X

$ nvidia-smi topo -m
        GPU0    GPU1    CPU Affinity    NUMA Affinity   GPU NUMA ID
GPU0     X      NV4     0-31    0               N/A
GPU1    NV4      X      0-31    0               N/A
)";

const design::Link *link(const design::Design &d, const std::string &a, const std::string &b)
{
    for (const auto &l : d.links)
        if ((l.from == a && l.to == b) || (l.from == b && l.to == a))
            return &l;
    return nullptr;
}

double p2p(const fabric::Analysis &a, const std::string &from, const std::string &to)
{
    for (const auto &p : a.systems.front().p2p)
        if (p.from == from && p.to == to)
            return p.GBps;
    return -1;
}

MachineDesign build(const char *topo, const std::string &gpu, MachineOptions options = {})
{
    options.gpu = gpu;
    return buildMachine({{"topo.txt", topo}}, options, cat());
}

} // namespace

class TestMachine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsTodaysLayout();
    void socketsFromNuma();
    void switchTreeFromPixAndPxb();
    void oldSocWithCpuAffinity();
    void escapesAndNoAffinity();
    void nvlinkCountAndP2pMatrixSkipped();
    void badMatrices_data();
    void badMatrices();
    void gpuNamesFromNvidiaSmi();
    void gpuModelOrder();
    void mlperfSystems();
    void mlperfSystemNics_data();
    void mlperfSystemNics();
    void nicsBoundTheCluster();
    void sharedOutputs();
    void measurementsAttached();
    void sharedMeasuredAgainstModelled();
};

void TestMachine::readsTodaysLayout()
{
    const TopoMatrix t = parseTopoMatrix(kTwoSockets, "a.txt");
    QCOMPARE(t.devices.size(), std::size_t(6));
    QCOMPARE(t.hostName, std::string("gpubox7"));
    QCOMPARE(t.cell(0, 2), std::string("SYS"));
    QCOMPARE(t.cell(2, 3), std::string("PHB"));
    QCOMPARE(t.cell(4, 0), std::string("NODE"));
    QCOMPARE(t.cpuAffinity[2], std::string("24-47"));
    QCOMPARE(t.numaAffinity[3], std::string("1"));
    QVERIFY(t.cpuAffinity[4].empty()); // NIC rows print no affinity
    QCOMPARE(t.nicNames.at("NIC1"), std::string("mlx5_3"));
    QVERIFY(!t.isGpu(4));
}

void TestMachine::socketsFromNuma()
{
    const MachineDesign m = build(kTwoSockets, "A100-PCIe-80GB");
    const design::Design &d = m.design;
    QCOMPARE(d.name, std::string("gpubox7"));
    QCOMPARE(d.systems.size(), std::size_t(1));
    QCOMPARE(d.systems.front().devices.size(), std::size_t(6));
    // NUMA 0 holds GPU0, GPU1 and NIC0 (NODE to them); NUMA 1 the others. No PIX: no switch.
    QVERIFY(d.switches.empty());
    QVERIFY(link(d, "host/cpu0", "gpu0") && link(d, "host/cpu0", "gpu1"));
    QVERIFY(link(d, "host/cpu1", "gpu2") && link(d, "host/cpu1", "gpu3"));
    QVERIFY(link(d, "host/cpu0", "nic0") && link(d, "host/cpu1", "nic1"));
    QCOMPARE(link(d, "host/cpu0", "gpu0")->kind, std::string("pcie4x16"));
    QCOMPARE(d.device("nic1")->name, std::string("mlx5_3"));
    QVERIFY(design::checkDesign(d, cat()).empty());
    // The analysis sees what the matrix says: a socket crossing between GPU0 and GPU2.
    const fabric::Analysis a = fabric::analyze(d, cat());
    QVERIFY(p2p(a, "gpu0", "gpu2") < p2p(a, "gpu0", "gpu1"));
    // What was assumed is said, in the notes and in the design's description.
    QVERIFY(!m.notes.empty());
    QVERIFY(d.description.find("assumed") != std::string::npos);
}

void TestMachine::switchTreeFromPixAndPxb()
{
    const design::Design d = build(kSwitchTree, "A100-PCIe-80GB").design;
    // One switch under the socket, two under it, two GPUs under each.
    QCOMPARE(d.switches.size(), std::size_t(3));
    QVERIFY(link(d, "host/cpu0", "plx0"));
    QVERIFY(link(d, "plx0", "plx1") && link(d, "plx0", "plx2"));
    QVERIFY(link(d, "plx1", "gpu0") && link(d, "plx1", "gpu1"));
    QVERIFY(link(d, "plx2", "gpu2") && link(d, "plx2", "gpu3"));
    QVERIFY(design::checkDesign(d, cat()).empty());
    // GPU0 to GPU1 stays under its switch; GPU0 to GPU2 crosses the top one: longer routes.
    const fabric::Analysis a = fabric::analyze(d, cat());
    for (const auto &p : a.systems.front().p2p) {
        if (p.from == "gpu0" && p.to == "gpu1")
            QCOMPARE(p.route.size(), std::size_t(3));
        if (p.from == "gpu0" && p.to == "gpu2")
            QCOMPARE(p.route.size(), std::size_t(5));
    }
}

void TestMachine::oldSocWithCpuAffinity()
{
    const TopoMatrix t = parseTopoMatrix(kOldSoc, "old.txt");
    QCOMPARE(t.devices.size(), std::size_t(3));
    QCOMPARE(t.cell(0, 2), std::string("SOC"));
    QVERIFY(t.numaAffinity[0].empty());
    const design::Design d = build(kOldSoc, "V100-PCIe-16GB").design;
    QVERIFY(link(d, "host/cpu0", "gpu0") && link(d, "host/cpu0", "gpu1"));
    QVERIFY(link(d, "host/cpu1", "gpu2"));
    QCOMPARE(link(d, "host/cpu0", "gpu0")->kind, std::string("pcie3x16"));
    QCOMPARE(d.name, std::string("machine"));
}

void TestMachine::escapesAndNoAffinity()
{
    const TopoMatrix t = parseTopoMatrix(kEscapes, "esc.txt");
    QCOMPARE(t.devices.size(), std::size_t(4));
    QCOMPARE(t.cell(3, 0), std::string("SYS"));
    // Without affinity columns the SYS-separated groups are the sockets.
    const design::Design d = build(kEscapes, "T4").design;
    QVERIFY(link(d, "host/cpu0", "gpu0") && link(d, "host/cpu0", "gpu1"));
    QVERIFY(link(d, "host/cpu1", "gpu2") && link(d, "host/cpu1", "gpu3"));
}

void TestMachine::nvlinkCountAndP2pMatrixSkipped()
{
    QVERIFY(looksLikeTopoMatrix(kBridged));
    const TopoMatrix t = parseTopoMatrix(kBridged, "bridge.txt");
    QCOMPARE(t.cell(0, 1), std::string("NV4"));
    const design::Design d = build(kBridged, "A100-PCIe-80GB").design;
    const design::Link *nv = link(d, "gpu0", "gpu1");
    QVERIFY(nv);
    QCOMPARE(nv->kind, std::string("nvlink3"));
    QCOMPARE(nv->count, 4);
    const fabric::Analysis a = fabric::analyze(d, cat());
    // Four NVLink 3 links (25 GB/s a direction each) beat the x16 Gen4 path.
    QVERIFY(p2p(a, "gpu0", "gpu1") > 60);
    // A GPU without NVLink: the bond is left out and said so.
    const MachineDesign l40 = build(kBridged, "L40");
    QVERIFY(!link(l40.design, "gpu0", "gpu1"));
    bool said = false;
    for (const auto &n : l40.notes)
        said = said || n.find("NV4") != std::string::npos;
    QVERIFY(said);
}

void TestMachine::badMatrices_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("cut short") << "\tGPU0\tGPU1\tGPU2\nGPU0\t X \tPIX\tSYS\nGPU1\tPIX\t X \tSYS\n"
                               << "line 4: the matrix ends before GPU2's row";
    QTest::newRow("unknown code") << "\tGPU0\tGPU1\nGPU0\t X \tQPI\nGPU1\tQPI\t X \n"
                                  << "line 2: 'QPI' in GPU0's row, column GPU1: expected X, NV#";
    QTest::newRow("no matrix") << "Fri Jun 7 12:00:00 2024\n+----+\n| NVIDIA-SMI 550 |\n"
                               << "no `nvidia-smi topo -m` matrix found";
}

void TestMachine::badMatrices()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    try {
        parseTopoMatrix(text.toStdString(), "bad.txt");
        QFAIL("accepted a bad matrix");
    } catch (const InputError &e) {
        const QString what = QString::fromStdString(e.what());
        QVERIFY2(what.startsWith(QLatin1String("bad.txt")), qPrintable(what));
        QVERIFY2(what.contains(expected), qPrintable(what));
    }
}

void TestMachine::gpuNamesFromNvidiaSmi()
{
    const std::vector<std::string> listed
        = gpuNames("GPU 0: NVIDIA H100 PCIe (UUID: GPU-1f2e)\r\nGPU 1: NVIDIA H100 PCIe (UUID: "
                   "GPU-77aa)\n");
    QCOMPARE(listed, (std::vector<std::string>{"NVIDIA H100 PCIe", "NVIDIA H100 PCIe"}));
    QCOMPARE(gpuNames("name\nTesla V100-SXM2-16GB\nTesla V100-SXM2-16GB\n").size(), std::size_t(2));
    QCOMPARE(gpuNames("NVIDIA A100-SXM4-80GB\n").front(), std::string("NVIDIA A100-SXM4-80GB"));
    QVERIFY(gpuNames("hello world\n").empty());
    QVERIFY(gpuNames("GPU 1: NVIDIA T4 (UUID: x)\n").empty()); // GPU 0 missing: not a full list
    QCOMPARE(kindOf("GPU 0: NVIDIA T4 (UUID: GPU-1)\n"), InputKind::GpuNames);
    QCOMPARE(kindOf(kTwoSockets), InputKind::TopoMatrix);
    QCOMPARE(kindOf("{\"accelerator_model_name\": \"NVIDIA T4\"}"), InputKind::MlperfSystem);
    QCOMPARE(kindOf("# nThread 1 nGpus 8\n"), InputKind::Other);
}

void TestMachine::gpuModelOrder()
{
    const std::string names = "GPU 0: NVIDIA H100 PCIe (UUID: GPU-a)\nGPU 1: NVIDIA H100 PCIe "
                              "(UUID: GPU-b)\n";
    // 2. The -L output among the files.
    MachineDesign m = buildMachine({{"topo.txt", kBridged}, {"L.txt", names}}, {}, cat());
    QCOMPARE(m.design.device("gpu1")->model, std::string("H100-PCIe-80GB"));
    QCOMPARE(link(m.design, "gpu0", "gpu1")->kind, std::string("nvlink4"));
    // 1. --gpu wins over it.
    MachineOptions options;
    options.gpu = "A100-PCIe-80GB";
    m = buildMachine({{"topo.txt", kBridged}, {"L.txt", names}}, options, cat());
    QCOMPARE(m.design.device("gpu0")->model, std::string("A100-PCIe-80GB"));
    // 3. Neither: an error that lists the catalog's GPUs.
    try {
        buildMachine({{"topo.txt", kBridged}}, {}, cat());
        QFAIL("built without a GPU model");
    } catch (const InputError &e) {
        const std::string what = e.what();
        QVERIFY2(what.find("topo.txt") == 0, what.c_str());
        QCOMPARE(e.place(), std::string("gpu"));                      // the CLI shows it as --gpu
        QVERIFY2(what.find("--") == std::string::npos, what.c_str()); // no CLI flags in the model
        QVERIFY2(what.find("H100-SXM5-80GB") != std::string::npos, what.c_str());
    }
    // A name the catalog does not have is named.
    try {
        buildMachine({{"topo.txt", kBridged},
                      {"L.txt", "GPU 0: NVIDIA GeForce GTX 480 (UUID: "
                                "GPU-x)\nGPU 1: NVIDIA GeForce GTX 480 "
                                "(UUID: GPU-y)\n"}},
                     {}, cat());
        QFAIL("accepted an unknown GPU");
    } catch (const InputError &e) {
        QVERIFY2(std::string(e.what()).find("GTX 480") != std::string::npos, e.what());
    }
}

void TestMachine::mlperfSystems()
{
    // Every number a string, tab indentation, no final newline: as submitters write them.
    const std::string composable
        = "{\n\t\"system_name\": \"cdi-8x\",\n\t\"number_of_nodes\": \"1\",\n"
          "\t\"accelerators_per_node\": \"8\",\n"
          "\t\"accelerator_model_name\": \"NVIDIA A100-PCIe-80GB\",\n"
          "\t\"host_processor_model_name\": \"Intel(R) Xeon(R) Gold 6430\",\n"
          "\t\"host_processors_per_node\": \"2\",\n\t\"host_processor_core_count\": \"32\",\n"
          "\t\"accelerator_interconnect\": \"PCIe gen4 x16\",\n"
          "\t\"hw_notes\": \"GPUs are installed in an external PCI box.\",\n"
          "\t\"other_software_stack\": \"cuda 12\"\n}";
    const MachineDesign m = buildMachine({{"cdi.json", composable}}, {}, cat());
    QCOMPARE(m.design.name, std::string("cdi-8x"));
    QCOMPARE(m.design.devices.size(), std::size_t(8));
    QVERIFY(!m.design.chassis.empty());
    QVERIFY(!m.design.devices.front().chassis.empty());
    QCOMPARE(m.design.hosts.front().model, std::string("xeon-gold-6430-2s"));
    QVERIFY(!m.design.cluster);

    const std::string cluster = R"({"system_name": "pod", "number_of_nodes": 4,
        "accelerators_per_node": 8, "accelerator_model_name": "NVIDIA H100-SXM5-80GB",
        "accelerator_interconnect": "NVLINK Gen4 900 GB/s + NVSWITCH Gen3",
        "host_networking": "8x 400Gb/s NDR InfiniBand"})";
    const MachineDesign c = buildMachine({{"pod.json", cluster}}, {}, cat());
    QVERIFY(c.design.cluster);
    QCOMPARE(c.design.cluster->nodes, 4);
    QCOMPARE(c.design.cluster->system, std::string("pod"));
    QVERIFY(fabric::findingsOf(c.design, cat()).empty()); // the cluster rule included

    try {
        buildMachine({{"tpu.json", R"({"accelerator_model_name": "TPU-v5e",
                                       "accelerators_per_node": "4", "number_of_nodes": "2"})"}},
                     {}, cat());
        QFAIL("built a TPU system");
    } catch (const InputError &e) {
        QVERIFY2(std::string(e.what()).find("tpu.json") == 0, e.what());
        QVERIFY2(std::string(e.what()).find("non-NVIDIA") != std::string::npos, e.what());
    }
}

// The host networking field becomes the node's NICs: count and model from the description, and
// the node's network bandwidth their line rate at the link's achieved fraction (0.82 for
// InfiniBand, 0.8 for Ethernet), each no more than its PCIe slot: the A100 host is Gen4, so an
// NDR card gets pcie4x16's 31.5 x 0.82 = 25.83 GB/s, not 50 x 0.82 = 41.
void TestMachine::mlperfSystemNics_data()
{
    QTest::addColumn<QString>("networking");
    QTest::addColumn<int>("nics");
    QTest::addColumn<QString>("models"); // the NIC models, sorted, comma-separated
    QTest::addColumn<double>("GBps");
    QTest::addColumn<QString>("note");
    QTest::newRow("two HDR cards")
        << "2x ConnectX-6 IB HDR 200Gb/s" << 2 << "cx6-hdr-1p" << 2 * 25 * 0.82 << "2 x cx6-hdr-1p";
    QTest::newRow("Clemson's HDR100, spaced units")
        << "Management: 1 x 25 Gb / Sec Ethernet, Compute: 1 x ConnectX - 6 IB HDR100 100 Gb / Sec"
        << 1 << "cx5-edr-1p" << 12.5 * 0.82 << "1 network port of 100 Gb/s";
    QTest::newRow("eight NDR in Gen4 slots")
        << "8x 400Gb/s NDR InfiniBand" << 8 << "cx7-ndr-1p" << 8 * 31.5 * 0.82 << "8 x cx7-ndr-1p";
    QTest::newRow("one 100GbE port: a one-port card")
        << "1x 100GbE RoCE" << 1 << "cx5-edr-1p" << 12.5 * 0.82 << "1 x cx5-edr-1p";
    QTest::newRow("two 100GbE ports, one dual-port card")
        << "2x 100GbE RoCE" << 1 << "cx6dx-100gbe-2p" << 2 * 12.5 * 0.8 << "1 x cx6dx-100gbe-2p";
    QTest::newRow("two rates, two kinds of card")
        << "8x 400Gb/s NDR, 2x 200Gb/s HDR InfiniBand" << 10 << "cx6-hdr-1p,cx7-ndr-1p"
        << 8 * 31.5 * 0.82 + 2 * 25 * 0.82 << "2 x cx6-hdr-1p";
    QTest::newRow("no catalog NIC at 25 Gb/s")
        << "2x 25GbE Ethernet" << 0 << "" << 0.0 << "no catalog NIC runs at 25 Gb/s";
    QTest::newRow("no rate: an HDR port a GPU, as for MLPerf rows")
        << "InfiniBand" << 4 << "cx6-hdr-1p" << 4 * 25 * 0.82 << "one 200 Gb/s port a GPU";
}

void TestMachine::mlperfSystemNics()
{
    QFETCH(QString, networking);
    QFETCH(int, nics);
    QFETCH(QString, models);
    QFETCH(double, GBps);
    QFETCH(QString, note);
    const std::string json = R"({"system_name": "n", "number_of_nodes": "2",
        "accelerators_per_node": "4", "accelerator_model_name": "NVIDIA A100-SXM4-40GB",
        "accelerator_interconnect": "NVLINK 3.0", "host_networking": ")"
                             + networking.toStdString() + "\"}";
    const MachineDesign m = buildMachine({{"n.json", json}}, {}, cat());
    int found = 0;
    std::set<std::string> seen;
    for (const design::Device &d : m.design.devices) {
        if (cat().nic(d.model)) {
            ++found;
            seen.insert(d.model);
        }
    }
    QCOMPARE(found, nics);
    QStringList names;
    for (const std::string &id : seen)
        names << QString::fromStdString(id);
    QCOMPARE(names.join(QLatin1Char(',')), models);
    QVERIFY(design::checkDesign(m.design, cat()).empty());
    QVERIFY2(m.design.description.find(note.toStdString()) != std::string::npos,
             m.design.description.c_str());
    // The NICs are the system's: copies of it (`predict --nodes`) are joined through them.
    const fabric::Analysis a = fabric::analyze(m.design, cat());
    const perf::Platform p = perf::platformOf(m.design, a, 0, cat());
    QVERIFY2(std::abs(p.networkGBps - GBps) < 1e-9 * std::max(1.0, GBps),
             std::to_string(p.networkGBps).c_str());
}

// A cluster's topology gives every GPU its own 4 x 400 Gb/s endpoint; the node's NICs bound what
// the gradients really get. Two XE8545-like nodes (4 A100, BERT's 335M fp16 gradients): with
// one HDR card the inter-node all-reduce moves grad x 2(n-1)/n = grad at 0.82 x 25 GB/s.
void TestMachine::nicsBoundTheCluster()
{
    auto allreduce = [](const std::string &networking) {
        const std::string json = R"({"system_name": "n", "number_of_nodes": "2",
            "accelerators_per_node": "4", "accelerator_model_name": "NVIDIA A100-SXM4-40GB",
            "accelerator_interconnect": "NVLINK 3.0", "host_networking": ")"
                                 + networking + "\"}";
        const MachineDesign m = buildMachine({{"n.json", json}}, {}, cat());
        const fabric::Analysis a = fabric::analyze(m.design, cat());
        const design::DesignIndex index(m.design);
        const workload::Workload *w = workload::Library::builtin().find("bert_large");
        const auto c
            = perf::predictDesignCluster(index, a, *w, {}, perf::Calibration::builtin(), cat());
        return std::pair(c->prediction.allreduceS, w->allreduceParameters * 2.0);
    };
    const auto [oneCard, grad] = allreduce("1x ConnectX-6 HDR 200Gb/s");
    const auto [fourCards, grad4] = allreduce("4x ConnectX-6 HDR 200Gb/s");
    const double fraction = cat().link("ib-hdr")->achievedFraction;
    QVERIFY2(oneCard >= grad / (25e9 * fraction), std::to_string(oneCard).c_str());
    QVERIFY2(oneCard < 1.5 * grad / (25e9 * fraction), std::to_string(oneCard).c_str());
    QVERIFY(fourCards < oneCard);
    QVERIFY(grad4 > 6e8); // BERT-Large's 340 M parameters in 2 B
}

void TestMachine::sharedOutputs()
{
    const std::filesystem::path root
        = std::filesystem::path(CLAB_SHARED_DIR) / "reference" / "tool_outputs";
    if (!std::filesystem::exists(root / "index.csv"))
        QSKIP("../shared/reference/tool_outputs is absent");
    // index.csv's hand-read values: "gpus=4; GPU0-GPU1=NODE; ..." for every topo file.
    std::ifstream index(root / "index.csv");
    std::string line;
    int checked = 0;
    while (std::getline(index, line)) {
        if (line.rfind("nvsmi_topo/", 0) != 0)
            continue;
        const std::string file = line.substr(0, line.find(','));
        const TopoMatrix t = parseTopoMatrix(readTextFile((root / file).string()), file);
        std::size_t gpus = 0;
        for (std::size_t i = 0; i < t.devices.size(); ++i)
            gpus += t.isGpu(i) ? 1 : 0;
        const auto at = line.find("gpus=");
        QVERIFY2(at != std::string::npos, file.c_str());
        QCOMPARE(gpus, std::size_t(std::stoi(line.substr(at + 5))));
        std::size_t pos = at;
        while ((pos = line.find("GPU0-GPU", pos)) != std::string::npos) {
            const int other = line[pos + 8] - '0';
            const std::size_t eq = line.find('=', pos);
            const std::string code
                = line.substr(eq + 1, line.find_first_of(";\"\r\n", eq) - eq - 1);
            QVERIFY2(t.cell(0, std::size_t(other)) == code,
                     (file + ": GPU0-GPU" + std::to_string(other) + " is '"
                      + t.cell(0, std::size_t(other)) + "', expected '" + code + "'")
                         .c_str());
            pos = eq;
        }
        // Every one builds a design the rules accept.
        const MachineDesign m = buildMachine({{file, readTextFile((root / file).string())}},
                                             {"A100-PCIe-80GB", {}, {}, {}}, cat());
        QVERIFY2(design::checkDesign(m.design, cat()).empty(), file.c_str());
        ++checked;
    }
    QVERIFY(checked >= 5);
    for (const auto &entry : std::filesystem::directory_iterator(root / "mlperf_system_json")) {
        const std::string text = readTextFile(entry.path().string());
        const std::string name = entry.path().filename().string();
        if (name.find("tpu") != std::string::npos || name.find("gaudi") != std::string::npos) {
            QVERIFY_THROWS_EXCEPTION(InputError, buildMachine({{name, text}}, {}, cat()));
            continue;
        }
        const MachineDesign m = buildMachine({{name, text}}, {}, cat());
        QVERIFY2(!m.design.devices.empty(), name.c_str());
    }
}

QTEST_APPLESS_MAIN(TestMachine)
// The tool outputs given with the matrix become the design's measurements: the best
// unidirectional value per transfer, the tools' GPU i as gpu<i>, and their files as sources.
void TestMachine::measurementsAttached()
{
    const std::string data = std::string(CLAB_TEST_DATA) + "/import/";
    const std::vector<MachineInput> inputs
        = {{"topo.txt", kTwoSockets},
           {data + "p2p_bandwidth_latency.txt", readTextFile(data + "p2p_bandwidth_latency.txt")},
           {data + "bandwidth_test.txt", readTextFile(data + "bandwidth_test.txt")},
           {data + "nccl_all_reduce.txt", readTextFile(data + "nccl_all_reduce.txt")}};
    const MachineDesign m = buildMachine(inputs, {"A100-PCIe-80GB", {}, {}, {}}, cat());
    std::map<std::string, int> kinds;
    for (const design::Measurement &x : m.design.measurements) {
        ++kinds[x.kind];
        QVERIFY(!x.source.empty() && x.GBps > 0);
        QVERIFY2(x.test.find("idirectional") == std::string::npos
                     || x.test.find("Unidirectional") == 0,
                 x.test.c_str());
    }
    QCOMPARE(kinds["p2p"], 6); // 3 GPUs of the matrix output: 3 x 2 ordered pairs
    QCOMPARE(kinds["h2d"], 1);
    QCOMPARE(kinds["d2h"], 1);
    QCOMPARE(kinds["collective"], 1);
    const auto bus = std::find_if(m.design.measurements.begin(), m.design.measurements.end(),
                                  [](const auto &x) { return x.kind == "collective"; });
    QCOMPARE(bus->GBps, 205.33); // all_reduce out of place at the largest size (128 MiB)
    // The analysis sets them beside the model's values.
    const fabric::Analysis a = fabric::analyze(m.design, cat());
    QVERIFY(a.systems.at(0).h2d.at(0).measuredGBps);
    QVERIFY(a.systems.at(0).measuredBusGBps);
}

// The published outputs of two real machines, their matrix with their p2p and bandwidthTest
// runs: the model's host-to-device and NVLink-bridge values are within 15 % of the measured.
void TestMachine::sharedMeasuredAgainstModelled()
{
    const std::filesystem::path root
        = std::filesystem::path(CLAB_SHARED_DIR) / "reference" / "tool_outputs";
    if (!std::filesystem::exists(root / "index.csv"))
        QSKIP("../shared/reference/tool_outputs is absent");
    const auto input = [&](const char *file) {
        return MachineInput{file, readTextFile((root / file).string())};
    };
    // HPE DL380a, two H100 PCIe joined by an NVLink bridge (NV12): p2p 256.6 GB/s measured.
    const MachineDesign h100
        = buildMachine({input("nvsmi_topo/08-hpe-dl380a-2x-h100pcie-nvlink-bridge-nv12.txt"),
                        input("p2p/07-hpe-dl380a-2x-h100pcie-nvlink-bridge.txt")},
                       {"H100-PCIe-80GB", {}, {}, {}}, cat());
    const fabric::Analysis h100Analysis = fabric::analyze(h100.design, cat());
    const auto &bridged = h100Analysis.systems.at(0).p2p.at(0);
    QVERIFY(bridged.measuredGBps);
    qInfo("H100 PCIe NVLink bridge p2p: model %.1f, measured %.1f GB/s", bridged.GBps,
          *bridged.measuredGBps);
    QVERIFY(!fabric::offByMoreThanTolerance(bridged.GBps, *bridged.measuredGBps));
    // ASUS ESC8000A, four RTX 6000 Ada (the catalog's L40S is the same Ada PCIe Gen4 board).
    const MachineDesign asus
        = buildMachine({input("nvsmi_topo/01-asus-esc8000a-4x-rtx6000ada-4nic.txt"),
                        input("p2p/01-asus-esc8000a-4x-rtx6000ada.txt"),
                        input("bandwidthtest/01-asus-esc8000a-rtx6000ada-dev0-quick.txt")},
                       {"L40S", {}, {}, {}}, cat());
    const fabric::Analysis asusAnalysis = fabric::analyze(asus.design, cat());
    const auto &s = asusAnalysis.systems.at(0);
    QVERIFY(s.h2d.at(0).measuredGBps);
    qInfo("ASUS h2d: model %.1f, measured %.1f GB/s", s.h2d[0].aloneGBps, *s.h2d[0].measuredGBps);
    QVERIFY(!fabric::offByMoreThanTolerance(s.h2d[0].aloneGBps, *s.h2d[0].measuredGBps));
    int peers = 0;
    for (const auto &p : s.p2p) {
        if (p.measuredGBps) {
            ++peers;
            qInfo("ASUS p2p %s->%s (%s): model %.1f, measured %.1f GB/s", p.from.c_str(),
                  p.to.c_str(), fabric::routeKindName(p.kind), p.GBps, *p.measuredGBps);
        }
    }
    QCOMPARE(peers, 12);
}

#include "tst_machine.moc"
