#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace clab::schedule {

// One job of a trace: it arrives at `submitS`, asks for `gpus` GPUs and runs `durationS` once
// it has them.
struct Job
{
    double submitS = 0;
    int gpus = 0;
    double durationS = 0;
    std::string benchmark; // optional: what it trains
    std::string user;      // optional
    int line = 0;          // in the trace file, for messages
};

// Reads a trace CSV with the columns submit_s, gpus, duration_s (any order; benchmark and user
// optional, others ignored). Throws InputError naming the file, the line and column and what was
// expected: a time that is negative or not a number, GPUs that are not a whole number from 1 to
// `maxGpus` (the design's), a missing column. Jobs come back sorted by submission time (stable).
std::vector<Job> readTrace(std::string_view text, const std::string &file, int maxGpus);

// A public GPU-cluster trace: the task table of Alibaba PAI's cluster-trace-gpu-v2020
// (github.com/alibaba/clusterdata, pai_task_table.csv; Weng et al., NSDI '22), with or without
// its header line job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,plan_mem,
// plan_gpu,gpu_type. A job is the tasks of one job_name that all ended "Terminated" and asked
// for GPUs: it asks for the sum of inst_num × plan_gpu / 100 GPUs, rounded up (plan_gpu is in
// percent of a GPU), arrives at its first task's launch and runs until its last task's end;
// times start at 0 with the first job. Jobs larger than `maxGpus` are left out and counted.
struct PaiImport
{
    std::vector<Job> jobs;
    int tooLarge = 0;    // jobs that ask for more GPUs than the design has
    int notFinished = 0; // jobs with a task that did not end Terminated
    int withoutGpus = 0; // jobs that asked for no GPU
};
PaiImport readPaiTaskTable(std::string_view text, const std::string &file, int maxGpus);

} // namespace clab::schedule
