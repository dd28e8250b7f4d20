#include "catalog/catalog.h"
#include "perf/platform.h"
#include "perf/systemspec.h"

#include <QtTest>

using namespace clab;
using perf::IntraNode;

Q_DECLARE_METATYPE(perf::IntraNode)

namespace {

// A plain 8-GPU DGX A100 row; each test row changes only the fields it is about.
perf::MlperfSystemFields baseRow()
{
    perf::MlperfSystemFields f;
    f.accelerator = "NVIDIA A100-SXM4-80GB";
    f.acceleratorsPerNode = "8";
    f.numberOfNodes = "1";
    f.acceleratorCount = "8";
    f.hostProcessor = "AMD EPYC 7742";
    f.hostProcessorsPerNode = "2";
    f.hostProcessorCoreCount = "64";
    f.acceleratorInterconnect = "NVLINK 3.0, NVSWITCH 2.0 600GB/s";
    return f;
}

perf::SystemSpec parseOrFail(const perf::MlperfSystemFields &f)
{
    const perf::ParsedSystem p = perf::parseMlperfSystem(f, catalog::Catalog::builtin());
    if (!p.spec)
        qWarning("skipped: %s", p.skipReason.c_str());
    return p.spec.value_or(perf::SystemSpec{});
}

std::string s(const QString &text)
{
    return text.toStdString();
}

} // namespace

class TestSystemSpec : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void gpuNames_data();
    void gpuNames();
    void skipped_data();
    void skipped();
    void counts_data();
    void counts();
    void hosts_data();
    void hosts();
    void intraNode_data();
    void intraNode();
    void gracehopperFollowsTheText();
    void pcieLimitedByHost();
    void fourGpuBoardJoinsEveryPair();
    void network_data();
    void network();
    void composable_data();
    void composable();
};

void TestSystemSpec::gpuNames_data()
{
    QTest::addColumn<QString>("accelerator");
    QTest::addColumn<QString>("id"); // empty: no match
    // Spellings from the accelerator column of mlperf_training_calibration.csv.
    QTest::newRow("plain") << "NVIDIA H100-SXM5-80GB"
                           << "H100-SXM5-80GB";
    QTest::newRow("SXM without gen") << "NVIDIA A100-SXM-80GB"
                                     << "A100-SXM4-80GB";
    QTest::newRow("CTS") << "NVIDIA A100-SXM-80GB CTS"
                         << "A100-SXM4-80GB";
    QTest::newRow("400W") << "NVIDIA A100-SXM4-80GB (400W)"
                          << "A100-SXM4-80GB";
    QTest::newRow("500W no space") << "NVIDIA A100-SXM4-80GB(400W)"
                                   << "A100-SXM4-80GB";
    QTest::newRow("SXM 40 500W") << "NVIDIA A100-SXM-40GB"
                                 << "A100-SXM4-40GB";
    QTest::newRow("no vendor") << "A100-SXM4-40GB"
                               << "A100-SXM4-40GB";
    QTest::newRow("PCIE caps") << "NVIDIA A100-PCIE-80GB (300W)"
                               << "A100-PCIe-80GB";
    QTest::newRow("PCIe 40 250W") << "NVIDIA A100-PCIe-40GB(250W)"
                                  << "A100-PCIe-40GB";
    QTest::newRow("HBM3") << "NVIDIA H100 80GB HBM3"
                          << "H100-SXM5-80GB";
    QTest::newRow("NVL long") << "H100 NVL Tensor Core GPU (PCIe)"
                              << "H100-NVL-94GB";
    QTest::newRow("NVL short") << "NVIDIA H100 NVL"
                               << "H100-NVL-94GB";
    QTest::newRow("H100 SXM") << "NVIDIA H100-SXM-80GB"
                              << "H100-SXM5-80GB";
    QTest::newRow("H200") << "NVIDIA H200-SXM5-141GB"
                          << "H200-SXM5-141GB";
    QTest::newRow("DGX-2H") << "Tesla V100-SXM3-32GB-H"
                            << "V100-SXM3-32GB";
    QTest::newRow("SXM3 450W") << "NVIDIA V100-SXM3-32GB (450W)"
                               << "V100-SXM3-32GB";
    QTest::newRow("Nvidia Tesla") << "Nvidia Tesla V100-SXM2-32GB"
                                  << "V100-SXM2-32GB";
    QTest::newRow("V100 300W") << "NVIDIA V100-SXM2-16GB (300W)"
                               << "V100-SXM2-16GB";
    QTest::newRow("A30") << "NVIDIA A30"
                         << "A30";
    QTest::newRow("L40") << "NVIDIA L40"
                         << "L40";
    QTest::newRow("L40S not L40") << "NVIDIA L40S"
                                  << "L40S";
    QTest::newRow("L4 not L40") << "NVIDIA L4"
                                << "";
    QTest::newRow("bare A100") << "NVIDIA A100"
                               << "";
    QTest::newRow("B200") << "NVIDIA Blackwell GPU (B200-SXM-180GB)"
                          << "B200-SXM-180GB";
    QTest::newRow("H200 NVL") << "NVIDIA H200 NVL"
                              << "H200-NVL-141GB";
    // AMD's parts the catalog has are found by their MLPerf names; other AMD parts are not NVIDIA.
    QTest::newRow("MI300X") << "AMD Instinct MI300X 192GB HBM3"
                            << "MI300X-OAM-192GB";
    QTest::newRow("MI325X DLC") << "AMD Instinct MI325X 256GB HBM3E DLC"
                                << "MI325X-OAM-256GB";
    QTest::newRow("MI250X") << "AMD Instinct MI250X"
                            << "";
    QTest::newRow("TPU") << "tpu-v3"
                         << "";
}

