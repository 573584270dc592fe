#!/usr/bin/env bash
# Delta compression in instruction counts (callgrind: repeatable on a noisy machine).
# Compiles delta_overhead_bench.cpp with g++ and clang++ at -O2 and -O3 and counts the
# instructions of serialize_delta alone, per snapshot, over `count` snapshots (default
# 200): the 901-cube snapshot with 101 cubes changed and 128 units (integers, a
# described enum, an optional) with 32 changed, written and read by serialize_delta
# (reflected) and by a hand-written delta of the same wire on netser's core primitives
# (hand). Prints instructions per snapshot and the ratio to hand. Measures; judges
# nothing.
#
#   tests/benchmarks/callgrind_delta.sh [count]
#   CXXS="clang++-14" LEVELS="-O2" OPS="write" tests/benchmarks/callgrind_delta.sh
#   NETSER_ROOT=../other-checkout tests/benchmarks/callgrind_delta.sh   # another tree's headers
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "${NETSER_ROOT:-$here/../..}" && pwd)"
count="${1:-200}"
cxxs="${CXXS:-g++ clang++-14}"
levels="${LEVELS:--O2 -O3}"
ops="${OPS:-write read}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

. "$here/callgrind_count.sh"
instructions() { # exe op kind shape -> Ir inside the run_* function
  callgrind_count "$work/cg.out" "--toggle-collect=*run_${2}_${3}*" "$1" "$2" "$3" "$4" "$count"
}

printf '%-13s %-4s %-6s %-6s %10s %10s %10s\n' compiler opt shape op hand reflected refl/hand
for cxx in $cxxs; do
  for level in $levels; do
    exe="$work/delta_${cxx}${level}"
    "$cxx" -std=c++20 "$level" -DNDEBUG -I"$root/include" -I"$root/reflect" "$here/delta_overhead_bench.cpp" -o "$exe"
    "$exe" >/dev/null || { echo "$cxx $level: the hand-written delta differs"; exit 1; }
    for op in $ops; do
      for shape in cubes units; do
        h=$(instructions "$exe" "$op" hand "$shape")
        r=$(instructions "$exe" "$op" reflected "$shape")
        awk -v c="$cxx" -v l="$level" -v s="$shape" -v o="$op" -v h="$h" -v r="$r" -v n="$count" \
          'BEGIN { printf "%-13s %-4s %-6s %-6s %10.0f %10.0f %10.2f\n", c, l, s, o, h / n, r / n, r / h }'
      done
    done
  done
done
