#include "design/edit.h"

#include <algorithm>

namespace clab::design {

namespace {

// The first prefix + N (N = 1, 2, ...) not in `taken`.
std::string firstFreeId(const std::set<std::string> &taken, std::string_view prefix)
{
    for (long n = 1;; ++n) {
        std::string candidate = std::string(prefix) + std::to_string(n);
        if (!taken.contains(candidate))
            return candidate;
    }
}

// `name`, or "name (N)" (N = 2, 3, ...) for the first one not in `taken`.
std::string firstFreeName(const std::set<std::string> &taken, std::string_view name)
{
    if (!taken.contains(std::string(name)))
        return std::string(name);
    for (long n = 2;; ++n) {
        std::string candidate = std::string(name) + " (" + std::to_string(n) + ")";
        if (!taken.contains(candidate))
            return candidate;
    }
}

std::set<std::string> systemNames(const Design &design)
{
    std::set<std::string> names;
    for (const System &s : design.systems)
        names.insert(s.name);
    return names;
}

// "gpu12" -> "gpu": a renamed copy keeps the kind of name it had.
std::string_view stem(std::string_view id)
{
    const auto end = id.find_last_not_of("0123456789");
    return id.substr(0, end == std::string_view::npos ? 0 : end + 1);
}

std::string renamedEndpoint(const std::string &endpoint,
                            const std::map<std::string, std::string> &renamed)
{
    const Endpoint e = splitEndpoint(endpoint);
    const auto it = renamed.find(e.item);
    if (it == renamed.end())
        return endpoint;
    return e.port.empty() ? it->second : it->second + "/" + e.port;
}

template<typename T>
void copyChosen(const std::vector<T> &from, const std::set<std::string> &chosen, std::vector<T> &to)
{
    for (const T &item : from) {
        if (chosen.contains(item.id))
            to.push_back(item);
    }
}

template<typename T>
void appendAll(std::vector<T> &to, const std::vector<T> &from)
{
    to.insert(to.end(), from.begin(), from.end());
}

template<typename T>
void dropLast(std::vector<T> &items, std::size_t count)
{
    items.resize(items.size() - std::min(count, items.size()));
}

// The item `id` of a list, const or not.
template<typename Items>
auto findMutable(Items &items, std::string_view id) -> decltype(&items.front())
{
    const auto it
        = std::find_if(items.begin(), items.end(), [&](const auto &item) { return item.id == id; });
    return it == items.end() ? nullptr : &*it;
}

// The name or model field of the item `id`, whichever kind it is (const for a const design).
template<typename D>
auto itemField(D &design, std::string_view id, bool model) -> decltype(&design.hosts.front().name)
{
    if (auto *h = findMutable(design.hosts, id))
        return model ? &h->model : &h->name;
    if (auto *c = findMutable(design.chassis, id))
        return model ? &c->model : &c->name;
    if (auto *s = findMutable(design.switches, id))
        return model ? &s->model : &s->name;
    if (auto *d = findMutable(design.devices, id))
        return model ? &d->model : &d->name;
    return nullptr;
}

std::optional<std::string> replaceField(std::string *field, std::string value)
{
    if (!field)
        return std::nullopt;
    std::string old = std::move(*field);
    *field = std::move(value);
    return old;
}

} // namespace

bool hasItem(const Design &design, std::string_view id)
{
    return design.host(id) || design.findChassis(id) || design.findSwitch(id) || design.device(id);
}

std::set<std::string> itemIds(const Design &design)
{
    std::set<std::string> ids;
    for (const Host &h : design.hosts)
        ids.insert(h.id);
    for (const Chassis &c : design.chassis)
        ids.insert(c.id);
    for (const Switch &s : design.switches)
        ids.insert(s.id);
    for (const Device &d : design.devices)
        ids.insert(d.id);
    return ids;
}

std::string uniqueId(const Design &design, std::string_view prefix)
{
    return firstFreeId(itemIds(design), prefix);
}

namespace {

std::set<std::string> linkIds(const Design &design)
{
    std::set<std::string> ids;
    for (const Link &l : design.links)
        ids.insert(l.id);
    return ids;
}

} // namespace

std::string uniqueLinkId(const Design &design)
{
    return firstFreeId(linkIds(design), "link");
}

void assignLinkIds(Design &design)
{
    const std::set<std::string> taken = linkIds(design);
    long next = 1; // ids are handed out in order, so the search goes on from the last one
    for (Link &l : design.links) {
        if (!l.id.empty())
            continue;
        while (taken.contains("link" + std::to_string(next)))
            ++next;
        l.id = "link" + std::to_string(next++);
    }
}

void giveLinkIds(const Design &design, Design &fragment)
{
    std::set<std::string> taken = linkIds(design);
    for (const Link &l : fragment.links)
        taken.insert(l.id);
    std::set<std::string> kept = linkIds(design);
    long next = 1; // the search goes on from the last id handed out: a paste of n links is not n²
    for (Link &l : fragment.links) {
        // No id, one the design has, or one an earlier fragment link took: the first free one.
        if (l.id.empty() || !kept.insert(l.id).second) {
            while (taken.contains("link" + std::to_string(next)))
                ++next;
            l.id = "link" + std::to_string(next++);
            taken.insert(l.id);
            kept.insert(l.id);
        }
    }
}

int linkIndex(const Design &design, std::string_view linkId)
{
    for (std::size_t i = 0; i < design.links.size(); ++i) {
        if (design.links[i].id == linkId)
            return int(i);
    }
    return -1;
}

std::string uniqueSystemName(const Design &design, std::string_view name)
{
    return firstFreeName(systemNames(design), name);
}

Design copyItems(const Design &design, const std::vector<std::string> &ids)
{
    const std::set<std::string> existing = itemIds(design);
    std::set<std::string> chosen;
    for (const std::string &id : ids) {
        if (existing.contains(id))
            chosen.insert(id);
    }
    for (const Device &d : design.devices) {
        if (!d.chassis.empty() && chosen.contains(d.chassis) && design.findChassis(d.chassis))
            chosen.insert(d.id);
    }

    Design fragment;
    copyChosen(design.hosts, chosen, fragment.hosts);
    copyChosen(design.chassis, chosen, fragment.chassis);
    copyChosen(design.switches, chosen, fragment.switches);
    copyChosen(design.devices, chosen, fragment.devices);
    for (Device &d : fragment.devices) {
        if (!d.chassis.empty() && !chosen.contains(d.chassis)) {
            d.chassis.clear();
            d.slot = -1;
        }
    }
    for (const Link &l : design.links) {
        if (chosen.contains(splitEndpoint(l.from).item)
            && chosen.contains(splitEndpoint(l.to).item))
            fragment.links.push_back(l);
    }
    for (const System &s : design.systems) {
        const bool inside
            = chosen.contains(s.host)
              && std::all_of(s.devices.begin(), s.devices.end(),
                             [&](const std::string &d) { return chosen.contains(d); });
        if (inside)
            fragment.systems.push_back(s);
    }
    for (const auto &[id, position] : design.layout) {
        if (chosen.contains(id))
            fragment.layout.emplace(id, position);
    }
    return fragment;
}

Design prepareForPaste(const Design &design, Design fragment, double dx, double dy)
{
    const std::set<std::string> clashing = itemIds(design);
    // A new id must miss the fragment's own ids too, or two pasted items could end up sharing one.
    std::set<std::string> taken = clashing;
    taken.merge(itemIds(fragment));
    std::map<std::string, std::string> renamed;
    const auto rename = [&](std::string &id) {
        if (!clashing.contains(id))
            return;
        std::string fresh = firstFreeId(taken, stem(id));
        taken.insert(fresh);
        renamed[id] = fresh;
        id = std::move(fresh);
    };
    for (Host &h : fragment.hosts)
        rename(h.id);
    for (Chassis &c : fragment.chassis)
        rename(c.id);
    for (Switch &s : fragment.switches)
        rename(s.id);
    for (Device &d : fragment.devices)
        rename(d.id);

    const auto follow = [&](std::string &id) {
        const auto it = renamed.find(id);
        if (it != renamed.end())
            id = it->second;
    };
    for (Device &d : fragment.devices)
        follow(d.chassis);
    for (Link &l : fragment.links) {
        l.from = renamedEndpoint(l.from, renamed);
        l.to = renamedEndpoint(l.to, renamed);
    }
    giveLinkIds(design, fragment);
    std::set<std::string> names = systemNames(design);
    for (System &s : fragment.systems) {
        follow(s.host);
        for (std::string &d : s.devices)
            follow(d);
        s.name = firstFreeName(names, s.name);
        names.insert(s.name);
    }
    std::map<std::string, Position> layout;
    for (const auto &[id, position] : fragment.layout) {
        std::string key = id;
        follow(key);
        layout[key] = {position.x + dx, position.y + dy};
    }
    fragment.layout = std::move(layout);
    return fragment;
}

std::map<std::string, Position> appendItems(Design &design, const Design &fragment)
{
    appendAll(design.hosts, fragment.hosts);
    appendAll(design.chassis, fragment.chassis);
    appendAll(design.switches, fragment.switches);
    appendAll(design.devices, fragment.devices);
    appendAll(design.links, fragment.links);
    appendAll(design.systems, fragment.systems);
    std::map<std::string, Position> overwritten;
    for (const auto &[id, position] : fragment.layout) {
        const auto [it, inserted] = design.layout.try_emplace(id, position);
        if (!inserted) {
            overwritten.emplace(id, it->second);
            it->second = position;
        }
    }
    return overwritten;
}

void removeAppended(Design &design, const Design &fragment,
                    const std::map<std::string, Position> &overwritten)
{
    dropLast(design.hosts, fragment.hosts.size());
    dropLast(design.chassis, fragment.chassis.size());
    dropLast(design.switches, fragment.switches.size());
    dropLast(design.devices, fragment.devices.size());
    dropLast(design.links, fragment.links.size());
    dropLast(design.systems, fragment.systems.size());
    for (const auto &entry : fragment.layout)
        design.layout.erase(entry.first);
    for (const auto &[id, position] : overwritten)
        design.layout[id] = position;
}

std::map<std::string, std::optional<Position>> positionsOf(const Design &design,
                                                           const std::vector<std::string> &ids)
{
    std::map<std::string, std::optional<Position>> out;
    for (const std::string &id : ids) {
        const auto it = design.layout.find(id);
        out[id] = it == design.layout.end() ? std::nullopt : std::optional(it->second);
    }
    return out;
}

void setPositions(Design &design, const std::map<std::string, std::optional<Position>> &positions)
{
    for (const auto &[id, position] : positions) {
        if (position)
            design.layout[id] = *position;
        else
            design.layout.erase(id);
    }
}

std::optional<std::string> setItemName(Design &design, std::string_view id, std::string name)
{
    return replaceField(itemField(design, id, false), std::move(name));
}

std::optional<std::string> setItemModel(Design &design, std::string_view id, std::string model)
{
    return replaceField(itemField(design, id, true), std::move(model));
}

std::optional<std::string> itemName(const Design &design, std::string_view id)
{
    if (const std::string *name = itemField(design, id, false))
        return *name;
    return std::nullopt;
}

std::optional<Placement> setPlacement(Design &design, std::string_view deviceId,
                                      Placement placement)
{
    Device *device = findMutable(design.devices, deviceId);
    if (!device)
        return std::nullopt;
    if (placement.chassis.empty())
        placement.slot = -1;
    else if (!design.findChassis(placement.chassis) || placement.slot < 0)
        return std::nullopt;
    Placement old{std::move(device->chassis), device->slot};
    device->chassis = std::move(placement.chassis);
    device->slot = placement.slot;
    return old;
}

bool isStorableLink(const Design &design, const Link &link)
{
    return link.count >= 1 && link.count <= kMaxLinkCount
           && hasItem(design, splitEndpoint(link.from).item)
           && hasItem(design, splitEndpoint(link.to).item);
}

} // namespace clab::design