void TestSystemSpec::gpuNames()
{
    QFETCH(QString, accelerator);
    QFETCH(QString, id);
    const auto got = perf::matchGpu(s(accelerator), catalog::Catalog::builtin());
    QCOMPARE(QString::fromStdString(got.value_or(std::string())), id);
}

void TestSystemSpec::skipped_data()
{
    QTest::addColumn<QString>("accelerator");
    QTest::addColumn<QString>("perNode");
    QTest::addColumn<QString>("reason");
    QTest::newRow("TPU") << "TPU v3"
                         << "8"
                         << "non-NVIDIA accelerator: TPU v3";
    QTest::newRow("tpu-v3") << "tpu-v3"
                            << "128"
                            << "non-NVIDIA accelerator";
    QTest::newRow("Gaudi2") << "Intel Gaudi2"
                            << "8"
                            << "non-NVIDIA accelerator";
    QTest::newRow("Habana") << "Habana Gaudi HL-205"
                            << "8"
                            << "non-NVIDIA accelerator";
    QTest::newRow("IPU") << "Graphcore IPU GC200"
                         << "16"
                         << "non-NVIDIA accelerator";
    QTest::newRow("Ascend") << "Ascend 910 Pro A"
                            << "8"
                            << "non-NVIDIA accelerator";
    QTest::newRow("Radeon") << "AMD Radeon RX 7900 XTX"
                            << "6"
                            << "non-NVIDIA accelerator";
    QTest::newRow("CPU only") << "N/A"
                              << "0"
                              << "non-NVIDIA accelerator: N/A";
    QTest::newRow("L4") << "NVIDIA L4"
                        << "6"
                        << "GPU not in catalog: NVIDIA L4";
    QTest::newRow("A5000") << "NVIDIA RTX A5000"
                           << "2"
                           << "GPU not in catalog";
    QTest::newRow("A40") << "NVIDIA A40"
                         << "24"
                         << "GPU not in catalog";
    QTest::newRow("B300") << "NVIDIA Blackwell Ultra GPU (B300-SXM-288GB)"
                          << "8"
                          << "GPU not in catalog";
    QTest::newRow("A100") << "NVIDIA A100"
                          << "8"
                          << "accelerator name too vague: NVIDIA A100";
    QTest::newRow("V100") << "Nvidia Tesla V100"
                          << "8"
                          << "too vague";
    QTest::newRow("zero GPUs") << "NVIDIA A100-SXM4-80GB"
                               << "0"
                               << "no GPUs per node";
    QTest::newRow("garbage count") << "NVIDIA A100-SXM4-80GB"
                                   << "eight"
                                   << "unparseable GPU count";
}

