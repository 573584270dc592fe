#!/usr/bin/env bash
# Rotation writes and reads in instruction counts (callgrind: repeatable on a noisy
# machine). Compiles quaternion_bench.cpp with g++ and clang++ at -O2 and counts the
# instructions of one pass over its 10,000 quaternions (write_all / read_all alone), per
# quaternion, next to the plain write and read of four quantized floats of the same bits.
# Exit 1 when a rotation write costs more than 2x the plain write.
#
#   tests/benchmarks/callgrind_quaternion.sh [g++ clang++ ...]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
count=10000
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
compilers=("$@")
[ ${#compilers[@]} -gt 0 ] || compilers=(g++ clang++-14)

. "$here/callgrind_count.sh"
total() { # exe mode op/name -> Ir of the whole run
  callgrind_count "$work/cg.out" "$1" "$2" "$3"
}

instructions() { # exe op name -> Ir of one pass (the run minus its setup alone), per quaternion
  local exe=$1 op=$2 name=$3 once setup
  once=$(total "$exe" --once "$op/$name")
  setup=$(total "$exe" --setup "$op/$name")
  awk -v a="$once" -v b="$setup" -v n="$count" 'BEGIN { printf "%.1f", (a - b) / n }'
}

printf '%-12s %-6s %-6s %10s %16s %7s %17s %7s\n' compiler op bits plain smallest_three ratio unit_quaternion ratio
status=0
for cxx in "${compilers[@]}"; do
  exe="$work/quaternion_bench_${cxx//[^a-z0-9]/_}"
  "$cxx" -std=c++20 -O2 -DNDEBUG -I"$root/include" -I"$root/reflect" "$here/quaternion_bench.cpp" -o "$exe" \
    -lbenchmark -lpthread
  # The bytes and the write-back checks, once, natively.
  if "$exe" --benchmark_min_time=0 2>&1 | grep 'ERROR OCCURRED'; then echo "$cxx: a benchmark failed its checks"; exit 1; fi
  for op in write read; do
    for bits in 9 12 16; do
      p=$(instructions "$exe" "$op" "plain_$bits")
      s=$(instructions "$exe" "$op" "smallest_three_$bits")
      u=$(instructions "$exe" "$op" "unit_quaternion_$bits")
      rs=$(awk -v a="$s" -v b="$p" 'BEGIN { printf "%.2f", a / b }')
      ru=$(awk -v a="$u" -v b="$p" 'BEGIN { printf "%.2f", a / b }')
      printf '%-12s %-6s %-6s %10s %16s %7s %17s %7s\n' "$cxx" "$op" "$bits" "$p" "$s" "$rs" "$u" "$ru"
      if [ "$op" = write ]; then
        awk -v x="$rs" -v y="$ru" 'BEGIN { exit !(x > 2 || y > 2) }' && status=1
      fi
    done
  done
done
exit $status
