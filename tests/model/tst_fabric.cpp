#include "catalog/catalog.h"
#include "design/examples.h"
#include "fabric/analysis.h"

#include <QtTest>

#include <fstream>
#include <map>

using namespace clab;

namespace {

const catalog::Catalog &cat()
{
    return catalog::Catalog::builtin();
}

double achieved(const char *link, int count = 1)
{
    return cat().link(link)->achievedGBps(count);
}

design::Design example(const std::string &name)
{
    for (const auto &e : design::bundledExamples()) {
        if (e.fileName == name)
            return design::readDesign(e.text, e.fileName);
    }
    throw std::logic_error("no example " + name);
}

const fabric::SystemReport &systemNamed(const fabric::Analysis &a, const std::string &prefix)
{
    for (const auto &s : a.systems) {
        if (s.name.rfind(prefix, 0) == 0)
            return s;
    }
    throw std::logic_error("no system " + prefix);
}

const fabric::PeerToPeer &pair(const fabric::SystemReport &s, const std::string &from,
                               const std::string &to)
{
    for (const auto &p : s.p2p) {
        if (p.from == from && p.to == to)
            return p;
    }
    throw std::logic_error("no pair " + from + " " + to);
}

const fabric::HostToDevice &h2d(const fabric::SystemReport &s, const std::string &device)
{
    for (const auto &h : s.h2d) {
        if (h.device == device)
            return h;
    }
    throw std::logic_error("no device " + device);
}

// One host with `gpus` A100 PCIe GPUs in a Falcon chassis behind one x16 host cable.
design::Design gpusBehindOneUplink(int gpus, const char *cable = "pcie4x16",
                                   const char *host = "epyc-7742-2s")
{
    design::Design d;
    d.hosts.push_back({"h", host, {}});
    d.chassis.push_back({"pool", "h3-falcon-4016", {}});
    d.links.push_back({"h/cpu0", "pool/up0", cable, 1, {}});
    design::System s{"s", "h", {}};
    for (int i = 0; i < gpus; ++i) {
        const std::string id = "g" + std::to_string(i);
        d.devices.push_back({id, "A100-PCIe-40GB", {}, "pool", i});
        s.devices.push_back(id);
    }
    d.systems.push_back(s);
    return d;
}

// Splits one CSV line with double-quoted fields.
std::vector<std::string> csvFields(const std::string &line)
{
    std::vector<std::string> out(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '"') {
            if (quoted && i + 1 < line.size() && line[i + 1] == '"') {
                out.back() += '"';
                ++i;
            } else {
                quoted = !quoted;
            }
        } else if (c == ',' && !quoted) {
            out.emplace_back();
        } else {
            out.back() += c;
        }
    }
    return out;
}

} // namespace

class TestFabric : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void oneUplinkSharedByFour();
    void eightBehindOneUplink();
    void gen3CableThrottles();
    void nvswitchPeers();
    void pcieServerRoutes();
    void rootComplexPeers();
    void tenantsShareCentralSwitch();
    void latencyAddsUp();
    void moreBandwidthNeverSlower();
    void drivesLimitedByDriveOrPath();
    void networkBetweenNodes();
    void thousandDevices();
    void matchesMeasurements();
    void matchesPublishedMachines();
};

void TestFabric::oneUplinkSharedByFour()
{
    const auto a = fabric::analyze(example("seed-testbed.clab"), cat());
    const auto &s = systemNamed(a, "A:");
    QCOMPARE(s.gpus.size(), std::size_t(4));
    // Alone: the narrowest link is Gen4 x16 at its achieved rate. All four at once: a quarter.
    for (const auto &h : s.h2d) {
        QCOMPARE(h.aloneGBps, achieved("pcie4x16"));
        QCOMPARE(h.concurrentGBps, achieved("pcie4x16") / 4);
        QVERIFY(h.bottleneck.find("hostA/cpu0 -> pool/sw0") != std::string::npos);
    }
}

void TestFabric::eightBehindOneUplink()
{
    // shared/reference: eight GPUs behind one Gen4 x16 uplink get about an eighth each.
    const auto a = fabric::analyze(gpusBehindOneUplink(8), cat());
    QCOMPARE(a.systems.at(0).h2d.size(), std::size_t(8));
    for (const auto &h : a.systems.at(0).h2d)
        QCOMPARE(h.concurrentGBps, h.aloneGBps / 8);
}

