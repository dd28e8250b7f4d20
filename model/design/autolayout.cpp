#include "design/autolayout.h"

#include "catalog/catalog.h"
#include "design/designindex.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <set>
#include <unordered_map>

namespace clab::design {

namespace {

constexpr double kRowGap = 90;
constexpr double kColumnGap = 30;

double snapToGrid(double v)
{
    return std::round(v / kGrid) * kGrid;
}

// Second pass, bottom row up: an item moves right to sit over the items below that it links to
// (hosts over their switches, switches over their GPUs), keeping its row's order and gaps.
void centreOverChildren(const Design &design, const catalog::Catalog &catalog,
                        const std::map<int, std::vector<std::string>> &rows,
                        std::unordered_map<std::string, std::vector<std::string>> &neighbours,
                        const std::function<std::string(const std::string &)> &placed,
                        std::map<std::string, Position> &result)
{
    std::unordered_map<std::string, int> rowOf;
    for (const auto &[r, ids] : rows)
        for (const std::string &id : ids)
            rowOf[id] = r;
    // Only a child with one parent pulls it: a board every GPU links to (an NVSwitch, a network
    // switch) would otherwise drag each GPU towards itself.
    std::unordered_map<std::string, std::set<std::string>> parents;
    for (const auto &[id, r] : rowOf) {
        std::vector<std::string> from{id};
        for (const Device &d : design.devices)
            if (d.chassis == id)
                from.push_back(d.id);
        for (const std::string &f : from)
            for (const std::string &nb : neighbours[f]) {
                const auto it = rowOf.find(placed(nb));
                if (it != rowOf.end() && it->second < r)
                    parents[id].insert(it->first);
            }
    }
    for (auto it = rows.rbegin(); it != rows.rend(); ++it) {
        std::vector<std::string> ids = it->second;
        std::sort(ids.begin(), ids.end(), [&](const std::string &a, const std::string &b) {
            return result[a].x < result[b].x;
        });
        double minX = 0;
        for (const std::string &id : ids) {
            const Box box = boxOf(design, catalog, id);
            double sum = 0;
            int n = 0;
            auto add = [&](const std::string &from) {
                for (const std::string &nb : neighbours[from]) {
                    const std::string p = placed(nb);
                    const auto r = rowOf.find(p);
                    if (r != rowOf.end() && r->second > it->first && parents[p].size() == 1) {
                        sum += result[p].x + boxOf(design, catalog, p).width / 2;
                        ++n;
                    }
                }
            };
            add(id);
            for (const Device &d : design.devices)
                if (d.chassis == id)
                    add(d.id);
            Position &p = result[id];
            if (n)
                p.x = std::max(p.x, snapToGrid(sum / n - box.width / 2));
            p.x = std::max(p.x, minX);
            minX = std::ceil((p.x + box.width + kColumnGap) / kGrid) * kGrid;
        }
    }
}

} // namespace

Box chassisBox(int slots)
{
    const int columns = std::clamp(slots, 1, kSlotsPerRow);
    const int rows = std::max(1, (slots + kSlotsPerRow - 1) / kSlotsPerRow);
    return {2 * kChassisPadding + columns * (kDeviceBox.width + kChassisPadding) - kChassisPadding,
            kChassisHeader + kChassisPadding + rows * (kDeviceBox.height + kChassisPadding)};
}

Position slotOffset(int slot)
{
    const int row = slot / kSlotsPerRow;
    const int column = slot % kSlotsPerRow;
    return {kChassisPadding + column * (kDeviceBox.width + kChassisPadding),
            kChassisHeader + row * (kDeviceBox.height + kChassisPadding)};
}

Box boxOf(const Design &design, const catalog::Catalog &catalog, const std::string &id)
{
    if (design.host(id))
        return kHostBox;
    if (const Chassis *c = design.findChassis(id)) {
        const catalog::Chassis *spec = catalog.chassis(c->model);
        return chassisBox(spec ? spec->slots : kSlotsPerRow);
    }
    if (design.findSwitch(id))
        return kSwitchBox;
    return kDeviceBox;
}

std::map<std::string, Position> autoLayout(const Design &design, const catalog::Catalog &catalog,
                                           bool keepExisting)
{
    // Items that take a position, in design order.
    std::vector<std::string> items;
    for (const Host &h : design.hosts)
        items.push_back(h.id);
    for (const Chassis &c : design.chassis)
        items.push_back(c.id);
    for (const Switch &s : design.switches)
        items.push_back(s.id);
    for (const Device &d : design.devices)
        if (d.chassis.empty())
            items.push_back(d.id);

    std::unordered_map<std::string, std::vector<std::string>> neighbours;
    for (const Link &l : design.links) {
        const std::string a = splitEndpoint(l.from).item, b = splitEndpoint(l.to).item;
        neighbours[a].push_back(b);
        neighbours[b].push_back(a);
    }
    // A pooled device stands for its chassis in the graph, so that what hangs off it (an NVLink
    // bridge, a network cable) lands below the chassis.
    std::unordered_map<std::string, std::string> stand;
    for (const Device &d : design.devices)
        if (!d.chassis.empty())
            stand[d.id] = d.chassis;
    const std::function<std::string(const std::string &)> placed = [&](const std::string &id) {
        const auto it = stand.find(id);
        return it == stand.end() ? id : it->second;
    };

    // Breadth-first from the hosts: the row of an item is its hop count from the nearest host.
    std::unordered_map<std::string, int> row;
    std::deque<std::string> queue;
    for (const Host &h : design.hosts) {
        row[h.id] = 0;
        queue.push_back(h.id);
    }
    auto visit = [&](const std::string &from) {
        for (const std::string &n : neighbours[from]) {
            const std::string p = placed(n);
            if (!row.count(p)) {
                row[p] = row[from] + 1;
                queue.push_back(p);
            }
        }
    };
    while (!queue.empty()) {
        const std::string id = queue.front();
        queue.pop_front();
        visit(id);
        for (const Device &d : design.devices) // links of a chassis' devices count as its own
            if (d.chassis == id)
                visit(d.id);
    }
    int lastRow = 0;
    for (const auto &[id, r] : row)
        lastRow = std::max(lastRow, r);
    for (const std::string &id : items)
        if (!row.count(id))
            row[id] = lastRow + 1; // unconnected items get a row of their own at the bottom

    std::map<std::string, Position> result;
    double top = 0;
    if (keepExisting) {
        for (const std::string &id : items) {
            const auto it = design.layout.find(id);
            if (it == design.layout.end())
                continue;
            result[id] = it->second;
            top = std::max(top, it->second.y + boxOf(design, catalog, id).height + kRowGap);
        }
    }
    std::map<int, std::vector<std::string>> rows;
    for (const std::string &id : items)
        if (!result.count(id))
            rows[row[id]].push_back(id);

    // Row by row, each item under the mean centre of the items above that it links to.
    std::unordered_map<std::string, double> centreX;
    for (const auto &[id, p] : result)
        centreX[id] = p.x + boxOf(design, catalog, id).width / 2;
    for (auto &[r, ids] : rows) {
        std::vector<std::pair<double, std::string>> order;
        for (std::size_t i = 0; i < ids.size(); ++i) {
            double sum = 0;
            int n = 0;
            auto add = [&](const std::string &from) {
                for (const std::string &nb : neighbours[from]) {
                    const auto it = centreX.find(placed(nb));
                    if (it != centreX.end()) {
                        sum += it->second;
                        ++n;
                    }
                }
            };
            add(ids[i]);
            for (const Device &d : design.devices)
                if (d.chassis == ids[i])
                    add(d.id);
            order.emplace_back(n ? sum / n : 1e12 + double(i), ids[i]);
        }
        std::stable_sort(order.begin(), order.end(),
                         [](const auto &a, const auto &b) { return a.first < b.first; });
        double x = 0, height = 0;
        for (const auto &[wanted, id] : order) {
            const Box box = boxOf(design, catalog, id);
            if (wanted < 1e12)
                x = std::max(x, snapToGrid(wanted - box.width / 2));
            result[id] = {x, snapToGrid(top)};
            centreX[id] = x + box.width / 2;
            x = std::ceil((x + box.width + kColumnGap) / kGrid) * kGrid; // the next on the grid
            height = std::max(height, box.height);
        }
        top += height + kRowGap;
    }
    centreOverChildren(design, catalog, rows, neighbours, placed, result);
    return result;
}

} // namespace clab::design
