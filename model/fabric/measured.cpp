#include "fabric/analysis.h"

namespace clab::fabric {

namespace {

std::string by(const design::Measurement &m)
{
    return m.tool + (m.test.empty() ? "" : ": " + m.test);
}

} // namespace

void attachMeasurements(Analysis &analysis, const design::Design &design)
{
    attachMeasurements(analysis, design.measurements);
}

void attachMeasurements(Analysis &analysis, const std::vector<design::Measurement> &measurements)
{
    for (const design::Measurement &m : measurements) {
        for (SystemReport &s : analysis.systems) {
            if (m.kind == "h2d") {
                for (HostToDevice &row : s.h2d) {
                    if (row.device == m.to && !row.measuredGBps) {
                        row.measuredGBps = m.GBps;
                        row.measuredBy = by(m);
                    }
                }
            } else if (m.kind == "p2p") {
                for (PeerToPeer &p : s.p2p) {
                    if (p.from == m.from && p.to == m.to && !p.measuredGBps) {
                        p.measuredGBps = m.GBps;
                        p.measuredBy = by(m);
                    }
                }
            } else if (m.kind == "collective"
                       && (m.system == s.name || (m.system.empty() && analysis.systems.size() == 1))
                       && !s.measuredBusGBps) {
                s.measuredBusGBps = m.GBps;
                s.measuredBusBy = by(m);
            }
        }
    }
}

} // namespace clab::fabric
