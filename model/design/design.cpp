#include "design/design.h"

#include <algorithm>

namespace clab::design {

namespace {

template<typename T>
const T *findById(const std::vector<T> &items, std::string_view id)
{
    const auto it
        = std::find_if(items.begin(), items.end(), [&](const T &item) { return item.id == id; });
    return it == items.end() ? nullptr : &*it;
}

} // namespace

const Host *Design::host(std::string_view id) const
{
    return findById(hosts, id);
}

const Chassis *Design::findChassis(std::string_view id) const
{
    return findById(chassis, id);
}

const Switch *Design::findSwitch(std::string_view id) const
{
    return findById(switches, id);
}

const Device *Design::device(std::string_view id) const
{
    return findById(devices, id);
}

const System *Design::system(std::string_view systemName) const
{
    const auto it = std::find_if(systems.begin(), systems.end(),
                                 [&](const System &s) { return s.name == systemName; });
    return it == systems.end() ? nullptr : &*it;
}

const Link *Design::link(std::string_view linkId) const
{
    const auto it
        = std::find_if(links.begin(), links.end(), [&](const Link &l) { return l.id == linkId; });
    return it == links.end() ? nullptr : &*it;
}

Endpoint splitEndpoint(std::string_view endpoint)
{
    const auto slash = endpoint.find('/');
    if (slash == std::string_view::npos)
        return {std::string(endpoint), {}};
    return {std::string(endpoint.substr(0, slash)), std::string(endpoint.substr(slash + 1))};
}

} // namespace clab::design
