#include "design/examples.h"

#include "design/edit.h"

#include "util/embedded.h"

#include <stdexcept>

namespace clab::design {

std::vector<Example> bundledExamples()
{
    std::vector<Example> out;
    constexpr std::string_view prefix = "resources/examples/";
    for (const EmbeddedFile &f : embeddedFiles()) {
        if (f.path.starts_with(prefix))
            out.push_back({std::string(f.path.substr(prefix.size())), f.text});
    }
    return out;
}

Design seedTestbed()
{
    for (const Example &e : bundledExamples()) {
        if (e.fileName == kSeedExample)
            return readDesign(e.text, e.fileName);
    }
    throw std::logic_error("the seed testbed is not compiled into the program");
}

Design generatePool(int devices)
{
    Design d;
    d.name = "Generated pool of " + std::to_string(devices) + " devices";
    int made = 0;
    for (int c = 0; made < devices; ++c) {
        const std::string ch = "chassis" + std::to_string(c);
        d.chassis.push_back({ch, "h3-falcon-4016", {}});
        for (int h = 0; h < 4 && made < devices; ++h) {
            const std::string host = ch + "-host" + std::to_string(h);
            d.hosts.push_back({host, "epyc-7742-2s", {}});
            d.links.push_back({host + "/cpu" + std::to_string(h % 2),
                               ch + "/up" + std::to_string(h), "pcie4x16", 1});
            System s{host + "-system", host, {}};
            for (int k = 0; k < 4 && made < devices; ++k, ++made) {
                const std::string id = ch + "-d" + std::to_string(4 * h + k);
                const char *model
                    = k < 3 ? "A100-PCIe-40GB" : (h % 2 ? "cx6-hdr-1p" : "samsung-pm1733-3.84tb");
                d.devices.push_back({id, model, {}, ch, 4 * h + k});
                s.devices.push_back(id);
            }
            d.systems.push_back(std::move(s));
        }
    }
    assignLinkIds(d);
    return d;
}

} // namespace clab::design
