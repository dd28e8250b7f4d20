#!/usr/bin/env bash
# Fuzzing of every reader and of the command line (tests/fuzz). Builds the libFuzzer targets with
# clang, ASan and UBSan in build-fuzz/ (or $COMPOSELAB_FUZZ_BUILD_DIR), installing what is missing,
# then either
#   scripts/fuzz.sh --replay     runs every input of the committed corpus once (what CI does), or
#   scripts/fuzz.sh [--seconds N] [--jobs J] [TARGET...]
#                                fuzzes each target (design, catalog, cli, ...; default all) for N
#                                seconds (default 600), J at a time (default 1), at nice 19, and
#                                merges what it learnt into tests/fuzz/corpus/<target> (-merge=1).
# A crash, leak, UB, hang or broken property leaves its input in build-fuzz/artifacts/<target>/
# and makes the script exit 1. Logs (with libFuzzer's execution counts) go to build-fuzz/logs/.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${COMPOSELAB_FUZZ_BUILD_DIR:-$root/build-fuzz}"
replay=0
seconds=600
jobs=1
targets=()
while (($#)); do
    case "$1" in
    --replay) replay=1 ;;
    --seconds) seconds="$2"; shift ;;
    --jobs) jobs="$2"; shift ;;
    -h | --help) sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) targets+=("$1") ;;
    esac
    shift
done

# What the fuzz build needs on a fresh Debian 12: the libraries of scripts/setup.sh, clang and
# libFuzzer's runtime (libclang-rt-dev holds libclang_rt.fuzzer-x86_64.a).
packages=(
    cmake ninja-build clang libclang-rt-dev pkg-config
    qt6-base-dev qt6-svg-dev libqcustomplot-dev
    libboost-graph-dev nlohmann-json3-dev libcli11-dev libsqlite3-dev
)
missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
if ((${#missing[@]})); then
    echo "Installing missing packages: ${missing[*]}"
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        sudo="sudo"
    fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++ -DCOMPOSELAB_FUZZ=ON -DCOMPOSELAB_BUILD_TESTS=OFF \
    ${COMPOSELAB_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" --target fuzz -j"${COMPOSELAB_JOBS:-$(nproc)}"

export UBSAN_OPTIONS="print_stacktrace=1:${UBSAN_OPTIONS:-}"

if ((replay)); then
    ctest --test-dir "$build" -L fuzz --output-on-failure -j"$(nproc)"
    exit 0
fi

if ((${#targets[@]} == 0)); then
    for source in "$root"/tests/fuzz/fuzz_*.cpp; do
        name="$(basename "$source" .cpp)"
        targets+=("${name#fuzz_}")
    done
fi
mkdir -p "$build/logs"

# Fuzzes one target, then merges the committed corpus and the new inputs into a minimal corpus
# that replaces the committed one, except the inputs named found-*: those once crashed a reader
# and stay whether or not they add coverage. Writes "<executions> <exit status>" to
# logs/<target>.result.
fuzz_one() {
    local name="$1"
    local bin="$build/fuzz/fuzz_$name" corpus="$root/tests/fuzz/corpus/$name"
    local work="$build/corpus/$name" log="$build/logs/$name.log"
    local dict=()
    [ -f "$root/tests/fuzz/dict/$name.dict" ] && dict=(-dict="$root/tests/fuzz/dict/$name.dict")
    mkdir -p "$work" "$corpus" "$build/artifacts/$name"
    local status=0
    nice -n 19 "$bin" -max_total_time="$seconds" -timeout=25 -print_final_stats=1 \
        -artifact_prefix="$build/artifacts/$name/" "${dict[@]}" "$work" "$corpus" >"$log" 2>&1 \
        || status=$?
    local runs
    runs="$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | awk '{print $2}')"
    local merged
    merged="$(mktemp -d "$build/corpus/$name.merge.XXXXXX")"
    # Edges only (-use_counters=0): every edge found stays covered, with about a fifth of the
    # files that hit counts would keep, so that the corpus stays small enough for the repository.
    if nice -n 19 "$bin" -merge=1 -use_counters=0 -timeout=25 "$merged" "$corpus" "$work" \
        >>"$log" 2>&1; then
        find "$corpus" -maxdepth 1 -type f ! -name 'found-*' -delete
        mv "$merged"/* "$corpus"/ 2>/dev/null || true
        local found
        for found in "$corpus"/found-*; do # merged files are named by their SHA-1
            if [ -e "$found" ]; then
                rm -f "$corpus/$(sha1sum <"$found" | cut -d' ' -f1)"
            fi
        done
    fi
    rm -rf "$merged"
    echo "${runs:-0} $status" >"$build/logs/$name.result"
}

for name in "${targets[@]}"; do
    if [ ! -x "$build/fuzz/fuzz_$name" ]; then
        echo "fuzz.sh: no target fuzz_$name (tests/fuzz/fuzz_$name.cpp)" >&2
        exit 2
    fi
    rm -f "$build/logs/$name.result"
    while (($(jobs -rp | wc -l) >= jobs)); do
        wait -n || true
    done
    echo "fuzzing $name for $seconds s"
    fuzz_one "$name" &
done
wait

failed=0
printf '%-16s %14s  %s\n' target executions result
for name in "${targets[@]}"; do
    read -r runs status <"$build/logs/$name.result"
    result="ok"
    if [ "$status" -ne 0 ]; then
        result="FAILED (exit $status): see $build/logs/$name.log and $build/artifacts/$name/"
        failed=1
    fi
    printf '%-16s %14s  %s\n' "$name" "$runs" "$result"
done
exit "$failed"
