# netser: developer and CI entry points. `make help` lists the targets.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
MAKEFLAGS += --no-print-directory

JOBS      ?= 2
CMAKE     ?= cmake
CTEST     ?= ctest
GCC_CXX   ?= g++
CLANG_CXX ?= clang++-14

BUILD_DIR ?= build
ASAN_DIR  ?= build-asan

# The main demo: snapshot once samples/snapshot exists, packets until then.
DEMO      ?= $(if $(wildcard samples/snapshot/*.cpp),snapshot,packets)
DEMO_ARGS ?=
BENCH_ARGS ?=

# Debian packages. DEPS: build, test and demo (libenet-dev and pkg-config for
# samples/session, libode-dev for samples/snapshot's world). The rest: per CI job,
# installed by the target that needs them (deps-ci installs them all).
DEPS          := cmake make g++ libboost1.81-dev catch2 libbenchmark-dev libenet-dev libode-dev pkg-config
# make test only: tshark runs the generated Wireshark dissector (tests/schema). Its
# debconf question (non-root capture) is answered by DEBIAN_FRONTEND=noninteractive.
TEST_DEPS     := tshark python3
ASAN_DEPS     := clang libclang-rt-14-dev
FUZZ_DEPS     := clang libclang-rt-14-dev
VALGRIND_DEPS := valgrind
S390X_DEPS    := qemu-user g++-s390x-linux-gnu
I686_DEPS     := qemu-user g++-i686-linux-gnu
CI_DEPS       := $(sort $(ASAN_DEPS) $(FUZZ_DEPS) $(VALGRIND_DEPS) $(S390X_DEPS) $(I686_DEPS))
# The libraries tests/benchmarks/peers compares netser with, installed by `make bench`.
BENCH_DEPS    := protobuf-compiler libprotobuf-dev flatbuffers-compiler libflatbuffers-dev \
                 capnproto libcapnp-dev libcereal-dev
# Downloaded by apt-get and unpacked into $(PEERS_DEPS_DIR), not installed: Debian 12's
# libmsgpack-cxx-dev (MessagePack for C++, headers only) depends on libboost-dev (Boost
# 1.74), which conflicts with libboost1.81-dev. The benchmark uses it with MSGPACK_NO_BOOST.
BENCH_UNPACKED := libmsgpack-cxx-dev
PEERS_DEPS_DIR  = $(BUILD_DIR)/peers-deps

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# $(call install_missing,<packages>): apt-get install only those not installed.
define install_missing
missing=""; \
for p in $(1); do \
  dpkg -s "$$p" 2>/dev/null | grep -q '^Status: install ok installed' || missing="$$missing $$p"; \
done; \
if [ -n "$$missing" ]; then \
  echo "Installing:$$missing"; \
  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update; \
  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
fi
endef

# $(call unpack_missing,<packages>,<dir>): for each package not installed, download it
# with apt-get (updating the lists when it is not found) and unpack it into <dir>, once.
define unpack_missing
for p in $(1); do \
  dpkg -s "$$p" 2>/dev/null | grep -q '^Status: install ok installed' && continue; \
  [ -f "$(2)/$$p.unpacked" ] && continue; \
  mkdir -p "$(2)/debs"; \
  echo "Unpacking $$p into $(2)"; \
  (cd "$(2)/debs" && apt-get download "$$p") || \
    { $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update && (cd "$(2)/debs" && apt-get download "$$p"); }; \
  dpkg-deb -x "$$(ls -t "$(2)/debs/$${p}_"*.deb | head -n 1)" "$(2)"; \
  touch "$(2)/$$p.unpacked"; \
done
endef

# The release tree: g++ -O2, shared by `demo`, `test` and `bench`.
RELEASE_CONFIG := -DCMAKE_BUILD_TYPE=Release \
                  -DCMAKE_CXX_COMPILER=$(GCC_CXX) \
                  "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG"

# -O1: at -O0 the build was about a quarter faster, but its tests ran 6 minutes instead
# of about 2, and the fuzz smoke run did 1.1 M inputs in 9 x 20 s against 3.8 M.
# NETSER_NO_FORCED_INLINE: the same code without forced inlining, which compiles in less
# than half the time here (tests/hostile/range_test.cpp: 112 s against 297 s). The
# release tree (make test, valgrind) tests the library's default.
SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -O1 -g \
            -DNETSER_NO_FORCED_INLINE
# The fuzz targets are built here too (libFuzzer on top of the same sanitizers), so
# that CI's fuzz smoke run (fuzz-smoke-asan) needs no build of its own.
ASAN_CONFIG := -DCMAKE_BUILD_TYPE=Debug \
               -DCMAKE_CXX_COMPILER=$(CLANG_CXX) \
               "-DCMAKE_CXX_FLAGS=$(SANITIZE)" \
               -DNETSER_BUILD_BENCHMARKS=OFF -DNETSER_BUILD_HEADER_CHECKS=OFF -DNETSER_BUILD_FUZZ=ON

CTEST_ARGS := --output-on-failure -j$(JOBS)

# --- hardening: fuzzing, other hosts, valgrind (SECURITY.md says what each proves) ---

# The unit-test executables (tests/<dir>/*_test.cpp, and the demo's counter and scene
# tests), for the cross builds and valgrind: every suite that runs without the network
# or Python. unit_suite_path is where one is in a build tree. The scene tests simulate on
# ODE, which the cross toolchains do not have (CMake leaves them out there): CROSS_SUITES
# are the others (the encodings suite has not run on them yet). Under valgrind (about
# 40 times slower) the cases tagged [long] (the scene's 2837 frames, attacks on every
# bit of hundreds of packets) would take many minutes: valgrind_args leaves them out;
# every other job runs them. (It leaves out the hidden cases, [.], too: an exclusion alone
# would run them, and they write files for other tests or print figures for the docs.)
UNIT_SUITES = $(foreach d,core reflect encodings packet game delta session hostile schema,$(if $(wildcard tests/$(d)/*_test.cpp),netser_$(d)_tests)) \
              $(if $(wildcard tests/demo/counter_test.cpp),netser_demo_counter_tests) \
              $(if $(wildcard tests/demo/scene_test.cpp),netser_demo_scene_tests)
CROSS_SUITES = $(filter-out netser_demo_scene_tests netser_encodings_tests,$(UNIT_SUITES))
unit_suite_path = tests/$(if $(filter netser_demo_%,$(1)),demo/)$(1)
valgrind_args := '~[long]~[.]'
# ctest runs a suite as one test per source file (<suite>:<file>); the demo's suites whole.
suites_regex = ^($(subst $(eval) ,|,$(strip $(1))))(:|$$)
# $(call build_targets,<build dir>,<targets>): builds the targets in one parallel build
# (CMake's Makefiles build targets named on the command line one after the other): they
# become the dependencies of the tree's netser_job_targets (CMakeLists.txt).
define build_targets
$(CMAKE) -S . -B $(1) "-DNETSER_JOB_TARGETS=$(subst $(eval) ,;,$(strip $(2)))"
$(CMAKE) --build $(1) -j$(JOBS) --target netser_job_targets
endef

# Seconds each libFuzzer target runs in `make fuzz` (fuzz-smoke: 60 unless given).
FUZZ_SECONDS ?= 300
FUZZ_SMOKE_SECONDS = $(if $(filter command line environment,$(origin FUZZ_SECONDS)),$(FUZZ_SECONDS),60)
FUZZ_DIR     ?= build-fuzz
# Targets fuzzed at once (each is one process on one core).
FUZZ_JOBS    ?= $(JOBS)
FUZZ_TARGETS := read_fuzz packet_fuzz packet_crc_fuzz roundtrip_fuzz delta_fuzz delta_roundtrip_fuzz elements_fuzz session_fuzz budget_fuzz
FUZZ_CONFIG  := -DCMAKE_BUILD_TYPE=Debug \
                -DCMAKE_CXX_COMPILER=$(CLANG_CXX) \
                "-DCMAKE_CXX_FLAGS_DEBUG=-O2 -g -fno-omit-frame-pointer" \
                -DNETSER_BUILD_FUZZ=ON -DNETSER_BUILD_TESTS=OFF \
                -DNETSER_BUILD_SAMPLES=OFF -DNETSER_BUILD_BENCHMARKS=OFF

# The cross builds are warning-free too (32-bit size_t on i686, big-endian s390x), so
# they enforce -Werror like the x86-64 jobs. CROSS_WERROR=OFF shows warnings without
# failing, e.g. to try another cross compiler.
CROSS_WERROR ?= ON
# NETSER_NO_FORCED_INLINE: as in SANITIZE (g++ -O2 compiles range_test.cpp in 64 s against
# 155). -O1: the i686 compiler takes 45 s on range_test.cpp against 66 s at -O2 (and 9 s
# against 14 s on container_test.cpp); the jobs check byte order and 32-bit sizes, and
# the release tree checks -O2 (the packet suite's -O0 and -O3 files keep their levels).
CROSS_CONFIG := -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG -DNETSER_NO_FORCED_INLINE" \
                -DNETSER_BUILD_SAMPLES=OFF -DNETSER_BUILD_BENCHMARKS=OFF \
                -DNETSER_WARNINGS_AS_ERRORS=$(CROSS_WERROR)
S390X_DIR ?= build-s390x
I686_DIR  ?= build-i686
# The i686 tests run under qemu-i386: a kernel without 32-bit support (containers, some
# CI runners) cannot run them natively. I686_EMULATOR= runs them natively.
I686_EMULATOR ?= qemu-i386

# nouserintercepts: the hostile tests' own operator new / delete (a counting allocator
# over malloc / free) stay theirs, instead of valgrind replacing only the calls it sees.
VALGRIND        ?= valgrind --error-exitcode=1 --leak-check=full --show-leak-kinds=definite,indirect,possible --quiet \
                   --soname-synonyms=somalloc=nouserintercepts
.PHONY: help deps deps-ci configure demo test compile-fail asan bench bench-deps bench-peers clean fuzz fuzz-smoke fuzz-smoke-asan fuzz-build s390x i686 valgrind

help:
	@echo "make deps     install the Debian packages needed to build and test"
	@echo "make demo     build and run samples/$(DEMO) (DEMO=<sample> DEMO_ARGS=...)"
	@echo "make test     g++ release build of everything, then all tests (ctest)"
	@echo "make compile-fail  the compile-fail tests alone, with g++ and clang++: each message and its line count"
	@echo "make asan     clang++ ASan+UBSan build of the unit tests and fuzz targets in $(ASAN_DIR), then the tests (ASAN_ALL=1: all)"
	@echo "make bench    install the peer libraries, build and run the benchmarks (BENCH_ARGS=...)"
	@echo "make bench-peers  only netser beside protobuf, FlatBuffers, Cap'n Proto, cereal, MessagePack"
	@echo "make fuzz     clang libFuzzer targets, FUZZ_SECONDS=$(FUZZ_SECONDS) s each, FUZZ_JOBS=$(FUZZ_JOBS) at once (corpus kept in $(FUZZ_DIR))"
	@echo "make fuzz-smoke  the same, 60 s each unless FUZZ_SECONDS is given"
	@echo "make fuzz-smoke-asan  the same on the fuzz targets of the ASan tree (CI, after make asan)"
	@echo "make s390x    cross-build the unit tests for s390x (big-endian), run them under qemu"
	@echo "make i686     cross-build the unit tests for 32-bit x86, run them"
	@echo "make valgrind the release tree's unit tests under valgrind memcheck (without [long] cases)"
	@echo "make clean    remove the build trees"

deps:
	@$(call install_missing,$(DEPS))

deps-ci: deps
	@$(call install_missing,$(CI_DEPS))

configure: deps
	$(CMAKE) -S . -B $(BUILD_DIR) $(RELEASE_CONFIG)

demo: configure
	$(CMAKE) --build $(BUILD_DIR) --target $(DEMO) -j$(JOBS)
	$(BUILD_DIR)/samples/$(DEMO)/$(DEMO) $(DEMO_ARGS)

test: configure
	@$(call install_missing,$(TEST_DEPS))
	$(CMAKE) --build $(BUILD_DIR) -j$(JOBS)
	$(CTEST) --test-dir $(BUILD_DIR) $(CTEST_ARGS)

# tests/compile_fail with the build's compiler and the other one (clang++ beside g++),
# then a table: lines printed, compiler, test, first error line.
compile-fail: configure
	@$(call install_missing,$(ASAN_DEPS))
	$(CMAKE) -S . -B $(BUILD_DIR) -DNETSER_COMPILE_FAIL_CXX=$(CLANG_CXX)
	$(CTEST) --test-dir $(BUILD_DIR) -L compile_fail $(CTEST_ARGS)
	@sed -n 's|^-- .*/compile_fail/\([a-z_]*\)\.cpp: \([0-9]*\) lines with \([^;]*\); first error: [^ ]* error: \(.*\)$$|\2\t\3\t\1\t\4|p' \
	  $(BUILD_DIR)/Testing/Temporary/LastTest.log | sort -t '	' -k3,3 -k2,2

# The sanitized build: the unit-test suites (the hostile ones among them) and the fuzz
# targets, which fuzz-smoke-asan runs. ASAN_ALL=1: every test that executes (samples,
# schema tools, documentation examples too; the compile-fail checks, the consumer builds
# and the header checks only compile, and `make test` runs them).
ASAN_ALL ?=
ASAN_SANITIZER_ENV := ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1 \
                      UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
asan: deps
	@$(call install_missing,$(ASAN_DEPS) $(TEST_DEPS))
	$(CMAKE) -S . -B $(ASAN_DIR) $(ASAN_CONFIG)
ifeq ($(ASAN_ALL),)
	$(call build_targets,$(ASAN_DIR),$(UNIT_SUITES) make_seeds $(FUZZ_TARGETS))
	$(ASAN_SANITIZER_ENV) $(CTEST) --test-dir $(ASAN_DIR) $(CTEST_ARGS) -R '$(call suites_regex,$(UNIT_SUITES))'
else
	$(CMAKE) --build $(ASAN_DIR) -j$(JOBS)
	$(ASAN_SANITIZER_ENV) $(CTEST) --test-dir $(ASAN_DIR) $(CTEST_ARGS) -LE '^(compile_fail|consumer)$$'
endif

# The peer libraries first, so that configuring finds them (tests/benchmarks/peers).
bench-deps: deps
	@$(call install_missing,$(BENCH_DEPS))
	@$(call unpack_missing,$(BENCH_UNPACKED),$(PEERS_DEPS_DIR))

bench: bench-deps
	$(CMAKE) -S . -B $(BUILD_DIR) $(RELEASE_CONFIG)
	$(CMAKE) --build $(BUILD_DIR) --target netser_benchmarks -j$(JOBS)
	@found=0; \
	for b in $(BUILD_DIR)/tests/benchmarks/*_bench; do \
	  [ -x "$$b" ] || continue; found=1; \
	  echo "== $$b"; "$$b" $(BENCH_ARGS); \
	done; \
	[ "$$found" = 1 ] || echo "no benchmarks (tests/benchmarks/*_bench.cpp)"

# The table of docs/peers.md: medians of 5 runs (peers_bench's default).
bench-peers: bench-deps
	$(CMAKE) -S . -B $(BUILD_DIR) $(RELEASE_CONFIG)
	$(CMAKE) --build $(BUILD_DIR) --target peers_bench -j$(JOBS)
	$(BUILD_DIR)/tests/benchmarks/peers_bench $(BENCH_ARGS)

# libFuzzer targets (tests/fuzz) with ASan + UBSan, and their seed corpora.
fuzz-build: deps
	@$(call install_missing,$(FUZZ_DEPS))
	$(CMAKE) -S . -B $(FUZZ_DIR) $(FUZZ_CONFIG)
	$(call build_targets,$(FUZZ_DIR),$(FUZZ_TARGETS) make_seeds)
	$(FUZZ_DIR)/tests/fuzz/make_seeds $(FUZZ_DIR)/seeds

fuzz: fuzz-build
	FUZZ_JOBS=$(FUZZ_JOBS) tests/fuzz/run.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# CI: a fresh corpus, so each run starts from the seeds.
fuzz-smoke: fuzz-build
	rm -rf $(FUZZ_DIR)/corpus
	FUZZ_JOBS=$(FUZZ_JOBS) tests/fuzz/run.sh $(FUZZ_DIR) $(FUZZ_SMOKE_SECONDS) $(FUZZ_TARGETS)

# CI: the same run on the fuzz targets of the ASan tree (clang -O1; `make asan` built
# them), so that CI compiles them once.
fuzz-smoke-asan: FUZZ_DIR := $(ASAN_DIR)
fuzz-smoke-asan: FUZZ_CONFIG := $(ASAN_CONFIG)
fuzz-smoke-asan: fuzz-smoke

# $(call cross_tests,<toolchain>,<build dir>[,<more cmake arguments>]): the unit-test
# suites only (no samples, benchmarks, header or consumer checks; no ODE scene), run by
# ctest (through qemu where the toolchain or the arguments name an emulator).
define cross_tests
$(CMAKE) -S . -B $(2) -DCMAKE_TOOLCHAIN_FILE=$(CURDIR)/cmake/$(1) $(CROSS_CONFIG) $(3)
$(call build_targets,$(2),$(CROSS_SUITES))
$(CTEST) --test-dir $(2) $(CTEST_ARGS) -R '$(call suites_regex,$(CROSS_SUITES))'
endef

s390x: deps
	@$(call install_missing,$(S390X_DEPS))
	$(call cross_tests,toolchain-s390x.cmake,$(S390X_DIR))

i686: deps
	@$(call install_missing,$(I686_DEPS))
	$(call cross_tests,toolchain-i686.cmake,$(I686_DIR),"-DCMAKE_CROSSCOMPILING_EMULATOR=$(I686_EMULATOR)")

# memcheck over every unit-test executable of the release tree (`make test` builds it;
# -O2 without -g: a report names functions, not lines), without the cases tagged [long].
# The fuzz targets' inputs run under ASan + UBSan (fuzz-smoke-asan, `make fuzz`), not here.
valgrind: configure
	@$(call install_missing,$(VALGRIND_DEPS))
	$(CMAKE) --build $(BUILD_DIR) -j$(JOBS) --target $(UNIT_SUITES)
	@passed=0; failed=0; \
	run() { \
	  echo "== valgrind $$*"; start=$$SECONDS; \
	  if (cd tests && $(VALGRIND) "$$@"); then passed=$$((passed + 1)); else failed=$$((failed + 1)); fi; \
	  echo "== $$((SECONDS - start)) s"; \
	}; \
	$(foreach s,$(UNIT_SUITES),run $(CURDIR)/$(BUILD_DIR)/$(call unit_suite_path,$(s)) $(valgrind_args);) \
	echo "valgrind: $$passed passed, $$failed failed"; \
	[ "$$failed" = 0 ]

clean:
	rm -rf $(BUILD_DIR) $(ASAN_DIR)