void TestFabric::gen3CableThrottles()
{
    // A Gen3 host trains the Gen4 cable down to Gen3.
    const auto a = fabric::analyze(gpusBehindOneUplink(1, "pcie4x16", "xeon-gold-6248-2s"), cat());
    QCOMPARE(a.systems.at(0).h2d.at(0).aloneGBps, achieved("pcie3x16"));
}

void TestFabric::nvswitchPeers()
{
    const auto a = fabric::analyze(example("dgx-a100-nvswitch.clab"), cat());
    const auto &s = a.systems.at(0);
    QCOMPARE(s.gpus.size(), std::size_t(8));
    QCOMPARE(s.p2p.size(), std::size_t(56));
    for (const auto &p : s.p2p) {
        QCOMPARE(p.kind, fabric::RouteKind::Nvlink);
        QCOMPARE(p.GBps, achieved("nvlink3", 12));
        QCOMPARE(p.route.size(), std::size_t(3)); // gpu, NVSwitch, gpu
        QCOMPARE(p.route[1], std::string("nvswitch"));
    }
}

void TestFabric::pcieServerRoutes()
{
    const auto a = fabric::analyze(example("a100-pcie-two-switches.clab"), cat());
    const auto &s = a.systems.at(0);
    const double gen4 = achieved("pcie4x16");
    QCOMPARE(pair(s, "gpu0", "gpu1").kind, fabric::RouteKind::Nvlink);
    QCOMPARE(pair(s, "gpu0", "gpu2").kind, fabric::RouteKind::PcieSwitch);
    QCOMPARE(pair(s, "gpu0", "gpu2").GBps, gen4);
    const auto &across = pair(s, "gpu2", "gpu6");
    QCOMPARE(across.kind, fabric::RouteKind::StagedViaHost);
    QCOMPARE(across.GBps, gen4 * cat().routing().stagedViaHost);
    const std::vector<std::string> route
        = {"gpu2", "plx0", "server/cpu0", "server/cpu1", "plx1", "gpu6"};
    QCOMPARE(across.route, route);
    // The matrix is symmetric here.
    for (const auto &p : s.p2p)
        QCOMPARE(pair(s, p.to, p.from).GBps, p.GBps);
    // The ring crosses to cpu1 and back: its staged hops run both ways at once, each at 0.7 of
    // a one-way staged copy, 25.8 x 0.7 x 0.7 = 12.6 GB/s. The matrix keeps the one-way figure.
    const auto &routing = cat().routing();
    QCOMPARE(s.ringGBps, gen4 * routing.stagedViaHost * routing.stagedBothWays);
    QVERIFY(s.ringGBps < 13 && s.ringGBps > 12);
}

void TestFabric::rootComplexPeers()
{
    design::Design d;
    d.hosts.push_back({"h", "xeon-gold-6330-2s", {}});
    d.devices.push_back({"a", "A100-PCIe-40GB", {}, {}, -1});
    d.devices.push_back({"b", "A100-PCIe-40GB", {}, {}, -1});
    d.links.push_back({"h/cpu0", "a", "pcie4x16", 1, {}});
    d.links.push_back({"h/cpu0", "b", "pcie4x16", 1, {}});
    d.systems.push_back({"s", "h", {"a", "b"}});
    const auto a = fabric::analyze(d, cat());
    const auto &p = pair(a.systems.at(0), "a", "b");
    QCOMPARE(p.kind, fabric::RouteKind::RootComplex);
    QCOMPARE(p.GBps, achieved("pcie4x16") * cat().routing().p2pViaRootComplex);
    QVERIFY(a.findings.empty());
    // A ring on one socket stages nothing: it runs at the one-way peer-to-peer rate.
    QCOMPARE(a.systems.at(0).ringGBps, p.GBps);
    // Put b on the other socket: both hops of the two-GPU ring are staged, one each way.
    d.links.back().from = "h/cpu1";
    const auto across = fabric::analyze(d, cat());
    const auto &routing = cat().routing();
    QCOMPARE(pair(across.systems.at(0), "a", "b").GBps,
             achieved("pcie4x16") * routing.stagedViaHost);
    QCOMPARE(across.systems.at(0).ringGBps,
             achieved("pcie4x16") * routing.stagedViaHost * routing.stagedBothWays);
}

