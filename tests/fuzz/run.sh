#!/usr/bin/env bash
# Runs libFuzzer targets, FUZZ_JOBS at a time (default 1: one after the other; each
# target is one process on one core), and prints what each did.
#   [FUZZ_JOBS=N] tests/fuzz/run.sh <build dir> <seconds per target> <target>...
# Inputs: <build dir>/seeds/<folder> (make_seeds; seed_folder.sh names the target's) and
# <build dir>/corpus/<target> (grown by earlier runs). Crashes, leaks, timeouts and
# over-limit allocations are written to <build dir>/findings/<target>-*; logs to
# <build dir>/logs/<target>.log.
# Exits non-zero when any target finds anything in this run.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/seed_folder.sh"

build="$1"
seconds="$2"
shift 2

mkdir -p "$build/findings" "$build/logs"
jobs_at_once="${FUZZ_JOBS:-1}"

# run_one <target>: runs it, writes its summary line to logs/<target>.summary and its
# exit status (0: nothing found) to logs/<target>.status.
run_one() {
  local target="$1"
  local binary="$build/tests/fuzz/$target"
  local seeds="$build/seeds/$(fuzz_seed_folder "$target")"
  local corpus="$build/corpus/$target"
  local log="$build/logs/$target.log"
  local marker="$build/logs/$target.start"
  mkdir -p "$corpus"
  touch "$marker"
  echo "== $target: ${seconds}s, seeds $seeds, corpus $corpus"
  # -malloc_limit_mb: any single allocation above 64 MiB is a finding (the packet
  # types need a few KiB); -timeout: any input slower than 10 s is a finding (hang).
  local rc=0
  "$binary" "$corpus" "$seeds" \
    -max_total_time="$seconds" -max_len=4096 -timeout=10 -malloc_limit_mb=64 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$build/findings/$target-" >"$log" 2>&1 || rc=$?
  stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -n 1; }
  local runs rate added rss cov findings
  runs=$(stat number_of_executed_units)
  rate=$(stat average_exec_per_sec)
  added=$(stat new_units_added)
  rss=$(stat peak_rss_mb)
  cov=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" | tail -n 1 || true)
  findings=$(find "$build/findings" -name "$target-*" -newer "$marker" | wc -l)
  printf '%-20s %10s runs %7s exec/s  %-32s new %5s  rss %4s MB  findings %s\n' \
    "$target" "${runs:-?}" "${rate:-?}" "${cov:-}" "${added:-?}" "${rss:-?}" "$findings" >"$build/logs/$target.summary"
  echo "${runs:-0}" >"$build/logs/$target.runs"
  if [ "$rc" -ne 0 ] || [ "$findings" -ne 0 ]; then
    echo "== $target FAILED (exit $rc): the end of $log"
    tail -n 40 "$log"
    echo 1 >"$build/logs/$target.status"
  else
    echo 0 >"$build/logs/$target.status"
  fi
}

for target in "$@"; do
  rm -f "$build/logs/$target.status" "$build/logs/$target.summary" "$build/logs/$target.runs"
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_at_once" ]; do wait -n || true; done
  run_one "$target" &
done
wait

status=0
total_runs=0
printf '\n== fuzz summary (%s s per target)\n' "$seconds"
for target in "$@"; do
  # A target without a status file did not finish its run: a failure too.
  if [ "$(cat "$build/logs/$target.status" 2>/dev/null || echo 1)" != 0 ]; then status=1; fi
  printf '   %s\n' "$(cat "$build/logs/$target.summary" 2>/dev/null || echo "$target: no summary")"
  total_runs=$((total_runs + $(cat "$build/logs/$target.runs" 2>/dev/null || echo 0)))
done
printf '   total: %s runs\n' "$total_runs"
exit "$status"