void TestSystemSpec::skipped()
{
    QFETCH(QString, accelerator);
    QFETCH(QString, perNode);
    QFETCH(QString, reason);
    perf::MlperfSystemFields f = baseRow();
    f.accelerator = s(accelerator);
    f.acceleratorsPerNode = s(perNode);
    f.acceleratorCount.clear();
    const perf::ParsedSystem p = perf::parseMlperfSystem(f, catalog::Catalog::builtin());
    QVERIFY(!p.spec);
    QVERIFY2(QString::fromStdString(p.skipReason).contains(reason), p.skipReason.c_str());
}

void TestSystemSpec::counts_data()
{
    QTest::addColumn<QString>("perNode");
    QTest::addColumn<QString>("nodes");
    QTest::addColumn<QString>("total");
    QTest::addColumn<int>("gpusPerNode");
    QTest::addColumn<int>("nodeCount");
    QTest::newRow("given") << "8"
                           << "64"
                           << "512" << 8 << 64;
    QTest::newRow("per node missing") << ""
                                      << "16"
                                      << "128" << 8 << 16;
    QTest::newRow("nodes missing") << "4"
                                   << ""
                                   << "2048" << 4 << 512;
    QTest::newRow("only total") << ""
                                << ""
                                << "8" << 8 << 1;
}

void TestSystemSpec::counts()
{
    QFETCH(QString, perNode);
    QFETCH(QString, nodes);
    QFETCH(QString, total);
    perf::MlperfSystemFields f = baseRow();
    f.acceleratorsPerNode = s(perNode);
    f.numberOfNodes = s(nodes);
    f.acceleratorCount = s(total);
    const perf::SystemSpec spec = parseOrFail(f);
    QTEST(spec.gpusPerNode, "gpusPerNode");
    QTEST(spec.nodes, "nodeCount");
}

void TestSystemSpec::hosts_data()
{
    QTest::addColumn<QString>("processor");
    QTest::addColumn<QString>("sockets");
    QTest::addColumn<QString>("cores");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("coresPerNode");
    QTest::newRow("EPYC") << "AMD EPYC 7742"
                          << "2"
                          << "64"
                          << "epyc-7742-2s" << 128;
    QTest::newRow("EPYC total in field") << "AMD EPYC 7742"
                                         << "2"
                                         << "128"
                                         << "epyc-7742-2s" << 128;
    QTest::newRow("EPYC 64-Core") << "AMD EPYC 7763 64-Core Processor"
                                  << "2"
                                  << "64"
                                  << "epyc-7763-2s" << 128;
    QTest::newRow("EPYC 127") << "AMD EPYC 7763 64-Core Processor"
                              << "2"
                              << "127"
                              << "epyc-7763-2s" << 127;
    QTest::newRow("8480C") << "Intel(R) Xeon(R) Platinum 8480C"
                           << "2"
                           << "56"
                           << "xeon-platinum-8480plus-2s" << 112;
    QTest::newRow("8480+ GHz") << "Intel(R) Xeon(R) Platinum 8480+ @ 2.00GHz"
                               << "2"
                               << ""
                               << "xeon-platinum-8480plus-2s" << 112;
    QTest::newRow("8380 GHz") << "Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz"
                              << "2"
                              << "40"
                              << "xeon-platinum-8380-2s" << 80;
    QTest::newRow("8380H is not 8380") << "Intel(R) Xeon(R) Platinum 8380H CPU @ 2.90GHz"
                                       << "8"
                                       << "28"
                                       << "" << 224;
    QTest::newRow("6248R is not 6248") << "Intel(R) Xeon(R) Gold 6248R CPU @ 3.00GHz"
                                       << "2"
                                       << "48"
                                       << "" << 96;
    QTest::newRow("Gold 6330 plain") << "Intel Xeon Gold 6330"
                                     << "2"
                                     << "28"
                                     << "xeon-gold-6330-2s" << 56;
    QTest::newRow("2x prefix, no counts") << "2x Intel(R) Xeon(R) Platinum 8174 CPU @ 3.10GHz"
                                          << ""
                                          << ""
                                          << "" << 0;
    QTest::newRow("9654") << "AMD EPYC 9654 96-Core Processor"
                          << "2"
                          << "96"
                          << "epyc-9654-2s" << 192;
    QTest::newRow("unknown with name cores") << "AMD EPYC 9634 84-Core Processor"
                                             << "2"
                                             << ""
                                             << "" << 168;
    QTest::newRow("one socket of a 2s host") << "AMD EPYC 7742"
                                             << "1"
                                             << "64"
                                             << "" << 64;
    QTest::newRow("no spaces") << "Intel(R)Xeon(R)Platinum 8490H"
                               << "2"
                               << "60"
                               << "" << 120;
}

