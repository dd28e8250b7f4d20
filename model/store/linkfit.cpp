#include "store/linkfit.h"
#include "util/stats.h"

#include "catalog/catalog.h"
#include "store/store.h"
#include "util/text.h"
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>

namespace clab::store {

std::string pcieLinkId(const std::string &name, const catalog::Catalog &catalog)
{
    static const std::regex pattern(R"(pcie[ _-]*(?:gen)?\s*([1-6])[ _-]*x(16|8|4|2|1))",
                                    std::regex::icase);
    std::smatch m;
    if (!std::regex_search(name, m, pattern))
        return {};
    const std::string id = "pcie" + m[1].str() + "x" + m[2].str();
    return catalog.link(id) ? id : std::string();
}

std::vector<LinkFit> fitLinkFractions(Store &store, const catalog::Catalog &catalog)
{
    std::map<std::string, LinkFit> fits;
    std::map<std::string, std::vector<double>> values;
    for (const BandwidthRecord &b : store.bandwidth()) {
        if ((b.link != "h2d" && b.link != "d2h") || !b.gbps || *b.gbps <= 0)
            continue;
        const std::string test = asciiLower(b.test);
        if (test.find("pageable") != std::string::npos
            || test.find("bidirectional") != std::string::npos)
            continue;
        std::string linkName;
        if (!b.details.empty()) {
            const nlohmann::json details = nlohmann::json::parse(b.details, nullptr, false);
            if (details.is_object() && details.contains("link_name")
                && details["link_name"].is_string())
                linkName = details["link_name"].get<std::string>();
        }
        const std::string id = pcieLinkId(linkName, catalog);
        if (id.empty())
            continue;
        const catalog::LinkKind *kind = catalog.link(id);
        LinkFit &fit = fits[id];
        fit.link = id;
        fit.rawGBps = kind->rawGBps;
        fit.catalogFraction = kind->achievedFraction;
        fit.from.push_back(b.tool + ": " + b.test + " = " + std::to_string(*b.gbps).substr(0, 6)
                           + " GB/s");
        values[id].push_back(*b.gbps);
    }
    std::vector<LinkFit> out;
    for (auto &[id, fit] : fits) {
        std::vector<double> &v = values[id];
        std::sort(v.begin(), v.end());
        const std::size_t n = v.size();
        fit.fittedFraction = median(v) / fit.rawGBps;
        fit.minGBps = v.front();
        fit.maxGBps = v.back();
        fit.measurements = int(n);
        out.push_back(std::move(fit));
    }
    return out;
}

} // namespace clab::store
