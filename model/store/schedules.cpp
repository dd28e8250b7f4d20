#include "store/schedules.h"

#include "store/store.h"

#include <sqlite3.h>

namespace clab::store {

namespace {

// Every column but the id, in the table's order.
constexpr const char *kColumns
    = "source_id, design, design_file, way, policy, recompose_s, stretch, benchmark, jobs, gpus, "
      "utilisation, mean_wait_s, p95_wait_s, mean_jct_s, never_fit, fragmentation, "
      "recompositions, mean_stretch, details, ran_at";
constexpr int kColumnCount = 20;

} // namespace

void addSchedule(Store &store, std::int64_t sourceId, const ScheduleRecord &r)
{
    Statement add(store.connection(),
                  "INSERT INTO schedules(source_id, design, design_file, way, policy, "
                  "recompose_s, stretch, benchmark, jobs, gpus, utilisation, mean_wait_s, "
                  "p95_wait_s, mean_jct_s, never_fit, fragmentation, recompositions, "
                  "mean_stretch, details, ran_at) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
                  "?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, "
                  "strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                  store.path());
    add.bind(1, sourceId).bind(2, r.design).bind(3, r.designFile).bind(4, r.way);
    add.bind(5, r.policy).bind(6, r.recomposeS).bind(7, r.stretch ? 1 : 0).bind(8, r.benchmark);
    add.bind(9, r.jobs).bind(10, r.gpus).bind(11, r.utilisation).bind(12, r.meanWaitS);
    add.bind(13, r.p95WaitS).bind(14, r.meanJctS).bind(15, r.neverFit);
    add.bind(16, r.fragmentation).bind(17, r.recompositions).bind(18, r.meanStretch);
    add.bindText(19, r.details).run();
}

std::vector<ScheduleRecord> schedules(Store &store)
{
    Statement q(store.connection(),
                "SELECT s.design, s.design_file, s.way, s.policy, s.recompose_s, s.stretch, "
                "s.benchmark, s.jobs, s.gpus, s.utilisation, s.mean_wait_s, s.p95_wait_s, "
                "s.mean_jct_s, s.never_fit, s.fragmentation, s.recompositions, s.mean_stretch, "
                "s.details, src.path, src.sha256, s.ran_at FROM schedules s "
                "JOIN sources src ON src.id = s.source_id ORDER BY s.id",
                store.path());
    std::vector<ScheduleRecord> out;
    while (q.step()) {
        ScheduleRecord r;
        r.design = q.text(0);
        r.designFile = q.text(1);
        r.way = q.text(2);
        r.policy = q.text(3);
        r.recomposeS = q.real(4);
        r.stretch = q.integer(5) != 0;
        r.benchmark = q.text(6);
        r.jobs = q.integer(7);
        r.gpus = q.integer(8);
        r.utilisation = q.real(9);
        r.meanWaitS = q.real(10);
        r.p95WaitS = q.real(11);
        r.meanJctS = q.real(12);
        r.neverFit = q.integer(13);
        r.fragmentation = q.real(14);
        r.recompositions = q.integer(15);
        r.meanStretch = q.real(16);
        r.details = q.isNull(17) ? std::string() : q.text(17);
        r.tracePath = q.text(18);
        r.traceSha256 = q.text(19);
        r.ranAt = q.text(20);
        out.push_back(std::move(r));
    }
    return out;
}

std::int64_t copySchedules(sqlite3 *in, const std::string &inPath, Store &out,
                           const std::function<std::int64_t(std::int64_t)> &sourceOf)
{
    Statement q(in, (std::string("SELECT ") + kColumns + " FROM schedules ORDER BY id").c_str(),
                inPath);
    std::string values;
    for (int i = 1; i <= kColumnCount; ++i)
        values += (i > 1 ? ", ?" : "?") + std::to_string(i);
    Statement add(
        out.connection(),
        (std::string("INSERT INTO schedules(") + kColumns + ") VALUES(" + values + ")").c_str(),
        out.path());
    Statement seen(out.connection(),
                   "SELECT 1 FROM schedules WHERE source_id = ?1 AND design_file = ?2 AND way = ?3 "
                   "AND policy = ?4 AND recompose_s = ?5 AND stretch = ?6 AND benchmark = ?7 "
                   "AND ran_at = ?8",
                   out.path());
    std::int64_t copied = 0;
    while (q.step()) {
        const std::int64_t source = sourceOf(q.integer(0));
        if (!source)
            continue;
        seen.bind(1, source).bind(2, q.text(2)).bind(3, q.text(3)).bind(4, q.text(4));
        seen.bind(5, q.real(5)).bind(6, q.integer(6)).bind(7, q.text(7)).bind(8, q.text(19));
        const bool repeat = seen.step();
        seen.reset();
        if (repeat)
            continue;
        add.bind(1, source);
        for (int c = 1; c < kColumnCount; ++c) {
            if (q.isNull(c))
                add.bindNull(c + 1);
            else if (c == 5 || (c >= 10 && c <= 13) || c == 15 || c == 17)
                add.bind(c + 1, q.real(c));
            else if (c == 6 || c == 8 || c == 9 || c == 14 || c == 16)
                add.bind(c + 1, q.integer(c));
            else
                add.bind(c + 1, q.text(c));
        }
        add.run();
        ++copied;
    }
    return copied;
}

} // namespace clab::store
