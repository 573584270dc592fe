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

# Debian packages. DEPS: build, test and demo. The rest: per CI job, installed
# by the target that needs them (deps-ci installs them all).
DEPS          := cmake make g++ libboost1.81-dev catch2 libbenchmark-dev
ASAN_DEPS     := clang libclang-rt-14-dev
FUZZ_DEPS     := clang libclang-rt-14-dev
VALGRIND_DEPS := valgrind
S390X_DEPS    := qemu-user g++-s390x-linux-gnu
I686_DEPS     := qemu-user g++-i686-linux-gnu
CI_DEPS       := $(sort $(ASAN_DEPS) $(FUZZ_DEPS) $(VALGRIND_DEPS) $(S390X_DEPS) $(I686_DEPS))

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

# The release tree: g++ -O2, shared by `demo`, `test` and `bench`.
RELEASE_CONFIG := -DCMAKE_BUILD_TYPE=Release \
                  -DCMAKE_CXX_COMPILER=$(GCC_CXX) \
                  "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG"

SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -O1 -g
ASAN_CONFIG := -DCMAKE_BUILD_TYPE=Debug \
               -DCMAKE_CXX_COMPILER=$(CLANG_CXX) \
               "-DCMAKE_CXX_FLAGS=$(SANITIZE)" \
               -DNETSER_BUILD_BENCHMARKS=OFF

CTEST_ARGS := --output-on-failure -j$(JOBS)

.PHONY: help deps deps-ci configure demo test asan bench clean

help:
	@echo "make deps     install the Debian packages needed to build and test"
	@echo "make demo     build and run samples/$(DEMO) (DEMO=<sample> DEMO_ARGS=...)"
	@echo "make test     g++ release build of everything, then all tests (ctest)"
	@echo "make asan     clang++ ASan+UBSan build in $(ASAN_DIR), then all tests"
	@echo "make bench    build and run the benchmarks (BENCH_ARGS=...)"
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
	$(CMAKE) --build $(BUILD_DIR) -j$(JOBS)
	$(CTEST) --test-dir $(BUILD_DIR) $(CTEST_ARGS)

asan: deps
	@$(call install_missing,$(ASAN_DEPS))
	$(CMAKE) -S . -B $(ASAN_DIR) $(ASAN_CONFIG)
	$(CMAKE) --build $(ASAN_DIR) -j$(JOBS)
	ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	$(CTEST) --test-dir $(ASAN_DIR) $(CTEST_ARGS)

bench: configure
	$(CMAKE) --build $(BUILD_DIR) --target netser_benchmarks -j$(JOBS)
	@found=0; \
	for b in $(BUILD_DIR)/tests/benchmarks/*_bench; do \
	  [ -x "$$b" ] || continue; found=1; \
	  echo "== $$b"; "$$b" $(BENCH_ARGS); \
	done; \
	[ "$$found" = 1 ] || echo "no benchmarks (tests/benchmarks/*_bench.cpp)"

clean:
	rm -rf $(BUILD_DIR) $(ASAN_DIR)
