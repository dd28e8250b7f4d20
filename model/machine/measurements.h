#pragma once

// The measurements of a real machine: p2pBandwidthLatencyTest, nvbandwidth, bandwidthTest and
// nccl-tests outputs given to `composelab machine` beside its topology, read by the importers and
// attached to the design so that the analysis shows them beside the model.
#include "design/design.h"
#include "machine/machine.h"

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

} // namespace clab::machine