void TestFabric::tenantsShareCentralSwitch()
{
    // Host D reaches gpu10 through the chassis' central switch, as do host B's gpu8 and gpu9.
    // B's six GPUs are held to a sixth of B's uplink each; D gets what is left of the x16 link
    // from the central switch into that leaf.
    const auto a = fabric::analyze(example("seed-testbed.clab"), cat());
    const double gen4 = achieved("pcie4x16");
    const auto &b = systemNamed(a, "B:");
    const auto &d = systemNamed(a, "D:");
    QCOMPARE(h2d(b, "gpu8").allSystemsGBps, gen4 / 6);
    QCOMPARE(h2d(d, "gpu10").concurrentGBps, gen4);
    QCOMPARE(h2d(d, "gpu10").allSystemsGBps, gen4 - 2 * gen4 / 6);
    QCOMPARE(d.sharing.size(), std::size_t(1));
    QCOMPARE(d.sharing[0].sharedWith, std::vector<std::string>{b.name});
    QCOMPARE(d.sharing[0].lostGBps, 2 * gen4 / 6);
    QVERIFY(d.sharing[0].part.find("pool/sw4 -> pool/sw2") != std::string::npos);
    QVERIFY(b.sharing.empty()); // B is held by its own uplink, not by D
}

void TestFabric::latencyAddsUp()
{
    const auto a = fabric::analyze(example("a100-pcie-two-switches.clab"), cat());
    const auto &p = pair(a.systems.at(0), "gpu0", "gpu2");
    const double expected = cat().routing().dmaSetupLatencyUs
                            + cat().pcieSwitch("pex88096")->hopLatencyNs / 1000.0
                            + 2 * cat().link("pcie4x16")->latencyUs;
    QCOMPARE(p.latencyUs, expected);
    const auto &staged = pair(a.systems.at(0), "gpu0", "gpu6");
    QVERIFY(staged.latencyUs > p.latencyUs + cat().routing().stagedLatencyUs);
}

void TestFabric::moreBandwidthNeverSlower()
{
    // Faster cables and hosts never lower any figure.
    const auto slow = fabric::analyze(gpusBehindOneUplink(6, "pcie3x16"), cat());
    const auto fast = fabric::analyze(gpusBehindOneUplink(6, "pcie4x16"), cat());
    for (std::size_t i = 0; i < 6; ++i) {
        QVERIFY(fast.systems[0].h2d[i].aloneGBps > slow.systems[0].h2d[i].aloneGBps);
        QVERIFY(fast.systems[0].h2d[i].concurrentGBps > slow.systems[0].h2d[i].concurrentGBps);
    }
    for (std::size_t i = 0; i < fast.systems[0].p2p.size(); ++i)
        QVERIFY(fast.systems[0].p2p[i].GBps >= slow.systems[0].p2p[i].GBps);
}

void TestFabric::drivesLimitedByDriveOrPath()
{
    const auto a = fabric::analyze(example("seed-testbed.clab"), cat());
    const auto &s = systemNamed(a, "A:");
    QCOMPARE(s.storage.size(), std::size_t(1));
    const double drive = cat().nvme("samsung-pm1733-3.84tb")->readGBps;
    QCOMPARE(s.storage[0].aloneGBps, std::min(drive, achieved("pcie4x4")));
}

void TestFabric::networkBetweenNodes()
{
    const auto a = fabric::analyze(example("two-nodes-infiniband.clab"), cat());
    QCOMPARE(a.network.size(), std::size_t(1));
    // Four NDR NICs a side through a non-blocking switch.
    QCOMPARE(a.network[0].GBps, 4 * achieved("ib-ndr"));
    QCOMPARE(a.network[0].route.front(), std::string("node0-nic0"));
    QCOMPARE(a.network[0].route.back(), std::string("node1-nic0"));
    for (const auto &s : a.systems) {
        for (const auto &p : s.p2p)
            QCOMPARE(p.GBps, achieved("nvlink4", 18));
    }
}

void TestFabric::thousandDevices()
{
    const auto d = design::generatePool(1000);
    const auto a = fabric::analyze(d, cat());
    QCOMPARE(a.systems.size(), std::size_t(250));
    QVERIFY(a.findings.empty());
    for (const auto &s : a.systems) {
        QCOMPARE(s.gpus.size(), std::size_t(3));
        for (const auto &h : s.h2d)
            QCOMPARE(h.concurrentGBps, achieved("pcie4x16") / 3);
    }
}

