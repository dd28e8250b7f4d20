#!/usr/bin/env bash
# The seed study as a 4-task Slurm job array on a real Slurm started here on localhost (munged,
# slurmctld and slurmd, no systemd: proctrack/linuxproc, task/none, cgroup.conf that ignores
# systemd), its shards merged and compared with the whole run. Usage: study_array.sh COMPOSELAB.
# Exit 77 (ctest: skipped) with the reason when Slurm is absent or cannot start. Starts and stops
# only the daemons it launched, by the process ids they wrote.
set -uo pipefail

composelab="$(realpath "$1")"
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; for log in "$dir"/*.log; do echo "--- $log"; tail -n 20 "$log"; done; exit 1; }

for tool in munged slurmctld slurmd sbatch sinfo sqlite3; do
    command -v "$tool" >/dev/null || skip "$tool is not installed (apt install slurm-wlm munge sqlite3)"
done
[ "$(id -u)" -eq 0 ] || skip "slurmd must run as root to start jobs; run the tests as root to include this one"

dir="$(mktemp -d /tmp/composelab-slurm.XXXXXX)"
stop() {
    for daemon in slurmd slurmctld munged; do
        [ -s "$dir/$daemon.pid" ] && kill "$(cat "$dir/$daemon.pid")" 2>/dev/null
    done
    sleep 1
    rm -rf "$dir"
}
trap stop EXIT

# Two free TCP ports for slurmctld and slurmd (a port that accepts a connection is taken).
ports=()
for ((port = 20000 + RANDOM % 20000; ${#ports[@]} < 2; port++)); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || ports+=("$port")
done

head -c 1024 /dev/urandom >"$dir/munge.key"
chmod 600 "$dir/munge.key"
munged --force --socket="$dir/munge.sock" --key-file="$dir/munge.key" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" ||
    skip "munged did not start"

host="$(hostname -s)"
cat >"$dir/slurm.conf" <<EOF
ClusterName=composelab
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
SlurmctldPort=${ports[0]}
SlurmdPort=${ports[1]}
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=study Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
cat >"$dir/cgroup.conf" <<EOF
CgroupPlugin=autodetect
IgnoreSystemd=yes
EOF
mkdir -p "$dir/state" "$dir/spool"
export SLURM_CONF="$dir/slurm.conf"
slurmctld -c -f "$SLURM_CONF" || skip "slurmctld did not start: $(tail -n 3 "$dir/slurmctld.log" 2>/dev/null)"
slurmd -f "$SLURM_CONF" || skip "slurmd did not start: $(tail -n 3 "$dir/slurmd.log" 2>/dev/null)"
for ((i = 0; i < 60; i++)); do
    [ "$(sinfo -h -o %T 2>/dev/null)" = "idle" ] && break
    sleep 0.5
done
[ "$(sinfo -h -o %T 2>/dev/null)" = "idle" ] || skip "the node did not become idle: $(sinfo 2>&1 | tail -n 1)"

cd "$dir" || fail "no $dir"
"$composelab" example seed-study --out seed.clabstudy || fail "example seed-study"
cat >task.sh <<EOF
#!/bin/bash
exec "$composelab" study seed.clabstudy --db shard-\$SLURM_ARRAY_TASK_ID.sqlite \\
    --shard \$SLURM_ARRAY_TASK_ID/4 --jobs 1
EOF
chmod +x task.sh
sbatch --wait --array=1-4 --cpus-per-task=1 --chdir="$dir" --output="$dir/task-%a.log" task.sh ||
    fail "the job array failed"
"$composelab" merge merged.sqlite shard-1.sqlite shard-2.sqlite shard-3.sqlite shard-4.sqlite ||
    fail "merge"
"$composelab" study seed.clabstudy --db whole.sqlite 2>/dev/null >/dev/null || fail "whole run"

runs() {
    sqlite3 "$1" "SELECT s.name, r.benchmark, r.metric, r.value, r.tags, r.details FROM runs r
                  JOIN systems s ON s.id = r.system_id ORDER BY 1, 2, 3, 4, 5, 6"
}
[ "$(runs merged.sqlite | wc -l)" -eq 48 ] || fail "merged store has $(runs merged.sqlite | wc -l) runs, not 48"
diff <(runs merged.sqlite) <(runs whole.sqlite) >/dev/null || fail "the merged shards differ from the whole run"
echo "PASS: 4 array tasks on Slurm $(sinfo -V | cut -d' ' -f2), merged: 48 runs, equal to the whole run"