void TestSystemSpec::hosts()
{
    QFETCH(QString, processor);
    QFETCH(QString, sockets);
    QFETCH(QString, cores);
    perf::MlperfSystemFields f = baseRow();
    f.hostProcessor = s(processor);
    f.hostProcessorsPerNode = s(sockets);
    f.hostProcessorCoreCount = s(cores);
    const perf::SystemSpec spec = parseOrFail(f);
    QTEST(QString::fromStdString(spec.host), "host");
    QTEST(spec.hostCoresPerNode, "coresPerNode");
}

void TestSystemSpec::intraNode_data()
{
    QTest::addColumn<QString>("accelerator");
    QTest::addColumn<QString>("perNode");
    QTest::addColumn<QString>("interconnect");
    QTest::addColumn<QString>("hostInterconnect");
    QTest::addColumn<IntraNode>("kind");
    QTest::addColumn<int>("nvlinkGen");
    QTest::addColumn<int>("pcieGen");
    QTest::newRow("DGX A100") << "NVIDIA A100-SXM4-80GB"
                              << "8"
                              << "NVLINK 3.0, NVSWITCH 2.0 600GB/s"
                              << "" << IntraNode::NvSwitch << 3 << 4;
    QTest::newRow("DGX H100") << "NVIDIA H100-SXM5-80GB"
                              << "8"
                              << "NVLINK Gen4 900 GB/s + NVSWITCH Gen3"
                              << "Infiniband NDR" << IntraNode::NvSwitch << 4 << 5;
    QTest::newRow("4th Gen") << "NVIDIA H200-SXM5-141GB"
                             << "8"
                             << "18x 4th Gen NVLink, 900GB/s"
                             << "" << IntraNode::NvSwitch << 4 << 5;
    QTest::newRow("B200, rate only") << "NVIDIA Blackwell GPU (B200-SXM-180GB)"
                                     << "8"
                                     << "NVLink 1800 GB/s"
                                     << "" << IntraNode::NvSwitch << 5 << 5;
    QTest::newRow("B200, empty") << "NVIDIA Blackwell GPU (B200-SXM-180GB)"
                                 << "8"
                                 << ""
                                 << "" << IntraNode::NvSwitch << 5 << 5;
    // An AMD Instinct board joins every pair by xGMI, however MLPerf writes it (v5.0: AMD
    // "XGMI", Dell "Infinity Fabric Link", Oracle "None", GigaComputing nothing).
    QTest::newRow("MI300X, XGMI") << "AMD Instinct MI300X 192GB HBM3"
                                  << "8"
                                  << "XGMI"
                                  << "PCIe Gen5 x16" << IntraNode::NvlinkMesh << 0 << 5;
    QTest::newRow("MI300X, None") << "AMD Instinct MI300X 192GB HBM3"
                                  << "8"
                                  << "None"
                                  << "" << IntraNode::NvlinkMesh << 0 << 5;
    QTest::newRow("MI325X, empty") << "AMD Instinct MI325X 256GB HBM3e"
                                   << "8"
                                   << ""
                                   << "" << IntraNode::NvlinkMesh << 0 << 5;
    // MLPerf writes a GB200 NVL72 rack as nodes of 4 GPUs (one compute tray); its GPUs reach
    // each other through the NVLink switch trays whatever the field says.
    QTest::newRow("GB200 tray, empty") << "NVIDIA GB200"
                                       << "4"
                                       << ""
                                       << "" << IntraNode::NvSwitch << 5 << 5;
    QTest::newRow("GB200, NVLink Gen5") << "NVIDIA GB200"
                                        << "4"
                                        << "NVLINK Gen5 1800 GB/s"
                                        << "" << IntraNode::NvSwitch << 5 << 5;
    QTest::newRow("NVLink only, 8 SXM") << "NVIDIA A100-SXM4-80GB (500W)"
                                        << "8"
                                        << "NVLink"
                                        << "PCIe Gen4" << IntraNode::NvSwitch << 3 << 4;
    QTest::newRow("rate only") << "NVIDIA A100-SXM4-80GB(400W)"
                               << "8"
                               << "NVLink 600 GB/s"
                               << "PCIe Gen4 64 GB/s" << IntraNode::NvSwitch << 3 << 4;
    QTest::newRow("4 SXM no switch") << "NVIDIA A100-SXM-80GB CTS"
                                     << "4"
                                     << "NVLink 3.0 600GB/s"
                                     << "PCIe 4.0x16" << IntraNode::NvlinkMesh << 3 << 4;
    QTest::newRow("H100 says NVLink 3") << "NVIDIA H100-SXM5-80GB"
                                        << "4"
                                        << "NVLINK 3.0"
                                        << "PCIe 5.0 x16" << IntraNode::NvlinkMesh << 4 << 5;
    QTest::newRow("SXM says PCIe") << "NVIDIA A100-SXM4-80GB"
                                   << "4"
                                   << "PCIe 4.0"
                                   << "PCIe 4.0x16" << IntraNode::NvlinkMesh << 3 << 4;
    QTest::newRow("empty, 8 SXM") << "NVIDIA H100-SXM5-80GB"
                                  << "8"
                                  << ""
                                  << "" << IntraNode::NvSwitch << 4 << 5;
    QTest::newRow("N/A, 8 SXM") << "NVIDIA A100-SXM-80GB"
                                << "8"
                                << "N/A"
                                << "PCIe 4.0x16" << IntraNode::NvSwitch << 3 << 4;
    QTest::newRow("network in column") << "NVIDIA A100-SXM4-80GB"
                                       << "8"
                                       << "2 x 200Gbe Ethernet"
                                       << "PCIe Gen4 x16" << IntraNode::NvSwitch << 3 << 4;
    QTest::newRow("DGX-1") << "NVIDIA V100-SXM2-16GB (300W)"
                           << "8"
                           << "NVLINK2.0 300GB/s"
                           << "" << IntraNode::NvlinkMesh << 2 << 3;
    QTest::newRow("DGX-2H") << "Tesla V100-SXM3-32GB-H"
                            << "16"
                            << "InfiniBand 100 Gb/sec (4X EDR)"
                            << "" << IntraNode::NvSwitch << 2 << 3;
    QTest::newRow("DGX-2 text") << "NVIDIA V100-SXM3-32GB (450W)"
                                << "16"
                                << "NVLINK 2.0, NVSWITCH 1.0 300GB/s"
                                << "" << IntraNode::NvSwitch << 2 << 3;
    QTest::newRow("bridge A100 PCIe") << "NVIDIA A100-PCIe-80GB"
                                      << "16"
                                      << "NVLINK BRIDGE"
                                      << "PCIe 4.0 x16" << IntraNode::NvlinkBridge << 3 << 4;
    QTest::newRow("bridge A30 gen3 host") << "NVIDIA A30"
                                          << "8"
                                          << "NVLINK BRIDGE"
                                          << "PCIe 3.0x16" << IntraNode::NvlinkBridge << 3 << 3;
    QTest::newRow("PCIe, Gen5") << "NVIDIA H100-PCIe-80GB"
                                << "8"
                                << "PCIe, Gen5"
                                << "" << IntraNode::Pcie << 0 << 5;
    QTest::newRow("PCIe gen4 x16") << "NVIDIA A100-PCIe-80GB"
                                   << "10"
                                   << "PCIe gen4 x16"
                                   << "" << IntraNode::Pcie << 0 << 4;
    QTest::newRow("L40 empty") << "NVIDIA L40"
                               << "10"
                               << ""
                               << "PCIe 4.0x16" << IntraNode::Pcie << 0 << 4;
    QTest::newRow("NVL pair") << "H100 NVL Tensor Core GPU (PCIe)"
                              << "2"
                              << ""
                              << "PCIe 5.0x16" << IntraNode::NvlinkBridge << 4 << 5;
    QTest::newRow("host says gen5 for A100") << "NVIDIA A100-SXM4-80GB"
                                             << "8"
                                             << "NVLink"
                                             << "PCIe 5.0 x16" << IntraNode::NvSwitch << 3 << 4;
    QTest::newRow("one GPU") << "NVIDIA A100-SXM4-80GB"
                             << "1"
                             << "NVLink"
                             << "PCIe Gen4" << IntraNode::Pcie << 0 << 4;
}