void TestFabric::matchesMeasurements()
{
    // Measured figures (p2pBandwidthLatencyTest on ABCI's A and V nodes) as the repository keeps
    // them with their sources: datasets/link_bandwidth.csv.
    const std::string path = COMPOSELAB_SOURCE_DIR "/datasets/link_bandwidth.csv";
    std::ifstream in(path);
    QVERIFY2(in, path.c_str());
    std::map<std::string, double> measured; // "link|measurement" of the first row
    std::string line;
    while (std::getline(in, line)) {
        const auto f = csvFields(line);
        if (f.size() > 3 && !f[2].empty() && f[2] != "gb_per_s")
            measured.emplace(f[0] + "|" + f[1], std::stod(f[2]));
    }
    const double nvswitch = measured.at("nvlink3_nvswitch (12 links/GPU)|p2p_uni");
    const double staged
        = measured.at("pcie4_x16 (staged through host)|gpu_gpu_via_host_uni (P2P disabled)");
    const double nvlink2 = measured.at("nvlink2 (GPU pair)|p2p_uni");

    const auto dgx = fabric::analyze(example("dgx-a100-nvswitch.clab"), cat());
    QVERIFY(std::abs(dgx.systems[0].p2p[0].GBps / nvswitch - 1) < 0.05);
    const auto pcie = fabric::analyze(example("a100-pcie-two-switches.clab"), cat());
    QVERIFY(std::abs(pair(pcie.systems[0], "gpu0", "gpu4").GBps / staged - 1) < 0.05);

    design::Design v100;
    v100.hosts.push_back({"h", "xeon-gold-6248-2s", {}});
    v100.devices.push_back({"a", "V100-SXM2-32GB", {}, {}, -1});
    v100.devices.push_back({"b", "V100-SXM2-32GB", {}, {}, -1});
    v100.links.push_back({"h/cpu0", "a", "pcie3x16", 1, {}});
    v100.links.push_back({"h/cpu0", "b", "pcie3x16", 1, {}});
    v100.links.push_back({"a", "b", "nvlink2", 2, {}});
    v100.systems.push_back({"s", "h", {"a", "b"}});
    const auto v = fabric::analyze(v100, cat());
    QVERIFY(std::abs(v.systems[0].p2p[0].GBps / nvlink2 - 1) < 0.05);
}

// Two published machines rebuilt from their descriptions, against their published tool outputs
// (the same figures tst_machine reads from ../shared's copies of those outputs, when present).
void TestFabric::matchesPublishedMachines()
{
    // HPE ProLiant DL380a Gen11: two H100 PCIe joined by NVLink bridges (nvidia-smi topo -m: NV12);
    // p2pBandwidthLatencyTest, unidirectional with P2P enabled, GPU0->GPU1: 256.6 GB/s.
    // https://github.com/HPE-Japan-Presales/e-learning/blob/b3530162043ab8b0ccd7e1a718d3f8d534e47377/gpu/h100/mgmt_gpu_on_dl380agen11.md
    design::Design hpe;
    hpe.hosts.push_back({"h", "xeon-platinum-8480plus-2s", {}});
    hpe.devices.push_back({"a", "H100-PCIe-80GB", {}, {}, -1});
    hpe.devices.push_back({"b", "H100-PCIe-80GB", {}, {}, -1});
    hpe.links.push_back({"h/cpu0", "a", "pcie5x16", 1, {}});
    hpe.links.push_back({"h/cpu1", "b", "pcie5x16", 1, {}});
    hpe.links.push_back({"a", "b", "nvlink4", 12, {}});
    hpe.systems.push_back({"s", "h", {"a", "b"}});
    const auto bridged = fabric::analyze(hpe, cat()).systems.at(0).p2p.at(0);
    QVERIFY2(!fabric::offByMoreThanTolerance(bridged.GBps, 256.6),
             qPrintable(QString::number(bridged.GBps)));

    // ASUS ESC8000A-E12 (two EPYC 9004) with RTX 6000 Ada cards, the same Ada PCIe Gen4 board as
    // the catalog's L40S; bandwidthTest --quick --device=0, pinned host to device: 26.8 GB/s.
    // https://github.com/luigifcruz/stelline/blob/5abfb58163aa40435812fa5e5a06c6eff46a8917/docs/quickstart/validated-hardware/server/asus-esc8000a-e12.md
    design::Design asus;
    asus.hosts.push_back({"h", "epyc-9654-2s", {}});
    asus.devices.push_back({"g", "L40S", {}, {}, -1});
    asus.links.push_back({"h/cpu0", "g", "pcie4x16", 1, {}});
    asus.systems.push_back({"s", "h", {"g"}});
    const double h2d = fabric::analyze(asus, cat()).systems.at(0).h2d.at(0).aloneGBps;
    QVERIFY2(!fabric::offByMoreThanTolerance(h2d, 26.8), qPrintable(QString::number(h2d)));
}

QTEST_APPLESS_MAIN(TestFabric)
#include "tst_fabric.moc"
