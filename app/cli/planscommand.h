#pragma once

#include <iosfwd>
#include <string>

namespace CLI {
class App;
}

namespace clab::cli {

// `composelab plans --benchmark llm:...|PRESET --gpu GPU --gpus N [--gpus-per-node 8]
// [--global-batch B] [--network-gbps 200] [--top K] [--json]`, or `composelab plans DESIGN
// [--system S] [--nodes N] --benchmark ...` on a composed system's GPUs and fabric: every valid
// parallel plan of a transformer (model/llm/plan.h), those that fit in memory ranked by step time.
// With
// --tensor (and optionally the other plan options) it evaluates that one plan instead.
struct PlansOptions
{
    std::string benchmark;
    std::string design; // plan on a system of this design (its fabric), instead of --gpu
    std::string system; // its name; empty: the first with a GPU
    long long nodes = 1;
    std::string gpu;
    long long gpus = 0;
    long long gpusPerNode = 8;
    long long globalBatch = 0; // 0: the preset's
    double networkGbps = 200;  // one HDR port per GPU
    int top = 10;
    bool json = false;
    bool fusedAttention = false; // FlashAttention-style softmax on chip
    // One plan: given when tensor > 0.
    long long tensor = 0;
    long long pipeline = 1;
    long long interleave = 1;
    long long micro = 1;
    std::string recompute = "none";
    bool sequenceParallel = false;
    int zero = 0;
};

// 0 done, 1 bad input (shape, named field), 2 wrong usage (a plan breaking a rule, an unknown
// GPU, no global batch).
int plansCommand(const PlansOptions &options, std::ostream &out, std::ostream &err);
void addPlansSubcommand(CLI::App &app, PlansOptions &options);

} // namespace clab::cli