void TestSystemSpec::intraNode()
{
    QFETCH(QString, accelerator);
    QFETCH(QString, perNode);
    QFETCH(QString, interconnect);
    QFETCH(QString, hostInterconnect);
    perf::MlperfSystemFields f = baseRow();
    f.accelerator = s(accelerator);
    f.acceleratorsPerNode = s(perNode);
    f.acceleratorCount.clear();
    f.acceleratorInterconnect = s(interconnect);
    f.acceleratorHostInterconnect = s(hostInterconnect);
    f.hostProcessor = "Intel(R) Xeon(R) Platinum 8480C"; // PCIe 5, so the GPU sets the limit
    f.hostProcessorCoreCount = "56";
    const perf::SystemSpec spec = parseOrFail(f);
    QTEST(spec.intraNode, "kind");
    QTEST(spec.nvlinkGen, "nvlinkGen");
    QTEST(spec.pcieGen, "pcieGen");
}

// Only a Grace-Blackwell superchip implies NVLink switch trays. A Grace-Hopper superchip (one
// GPU; a user's catalog part here, with GH200's published figures) in a node of four is read from
// the interconnect text like any other part.
void TestSystemSpec::gracehopperFollowsTheText()
{
    catalog::Catalog cat = catalog::Catalog::builtin();
    cat.addFile(R"({"gpus": [{"id": "GH200-96GB", "name": "NVIDIA GH200 96 GB", "arch": "Hopper",
        "formFactor": "Superchip", "tflops": {"fp32": 67, "tf32": 494, "fp16": 989, "bf16": 989,
        "fp8": 1979}, "memGB": 96, "memBwGBps": 4000, "nvlink": {"gen": 4, "links": 18},
        "pcie": {"gen": 5, "lanes": 16}, "tdpW": 1000, "aliases": ["NVIDIA GH200"],
        "source": "a test part"}]})",
                "gh200.json");
    perf::MlperfSystemFields f = baseRow();
    f.accelerator = "NVIDIA GH200";
    f.acceleratorsPerNode = "4";
    f.acceleratorCount.clear();
    f.hostProcessor = "Intel(R) Xeon(R) Platinum 8480C";
    f.acceleratorInterconnect.clear();
    perf::ParsedSystem p = perf::parseMlperfSystem(f, cat);
    QVERIFY2(p.spec, p.skipReason.c_str());
    QCOMPARE(p.spec->intraNode, IntraNode::Pcie);
    f.accelerator = "NVIDIA GB200"; // the same fields, a Blackwell superchip: switch trays
    p = perf::parseMlperfSystem(f, cat);
    QVERIFY2(p.spec, p.skipReason.c_str());
    QCOMPARE(p.spec->intraNode, IntraNode::NvSwitch);
}

