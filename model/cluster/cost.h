#pragma once

#include "cluster/metrics.h"

#include <string>

namespace clab::cluster {

// Prices of the network parts, each with where the figure comes from (resources/prices/
// prices.json holds the defaults; a user passes an edited copy).
struct Price
{
    double usd = 0;
    std::string source;
};

struct PriceTable
{
    std::string currency = "USD";
    Price switchPort;   // per port of a switch; switches are bought whole (radix ports)
    Price copperCable;  // one copper (DAC) link
    Price opticalCable; // one optical link: two transceivers and the fibre
    Price boardLink;    // one printed-circuit link on a board
};

// Strict reading: unknown keys, missing prices or sources and negative prices are InputErrors
// naming `file` and the JSON pointer.
PriceTable readPriceTable(const std::string &text, const std::string &file);
// The shipped table: resources/prices/prices.json, compiled in when model/CMakeLists.txt embeds
// resources/prices/*.json, otherwise read from the source tree.
const PriceTable &defaultPriceTable();

struct Cost
{
    double switches = 0, copper = 0, optical = 0, board = 0;
    double total() const { return switches + copper + optical + board; }
};
// switch ports bought × switch_port + links of each kind × their price.
Cost costOf(const Structure &s, const PriceTable &prices);

} // namespace clab::cluster
