#pragma once

// The measurements of a real machine: p2pBandwidthLatencyTest, nvbandwidth, bandwidthTest and
// nccl-tests outputs given to `composelab machine` beside its topology, read by the importers and
// attached to the design so that the analysis shows them beside the model.
#include "design/design.h"
#include "catalog/catalog.h"
#include "machine/machine.h"
#include "store/store.h"

#include <string>
#include <vector>

namespace clab::machine {

// Whether `text` is the output of one of those tools.
bool isMeasurementOutput(const MachineInput &input);

// One measurement per transfer (host to GPU i, GPU i to GPU j, the collective's bus bandwidth),
// the best any of the outputs shows: pinned before pageable, copy engines or SMs, whichever got
// further. Unidirectional tests only; nccl-tests' all_reduce bus bandwidth at its largest size.
// The tools' GPU i is the design's device "gpu<i>" (CUDA's order; the note says so). Throws
// InputError naming the file for a malformed output; `notes` gets what was attached.
std::vector<design::Measurement> measurementsOf(const std::vector<MachineInput> &inputs,
                                                const design::Design &design,
                                                std::vector<std::string> &notes);

// The store's measurements of the design's systems: a measurement stored as system NAME's
// (`import --system NAME`) belongs to the design system of that name, whatever the case, and its
// GPU i is that system's i-th GPU in the design's order. Tool outputs stored without a system
// belong to none.
std::vector<design::Measurement>
storedMeasurements(const std::vector<store::BandwidthRecord> &stored, const design::Design &design,
                   const catalog::Catalog &catalog);

} // namespace clab::machine