void TestSystemSpec::pcieLimitedByHost()
{
    // No host-interconnect text: a PCIe 5 H100 board behind a PCIe 4 EPYC 7742 runs at gen 4.
    perf::MlperfSystemFields f = baseRow();
    f.accelerator = "NVIDIA H100-SXM5-80GB";
    f.acceleratorInterconnect = "NVLINK Gen4 900 GB/s + NVSWITCH Gen3";
    QCOMPARE(parseOrFail(f).pcieGen, 4);
    f.hostProcessor = "AMD EPYC 9654";
    f.hostProcessorCoreCount = "96";
    QCOMPARE(parseOrFail(f).pcieGen, 5);
}

// An HGX 4-GPU H100 board links every pair directly, 6 of each GPU's 18 NVLinks to each peer,
// so the node reads as an NVLink mesh (no pair through the host).
void TestSystemSpec::fourGpuBoardJoinsEveryPair()
{
    perf::MlperfSystemFields f = baseRow();
    f.accelerator = "NVIDIA H100-SXM5-80GB";
    f.acceleratorsPerNode = "4";
    f.acceleratorCount = "4";
    f.acceleratorInterconnect = "NVLINK 4.0";
    f.hostProcessor = "AMD EPYC 9654";
    f.hostProcessorCoreCount = "96";
    const perf::SystemSpec spec = parseOrFail(f);
    QCOMPARE(spec.intraNode, perf::IntraNode::NvlinkMesh);
    const design::Design d = perf::nodeDesign(spec, catalog::Catalog::builtin());
    int pairs = 0;
    for (const auto &l : d.links) {
        if (l.kind.rfind("nvlink", 0) != 0)
            continue;
        ++pairs;
        QCOMPARE(l.count, 6);
    }
    QCOMPARE(pairs, 6);
    const perf::Platform p = perf::platformOf(spec, catalog::Catalog::builtin());
    QCOMPARE(p.linkKey, std::string("nvlink-mesh"));
    // A collective uses all three of a GPU's pair links at once (several rings), not one.
    std::string kind;
    for (const auto &l : d.links)
        if (l.kind.rfind("nvlink", 0) == 0)
            kind = l.kind;
    const catalog::LinkKind *link = catalog::Catalog::builtin().link(kind);
    QVERIFY(link);
    QCOMPARE(p.ringGBps, 3 * link->achievedGBps(6));
}

