#!/usr/bin/env bash
# Runs libFuzzer targets one after the other and prints what each did.
#   tests/fuzz/run.sh <build dir> <seconds per target> <target>...
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
status=0
summary=()
total_runs=0

for target in "$@"; do
  binary="$build/tests/fuzz/$target"
  seeds="$build/seeds/$(fuzz_seed_folder "$target")"
  corpus="$build/corpus/$target"
  log="$build/logs/$target.log"
  mkdir -p "$corpus"
  marker="$build/logs/$target.start"
  touch "$marker"
  echo "== $target: ${seconds}s, seeds $seeds, corpus $corpus"
  # -malloc_limit_mb: any single allocation above 64 MiB is a finding (the packet
  # types need a few KiB); -timeout: any input slower than 10 s is a finding (hang).
  rc=0
  "$binary" "$corpus" "$seeds" \
    -max_total_time="$seconds" -max_len=4096 -timeout=10 -malloc_limit_mb=64 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$build/findings/$target-" >"$log" 2>&1 || rc=$?
  stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -n 1; }
  runs=$(stat number_of_executed_units)
  rate=$(stat average_exec_per_sec)
  added=$(stat new_units_added)
  rss=$(stat peak_rss_mb)
  cov=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" | tail -n 1 || true)
  findings=$(find "$build/findings" -name "$target-*" -newer "$marker" | wc -l)
  total_runs=$((total_runs + ${runs:-0}))
  line=$(printf '%-20s %10s runs %7s exec/s  %-32s new %5s  rss %4s MB  findings %s' \
    "$target" "${runs:-?}" "${rate:-?}" "${cov:-}" "${added:-?}" "${rss:-?}" "$findings")
  summary+=("$line")
  if [ "$rc" -ne 0 ] || [ "$findings" -ne 0 ]; then
    status=1
    echo "== $target FAILED (exit $rc): the end of $log"
    tail -n 40 "$log"
  fi
done

printf '\n== fuzz summary (%s s per target)\n' "$seconds"
printf '   %s\n' "${summary[@]}"
printf '   total: %s runs\n' "$total_runs"
exit "$status"
