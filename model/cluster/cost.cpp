#include "cluster/cost.h"

#include "util/embedded.h"
#include "util/fileio.h"
#include "util/jsonreader.h"

#include <stdexcept>

namespace clab::cluster {

namespace {

Price readPrice(ObjectReader &prices, const char *key)
{
    ObjectReader r = prices.object(key);
    Price p;
    p.usd = r.number("usd");
    if (p.usd < 0)
        r.fail("usd", "expected a price of at least 0, got " + std::to_string(p.usd));
    p.source = r.string("source");
    if (p.source.empty())
        r.fail("source", "expected where the price comes from (or \"assumption: ...\")");
    r.finish();
    return p;
}

} // namespace

PriceTable readPriceTable(const std::string &text, const std::string &file)
{
    const Json root = parseJson(text, file);
    ObjectReader r(root, "", file);
    const int version = r.integer("formatVersion", 1, 1);
    if (version != 1)
        r.fail("formatVersion", "expected 1, got " + std::to_string(version));
    PriceTable t;
    t.currency = r.string("currency", "USD");
    r.string("note", "");
    ObjectReader prices = r.object("prices");
    t.switchPort = readPrice(prices, "switch_port");
    t.copperCable = readPrice(prices, "copper_cable");
    t.opticalCable = readPrice(prices, "optical_cable");
    t.boardLink = readPrice(prices, "board_link");
    prices.finish();
    r.finish();
    return t;
}

const PriceTable &defaultPriceTable()
{
    static const PriceTable table = [] {
        const std::string path = "resources/prices/prices.json";
        return readPriceTable(std::string(embeddedText(path)), path);
    }();
    return table;
}

Cost costOf(const Structure &s, const PriceTable &p)
{
    Cost c;
    c.switches = double(s.switchPortsTotal) * p.switchPort.usd;
    c.copper = double(s.links[std::size_t(LinkKind::Copper)]) * p.copperCable.usd;
    c.optical = double(s.links[std::size_t(LinkKind::Optical)]) * p.opticalCable.usd;
    c.board = double(s.links[std::size_t(LinkKind::BoardTrace)]) * p.boardLink.usd;
    return c;
}

} // namespace clab::cluster