void TestSystemSpec::network_data()
{
    QTest::addColumn<QString>("networking");
    QTest::addColumn<QString>("interconnect");
    QTest::addColumn<double>("gbps");
    QTest::addColumn<QString>("family");
    // From the brief and from the host_networking column of the CSV.
    QTest::newRow("8x HDR") << "8x 200Gb/s HDR InfiniBand"
                            << "" << 1600.0 << "infiniband";
    QTest::newRow("x8 after") << "InfiniBand HDR 200Gb/s x8"
                              << "" << 1600.0 << "infiniband";
    QTest::newRow("NDR 400G") << "4x NDR 400G"
                              << "" << 1600.0 << "infiniband";
    QTest::newRow("eth") << "10x 100Gb/s Ethernet"
                         << "" << 1000.0 << "ethernet";
    QTest::newRow("name only") << "Mellanox ConnectX-6 HDR"
                               << "" << 200.0 << "infiniband";
    QTest::newRow("CX7 x8") << "NVIDIA ConnectX-7 400Gb/s InfiniBand x8"
                            << "" << 3200.0 << "infiniband";
    QTest::newRow("DGX A100 labelled")
        << "Storage: 2x ConnectX-6 IB HDR 200Gb/sec, Management: 1x ConnectX-6 Ethernet "
           "100Gb/Sec, Compute: 8x ConnectX-6 IB HDR 200Gb/Sec"
        << "" << 1600.0 << "infiniband";
    QTest::newRow("DGX H100 labelled")
        << "Storage: 2x ConnectX-7 IB NDR 400Gb/s, Compute: 8x ConnectX-7 IB NDR 400Gb/s, "
           "Management: 100Gb/s Ethernet NIC"
        << "" << 3200.0 << "infiniband";
    QTest::newRow("unlabelled 2x") << "2x ConnectX-6 IB HDR 200Gb/Sec"
                                   << "" << 400.0 << "infiniband";
    QTest::newRow("spaced units")
        << "Management: 1 x 100 Gb / Sec Ethernet, Compute: 8 x ConnectX - 7 IB NDR 400 Gb / "
           "Sec, Storage: 1x ConnectX - 7 IB NDR200 200Gb / Sec"
        << "" << 3200.0 << "infiniband";
    QTest::newRow("plus separator")
        << "Compute: 4 x Mellanox Technologies MT28908 Family [ConnectX-6] HDR 200 Gb/Sec +  "
           "Management: 1 x Mellanox Technologies MT28908 Family [ConnectX-6] 100 GB/s Ethernet"
        << "" << 800.0 << "infiniband";
    QTest::newRow("unlabelled mixed") << "1x Ethernet 80Gb/Sec, 8x NVIDIA NDR (400Gb/s)"
                                      << "" << 3200.0 << "infiniband";
    QTest::newRow("dual port") << "Management: iDRAC9, ExpressX5 Compute: Mellanox ConnectX-5 "
                                  "Dual Port 40/ 100GbE QSFP Adapter PCIe"
                               << "" << 200.0 << "ethernet";
    QTest::newRow("Intel X710 is no count")
        << "Intel X710 2x10GbE SFP+, Mellanox ConnectX-6 HDR100/100GbE QSFP56"
        << "" << 100.0 << "infiniband";
    QTest::newRow("management only") << "Management: 1x Ethernet 10GB/Sec"
                                     << "" << 0.0 << "";
    QTest::newRow("word only") << "Infiniband"
                               << "" << 0.0 << "infiniband";
    QTest::newRow("bytes are not a NIC rate")
        << "ROCE2; Data bandwidth for GPU-PCIe: 504 GB/s; PCIe-NIC: 500 GB/s"
        << "" << 0.0 << "ethernet";
    QTest::newRow("Gbe with InfiniBand") << "8x 200Gbe Infiniband, 2x 10GbE Ethernet"
                                         << "" << 1600.0 << "infiniband";
    QTest::newRow("EW and NS") << "BF3 200Gbps for NS and 2xBF3 400Gbps for EW"
                               << "" << 800.0 << "";
    QTest::newRow("fallback 4X EDR") << ""
                                     << "InfiniBand 100 Gb/sec (4X EDR)" << 100.0 << "infiniband";
    QTest::newRow("fallback ethernet") << "N/A"
                                       << "2x 400Gbe Ethernet" << 800.0 << "ethernet";
    QTest::newRow("Omni-Path") << "2x Cornelis Networks Omni-Path HFI Adapter 100 Series 100Gb/Sec"
                               << "" << 200.0 << "infiniband";
    // 1 GbE between training nodes is their management port (v0.7 4xC4140, v4.0 Juniper a100_n8):
    // the fabric is then another field's, or not described.
    QTest::newRow("1 GbE is management") << "1Gb Ethernet"
                                         << "" << 0.0 << "";
    QTest::newRow("Gig Ethernet beside the fabric") << "Gig Ethernet"
                                                    << "2 x 200Gbe Ethernet" << 400.0 << "ethernet";
}

