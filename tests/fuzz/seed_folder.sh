# Sourced by tests/fuzz/run.sh and the Makefile's valgrind target.
# fuzz_seed_folder <target>: the folder of make_seeds' output whose inputs have the
# target's format.
fuzz_seed_folder() {
  case "$1" in
    packet*) echo packet ;;
    delta_roundtrip*) echo delta_roundtrip ;;
    delta*) echo delta ;;
    session*) echo session ;;
    budget*) echo budget ;;
    *) echo raw ;;
  esac
}
