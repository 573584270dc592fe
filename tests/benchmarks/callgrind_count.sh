# Sourced by the callgrind_*.sh scripts. callgrind_count OUT_FILE [--toggle-collect=PATTERN]
# COMMAND...: the instructions valgrind's callgrind counts in the run (inside the functions
# matching PATTERN when given), repeatable on a noisy machine.
callgrind_count() {
  local out=$1; shift
  valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>&1
  callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }'
}