void TestSystemSpec::network()
{
    QFETCH(QString, networking);
    QFETCH(QString, interconnect);
    perf::MlperfSystemFields f = baseRow();
    f.numberOfNodes = "2";
    f.acceleratorCount = "16";
    f.hostNetworking = s(networking);
    if (!interconnect.isEmpty())
        f.acceleratorInterconnect = s(interconnect);
    const perf::SystemSpec spec = parseOrFail(f);
    QTEST(spec.networkGbpsPerNode, "gbps");
    QTEST(QString::fromStdString(spec.networkFamily), "family");
}

void TestSystemSpec::composable_data()
{
    QTest::addColumn<QString>("hwNotes");
    QTest::addColumn<bool>("composable");
    QTest::newRow("Fujitsu PCI box") << "GPUs are installed in an external PCI box." << true;
    QTest::newRow("Liqid") << "Liqid composable fabric" << true;
    QTest::newRow("CDI") << "CDI system" << true;
    QTest::newRow("TDP") << "GPU TDP:500W" << false;
    QTest::newRow("cooling") << "Hybrid Liquid-Air Cooling, 500W A100" << false;
    QTest::newRow("server") << "Dell Poweredge XE9680" << false;
}

void TestSystemSpec::composable()
{
    QFETCH(QString, hwNotes);
    perf::MlperfSystemFields f = baseRow();
    f.accelerator = "NVIDIA A100-PCIe-80GB";
    f.acceleratorsPerNode = "10";
    f.acceleratorCount = "10";
    f.acceleratorInterconnect = "PCIe gen4 x16";
    f.hwNotes = s(hwNotes);
    const perf::SystemSpec spec = parseOrFail(f);
    QTEST(spec.composable, "composable");
    QCOMPARE(spec.intraNode, IntraNode::Pcie);
}

QTEST_APPLESS_MAIN(TestSystemSpec)
#include "tst_systemspec.moc"
