#!/usr/bin/env bash
# Reflection overhead in instruction counts (callgrind: repeatable on a noisy machine).
# Compiles overhead_bench.cpp with g++ and clang++ at -O2 and counts the instructions of
# the hand-written and the reflected write and read functions alone, 100,000 structs each.
#
#   tests/benchmarks/callgrind_overhead.sh [count]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
count="${1:-100000}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

instructions() { # exe op kind type -> Ir inside the run_* function
  local exe=$1 op=$2 kind=$3 type=$4 fn
  fn="run_${op}_${kind}"
  valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "--toggle-collect=*${fn}*" \
    "$exe" "$op" "$kind" "$type" "$count" >/dev/null 2>&1
  callgrind_annotate "$work/cg.out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }'
}

printf '%-8s %-7s %-6s %14s %14s %8s\n' compiler type op hand reflected ratio
status=0
for cxx in g++ clang++; do
  exe="$work/overhead_$cxx"
  "$cxx" -std=c++20 -O2 -DNDEBUG -I"$root/include" -I"$root/reflect" "$here/overhead_bench.cpp" -o "$exe"
  "$exe" >/dev/null || { echo "$cxx: reflected output differs"; exit 1; }
  for type in s94 player; do
    for op in write read; do
      h=$(instructions "$exe" "$op" hand "$type")
      r=$(instructions "$exe" "$op" reflected "$type")
      ratio=$(awk -v h="$h" -v r="$r" 'BEGIN { printf "%.3f", r / h }')
      printf '%-8s %-7s %-6s %14s %14s %8s\n' "$cxx" "$type" "$op" "$h" "$r" "$ratio"
      awk -v x="$ratio" 'BEGIN { exit !(x > 1.05) }' && status=1
    done
  done
done
exit $status
