# mnw - all-against-all Needleman-Wunsch. See README.md.
# make            build bin/mnw (needs gcc, Open MPI, hwloc, zlib: says what to
#                 install when one is missing; bash scripts/deps.sh build)
# make demo       install missing packages, build, align the bundled 16S sample
# make test       install the test tools, build and run every test; ends with
#                 "N passed, N failed" (tests/run.sh, docs/TESTING.md)
# make install PREFIX=/usr/local DESTDIR=   mnw, mnw-submit, mnw-job, the Slurm
#                 templates, mnw(1), the docs; make uninstall removes them
# make bench-cpu  CPU benchmark against parasail and vsearch (bench/);
# make bench-finish  the cost of turning alignments into output bytes (no GPU);
# make bench-gpu  the GPU kernels (a GPU machine; writes bench/results/gpu-kernels-latest.json);
#                 make bench-build builds every bench program
# make asan       the tests on an AddressSanitizer+UBSan build (build-asan/, bin-asan/)
# make tsan       the tests on a ThreadSanitizer build (build-tsan/, bin-tsan/);
#                 both run every test with fewer repetitions of the same path,
#                 make asan-full / make tsan-full run every repetition
# make test-slurm the tests on a real Slurm brought up on this host (root)
# make fuzz       libFuzzer targets (tests/fuzz, clang) in build-fuzz/;
#                 make fuzz-run FUZZ_SECONDS=60 runs each for that long
# Switches: asan=1 (AddressSanitizer+UBSan), tsan=1 (ThreadSanitizer), debug=1;
# B=DIR BIN=DIR put objects and binaries elsewhere (e.g. a tsan build beside the normal one)

ifeq ($(origin CC),default)
CC      := gcc
endif
CSTD    := -std=c11
WARN    := -Wall -Wextra -Werror
OPT     := -O3
ifeq ($(debug),1)
OPT     := -O0 -g
endif
SAN :=
ifeq ($(asan),1)
SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g
endif
ifeq ($(tsan),1)
SAN := -fsanitize=thread -g
endif
# Sanitizer builds are CPU-only: nvcc's objects and the CUDA runtime are not
# instrumented (compute-sanitizer covers the GPU code on a GPU machine); the
# GPU code's host side runs instrumented on the GPU emulation (tests/emu,
# below).
ifneq ($(SAN),)
nocuda := 1
endif
# Required: Open MPI (mpicc gives its flags) and hwloc (pkg-config).
# Optional: CUDA. With nvcc (PATH or /usr/local/cuda) the GPU workers are
# built (workers/gpu/*.cu, fat binary sm_80 + sm_90 + PTX, CUDA runtime linked
# statically); without it gpu_none.c reports "built without CUDA". nocuda=1
# forces the CPU-only build.
NVCC    := $(if $(nocuda),,$(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null))
MPICC   := $(shell command -v mpicc 2>/dev/null)
HWLOC   := $(shell command -v pkg-config >/dev/null && pkg-config --exists hwloc && echo yes)
ZLIB    := $(shell command -v pkg-config >/dev/null && pkg-config --exists zlib && echo yes)
# libdeflate (gzip output; lib/gzmember.c), linked statically so that the
# nodes a run reaches need nothing more than mnw's other libraries.
# LIBDEFLATE_DIR: a prefix with include/libdeflate.h and lib/libdeflate.a
# instead of the system's (e.g. a libdeflate-dev .deb unpacked with dpkg -x
# on a machine without apt; .deps/usr, which scripts/deps.sh unpack makes,
# is taken by itself when the system has no libdeflate)
SYS_DEFLATE := $(shell command -v pkg-config >/dev/null && pkg-config --exists libdeflate && echo yes)
LIBDEFLATE_DIR ?= $(if $(SYS_DEFLATE),,$(if $(wildcard $(CURDIR)/.deps/usr/include/libdeflate.h),$(CURDIR)/.deps/usr))
LIBDEFLATE_LIBDIR ?= $(if $(LIBDEFLATE_DIR),$(firstword $(dir $(wildcard $(LIBDEFLATE_DIR)/lib/libdeflate.a $(LIBDEFLATE_DIR)/lib/*/libdeflate.a))))
DEFLATE := $(if $(LIBDEFLATE_DIR),$(wildcard $(LIBDEFLATE_DIR)/include/libdeflate.h),$(SYS_DEFLATE))
DEFLATE_CFLAGS := $(if $(LIBDEFLATE_DIR),-I$(LIBDEFLATE_DIR)/include)
DEFLATE_LIBS := $(if $(LIBDEFLATE_LIBDIR),-L$(LIBDEFLATE_LIBDIR)) -l:libdeflate.a
CCFOUND := $(shell command -v $(CC) 2>/dev/null)
# What is missing for a build, checked only where this make itself would
# compile: the goals below install what they need first (scripts/deps.sh,
# then a make of their own) or build nothing, so no check may stop them
# before their install step runs (a bare machine's first command is
# `make demo` or `make test`).
SELF_INSTALLING := demo test test-deps asan tsan asan-full tsan-full test-slurm fuzz fuzz-run bench-cpu info clean uninstall
BUILD_GOALS := $(if $(MAKECMDGOALS),$(filter-out $(SELF_INSTALLING),$(MAKECMDGOALS)),all)
MISSING := $(if $(CCFOUND),,$(CC)) $(if $(MPICC),,Open-MPI(mpicc)) $(if $(HWLOC),,hwloc) $(if $(ZLIB),,zlib) $(if $(DEFLATE),,libdeflate)
ifneq ($(BUILD_GOALS),)
ifneq ($(strip $(MISSING)),)
$(error missing to build mnw: $(strip $(MISSING)). Run "bash scripts/deps.sh build" (apt-get, as root or with sudo: $(shell sed -n 's/^build_pkgs="\(.*\)"/\1/p' scripts/deps.sh)); or run "make demo", which installs them and builds)
endif
endif
MPI_CFLAGS := $(if $(MPICC),$(shell $(MPICC) --showme:compile))
MPI_LIBS   := $(if $(MPICC),$(shell $(MPICC) --showme:link))
HWLOC_CFLAGS := $(if $(HWLOC),$(shell pkg-config --cflags hwloc))
HWLOC_LIBS   := $(if $(HWLOC),$(shell pkg-config --libs hwloc))

CFLAGS  := $(CSTD) $(WARN) $(OPT) $(SAN) -pthread -D_GNU_SOURCE -MMD -MP -I. \
           $(MPI_CFLAGS) $(HWLOC_CFLAGS) $(DEFLATE_CFLAGS)
LDLIBS  := $(MPI_LIBS) $(HWLOC_LIBS) $(DEFLATE_LIBS) -lz -lm -pthread $(SAN)
ifneq ($(NVCC),)
# nvcc may be a wrapper script (/usr/local/bin/nvcc -> exec /usr/local/cuda-X/bin/nvcc):
# ask nvcc itself where its libraries are (--dryrun prints LIBRARIES=-L...),
# then look beside the resolved binary
CUDA_HOME := $(patsubst %/bin/nvcc,%,$(realpath $(NVCC)))
NVCC_LDIRS := $(shell $(NVCC) --dryrun mnw-probe.cu -o /dev/null 2>&1 | sed -n 's/^\#\$$ LIBRARIES=//p' | tr ' ' '\n' | sed -n 's/^"*-L\(.*[^"]\)"*$$/\1/p')
CUDA_LIBDIR := $(firstword $(wildcard $(addsuffix /libcudart_static.a,$(NVCC_LDIRS)) $(CUDA_HOME)/lib64/libcudart_static.a $(CUDA_HOME)/targets/x86_64-linux/lib/libcudart_static.a $(CUDA_HOME)/lib/x86_64-linux-gnu/libcudart_static.a /usr/lib/x86_64-linux-gnu/libcudart_static.a))
ifeq ($(CUDA_LIBDIR),)
$(warning nvcc at $(NVCC) but no libcudart_static.a beside it: building without CUDA (GPU workers off))
NVCC :=
endif
endif
ifneq ($(NVCC),)
NVCC_VERSION := $(shell $(NVCC) --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9.]*\),.*/\1/p')
# Debian 12's nvcc (CUDA 11.8) takes g++ 11 at most: use it when it is there
NVCC_CCBIN := $(if $(filter 11.%,$(NVCC_VERSION)),$(if $(shell command -v g++-11 2>/dev/null),-ccbin g++-11))
GPU_ARCH ?= -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
NVFLAGS := $(NVCC_CCBIN) -O3 -std=c++17 --threads 0 $(GPU_ARCH) -Xcompiler -Wall,-Wextra,-pthread,-fno-threadsafe-statics,-fno-exceptions -D_GNU_SOURCE -MMD -MP \
           -I. $(NVFLAGS_EXTRA)
LDLIBS  += $(if $(CUDA_LIBDIR),-L$(dir $(CUDA_LIBDIR))) -lcudart_static -ldl -lrt
endif

B ?= build
BIN ?= bin
LIB_SRC := $(filter-out src/main.c,$(wildcard lib/*.c src/*.c cld/*.c nld/*.c workers/cpu/*.c workers/tb/*.c))
ifneq ($(NVCC),)
GPU_OBJ := $(patsubst %.cu,$(B)/%.o,$(wildcard workers/gpu/*.cu)) $(B)/workers/gpu/gpu_opts.o $(B)/workers/gpu/gpu_ptab.o
else
GPU_OBJ := $(B)/workers/gpu/gpu_none.o $(B)/workers/gpu/gpu_opts.o $(B)/workers/gpu/gpu_ptab.o
endif
LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o) $(GPU_OBJ)
TEST_SRC := $(wildcard tests/unit/test_*.c)
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(B)/tests/%)
TEST_LIB_SRC := $(wildcard tests/ref/*.c)
TEST_LIB_OBJ := $(TEST_LIB_SRC:%.c=$(B)/%.o)

.PHONY: all info test test-gpu test-slurm test-deps test-build asan tsan asan-full tsan-full fuzz fuzz-run demo bench-cpu bench-gpu bench-finish bench-build install uninstall clean
all: $(BIN)/mnw

info:
	@echo "cc: $(CC)"; echo "nvcc: $(or $(NVCC),not found)"; echo "cudart: $(or $(CUDA_LIBDIR),none) $(NVCC_VERSION) $(NVCC_CCBIN)"; \
	echo "mpicc: $(or $(MPICC),not found)"; echo "hwloc: $(or $(HWLOC),not found)"

# SIMD kernels: one source compiled per instruction set (never -march=native).
# Under tsan=1 they are not instrumented (their vector loads and stores took
# about 90% of a TSan run's time); nw_cpu.c reports each kernel call's
# buffers to TSan instead.
ifeq ($(tsan),1)
$(B)/workers/cpu/nw_avx512.o $(B)/workers/cpu/nw_avx2.o $(B)/workers/cpu/nw_sse41.o: CFLAGS := $(filter-out -fsanitize=thread,$(CFLAGS))
endif
$(B)/workers/cpu/nw_avx512.o: CFLAGS += -mavx512bw
$(B)/workers/cpu/nw_avx2.o: CFLAGS += -mavx2
$(B)/workers/cpu/nw_sse41.o: CFLAGS += -msse4.1

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(B)/workers/gpu/%.o: workers/gpu/%.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) -c $< -o $@

$(B)/libmnw.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN)/mnw: $(B)/src/main.o $(B)/libmnw.a
	@mkdir -p $(BIN)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(B)/tests/%: tests/unit/%.c $(TEST_LIB_OBJ) $(B)/libmnw.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(TEST_LIB_OBJ) $(B)/libmnw.a $(LDLIBS)

# test tools (run by tests/sh scripts, not tests themselves)
$(B)/tools/check_output: tests/tools/check_output.c $(TEST_LIB_OBJ) $(B)/libmnw.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(TEST_LIB_OBJ) $(B)/libmnw.a -lparasail $(LDLIBS)

TEST_TOOLS := $(B)/tools/check_output $(B)/tools/mnw-emu
# every bench program this machine can build (rules below); test-build
# builds them, so a bench that stops compiling fails the tests
BENCH_BIN := $(B)/bench/bench_cpu $(B)/bench/bench_fwdcount $(B)/bench/clockprobe $(B)/bench/bench_finish $(B)/bench/prune_proto $(B)/bench/prune_ed_proto $(B)/bench/bench_prune $(if $(NVCC),$(B)/bench/bench_gpu $(B)/bench/bench_gpu_prune)

# GPU tests (tests/gpu): need a CUDA device; `make test-gpu` on a GPU machine
GPU_TEST_BIN := $(patsubst tests/gpu/%.c,$(B)/tests-gpu/%,$(wildcard tests/gpu/test_*.c))
$(B)/tests-gpu/%: tests/gpu/%.c $(TEST_LIB_OBJ) $(B)/libmnw.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(TEST_LIB_OBJ) $(B)/libmnw.a $(LDLIBS)

# The GPU code on the host (tests/emu/README.md): gpu_dev.cu and the kernels
# of gpu_kernels_int.cuh compiled by g++ against an emulated CUDA runtime, warps
# run lane by lane; tests/gpu/test_gpu.c on it is part of `make test`, so CI
# (no GPU) checks the kernels' results against the CPU's. In the sanitizer
# builds the host side (gpu_dev.cu, the emulated runtime, the GPU dispatcher
# thread, batches, finishing) is instrumented like everything else; the
# emulated kernels (emu_kernels.cpp) are not: their lanes are coroutines on
# stacks of their own, switched by hand, which neither sanitizer can follow
# (compute-sanitizer checks the kernels on a real GPU).
CXX ?= g++
EMU_FLAGS := -std=c++17 -O2 -Wall -Wextra -Werror -Wno-unknown-pragmas -fno-exceptions -fno-rtti -D_GNU_SOURCE -MMD -MP \
             -I. -Itests/emu
EMU_OBJ := $(B)/emu/gpu_dev.o $(B)/emu/emu_kernels.o $(B)/emu/emu_runtime.o $(B)/workers/gpu/gpu_opts.o \
           $(B)/workers/gpu/gpu_ptab.o
$(B)/emu/gpu_dev.o: workers/gpu/gpu_dev.cu
	@mkdir -p $(dir $@)
	$(CXX) -x c++ $(EMU_FLAGS) $(SAN) -c $< -o $@
$(B)/emu/emu_runtime.o: tests/emu/emu_runtime.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(EMU_FLAGS) $(SAN) -c $< -o $@
$(B)/emu/emu_kernels.o: tests/emu/emu_kernels.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(EMU_FLAGS) -c $< -o $@
$(B)/emu/test_gpu.o: tests/gpu/test_gpu.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DMNW_GPU_EMU -c $< -o $@
$(B)/tests/test_gpu_emu: $(B)/emu/test_gpu.o $(TEST_LIB_OBJ) $(LIB_SRC:%.c=$(B)/%.o) $(EMU_OBJ)
	@mkdir -p $(dir $@)
	$(CXX) -o $@ $^ $(LDLIBS:-lcudart_static=)
TEST_BIN += $(B)/tests/test_gpu_emu
# bench_gpu on the emulated GPU (tests/sh/t_bench.sh: its rows and --json
# without a GPU; no Rodinia-NW, a CUDA program of its own)
$(B)/emu/bench_gpu.o: bench/bench_gpu.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DMNW_GPU_EMU -c $< -o $@
$(B)/tests/bench_gpu_emu: $(B)/emu/bench_gpu.o $(LIB_SRC:%.c=$(B)/%.o) $(EMU_OBJ)
	@mkdir -p $(dir $@)
	$(CXX) -o $@ $^ $(LDLIBS:-lcudart_static=)
TEST_BIN += $(B)/tests/bench_gpu_emu
# bench_gpu_prune (issue 39's GPU filter) on the emulated GPU (t_gpu_emu.sh)
$(B)/emu/bench_gpu_prune.o: bench/bench_gpu_prune.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DMNW_GPU_EMU -c $< -o $@
$(B)/tests/bench_gpu_prune_emu: $(B)/emu/bench_gpu_prune.o $(LIB_SRC:%.c=$(B)/%.o) $(EMU_OBJ)
	@mkdir -p $(dir $@)
	$(CXX) -o $@ $^ $(LDLIBS:-lcudart_static=)
TEST_BIN += $(B)/tests/bench_gpu_prune_emu
# mnw itself on the emulated GPU (tests/sh/t_gpu_emu.sh): the GPU dispatcher
# thread, batches, finish tasks and output bytes, without a GPU
$(B)/tools/mnw-emu: $(B)/src/main.o $(LIB_SRC:%.c=$(B)/%.o) $(EMU_OBJ)
	@mkdir -p $(dir $@)
	$(CXX) -o $@ $^ $(LDLIBS:-lcudart_static=)

# installs the tools the tests compare against when missing (apt-get; a no-op
# when they are there), so `make test` works on a fresh machine
test-deps:
	@bash scripts/deps.sh test

test-build: $(BIN)/mnw $(TEST_BIN) $(TEST_TOOLS) $(BENCH_BIN)

# builds run on every CPU (JOBS=N to choose)
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
test: test-deps
	@$(MAKE) --no-print-directory -j$(JOBS) test-build
	@bash tests/run.sh

# The tests on sanitizer builds (tests/san/run.sh: sanitizer options and
# suppressions, any report fails the test that produced it). The builds live
# beside the normal one (build-asan, bin-asan, build-tsan, bin-tsan).
# asan/tsan run every test with fewer repetitions of the same path (CI);
# asan-full/tsan-full run every repetition (docs/TESTING.md).
asan tsan: test-deps
	@$(MAKE) --no-print-directory -j$(JOBS) B=build-$@ BIN=bin-$@ $@=1 test-build
	@bash tests/san/run.sh $@
asan-full tsan-full: test-deps
	@$(MAKE) --no-print-directory -j$(JOBS) B=build-$(@:-full=) BIN=bin-$(@:-full=) $(@:-full=)=1 test-build
	@bash tests/san/run.sh $(@:-full=) full

# libFuzzer targets (tests/fuzz/README.md), clang only, in build-fuzz/
FUZZ_CC ?= $(or $(shell command -v clang-14 2>/dev/null),clang)
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := fasta config bookmark
FUZZ_BIN := $(FUZZ_TARGETS:%=build-fuzz/fuzz_%)
FUZZ_FLAGS := -std=c11 -O1 -g -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
              -D_GNU_SOURCE -I. $(DEFLATE_CFLAGS)
FUZZ_SRC_fasta := lib/fasta.c lib/seq.c lib/util.c
FUZZ_SRC_config := src/config.c src/opts.c src/like.c lib/userout.c lib/prune.c lib/shard.c lib/outsel.c lib/identity.c lib/aln.c lib/score.c lib/buf.c lib/fmtnum.c lib/util.c workers/gpu/gpu_opts.c
FUZZ_SRC_bookmark := cld/bookmark.c lib/sum.c lib/outsel.c lib/regfile.c lib/safeio.c lib/afile.c lib/buf.c lib/fmtnum.c lib/seq.c lib/util.c
define FUZZ_RULE
build-fuzz/fuzz_$(1): tests/fuzz/fuzz_$(1).c tests/fuzz/fuzz_util.h $$(FUZZ_SRC_$(1))
	@mkdir -p build-fuzz
	$$(FUZZ_CC) $$(FUZZ_FLAGS) -o $$@ $$(filter %.c,$$^) $$(DEFLATE_LIBS) -lz -lm
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call FUZZ_RULE,$(t))))
fuzz:
	@bash scripts/deps.sh fuzz
	@$(MAKE) --no-print-directory $(FUZZ_BIN)
fuzz-run: fuzz
	@bash tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Benchmarks (bench/README.md), built with the same flags and include folders
# as everything else (bench/Makefile once kept a copy of them that fell
# behind). bench-build builds every one that this machine can build (so
# does test-build); tests/sh/t_bench.sh checks them and runs bench_cpu.
$(B)/bench/bench_cpu: bench/bench_cpu.c $(TEST_LIB_OBJ) $(B)/libmnw.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(TEST_LIB_OBJ) $(B)/libmnw.a -lparasail $(LDLIBS)

# issue 20's forward-count prototype beside mnw's counts mode (its kernel is
# compiled for AVX-512BW by a target pragma, as nw_avx512.o is by -mavx512bw)
$(B)/bench/bench_fwdcount: bench/bench_fwdcount.c $(B)/libmnw.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(B)/libmnw.a $(LDLIBS)

# issue 39's exact prune filter, CPU prototype (docs/PRUNE.md): q-gram count,
# banded lower bound of the score, and a --check against mnw's aligner
$(B)/bench/prune_proto: bench/prune_proto.c $(B)/libmnw.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(B)/libmnw.a $(LDLIBS)

# issue 39's edit-distance bound for larger cutoffs, measured against the
# q-gram filter on every pair of a set (docs/PRUNE.md)
$(B)/bench/prune_ed_proto: bench/prune_ed_proto.c $(B)/libmnw.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(B)/libmnw.a $(LDLIBS)

# issue 39's CPU filter as built (workers/cpu/prune_cpu.h): its own cost per
# pair beside the DP's, in the same run
$(B)/bench/bench_prune: bench/bench_prune.c $(B)/libmnw.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(B)/libmnw.a $(LDLIBS)

$(B)/bench/clockprobe: bench/clockprobe.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -O2 -D_GNU_SOURCE -mavx512bw -o $@ $<

$(B)/bench/rodinia_nw.o: bench/rodinia_nw.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) -c $< -o $@

$(B)/bench/bench_gpu: bench/bench_gpu.c $(B)/bench/rodinia_nw.o $(B)/libmnw.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(B)/bench/rodinia_nw.o $(B)/libmnw.a $(LDLIBS)

$(B)/bench/bench_gpu_prune: bench/bench_gpu_prune.c $(B)/libmnw.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(B)/libmnw.a $(LDLIBS)

$(B)/bench/bench_finish: bench/bench_finish.c bench/finish_base.c bench/finish_base.h $(B)/libmnw.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ bench/bench_finish.c bench/finish_base.c $(B)/libmnw.a $(LDLIBS)

bench-build: $(BENCH_BIN)

# CPU benchmark: mnw against parasail and vsearch on real 16S pairs
# (BENCH_CPU_DATA; BENCH_ARGS: --budget SEC, --rounds N, ...); needs the test
# tools, which it installs when missing
BENCH_CPU_DATA ?= tests/data/16s-200.fa
bench-cpu: test-deps
	@$(MAKE) --no-print-directory $(B)/bench/bench_cpu
	$(B)/bench/bench_cpu $(BENCH_CPU_DATA) $(BENCH_ARGS)

# Finishing benchmark (issue 19; no GPU): the production path that turns
# alignments into output bytes beside the path before it, on real 16S pairs
BENCH_FINISH_DATA ?= tests/data/16s-1000.fa.gz
bench-finish: $(B)/bench/bench_finish
	$(B)/bench/bench_finish $(BENCH_FINISH_DATA) $(BENCH_FINISH_ARGS)

# GPU benchmark on a GPU machine: every kernel with device and host
# trace-back and score-only, two per lane and 32-bit lanes (the previous
# kernels, the baseline), beside Rodinia-NW and one CPU thread, on real 16S
# pairs (BENCH_GPU_DATA); the rows also go to BENCH_GPU_JSON
BENCH_GPU_DATA ?= tests/data/16s-1000.fa.gz
BENCH_GPU_ARGS ?= --pairs 400000 --reps 2 --lanes x2,x1 --cpu-pairs 100 --rodinia-pairs 100
BENCH_GPU_JSON ?= bench/results/gpu-kernels-latest.json
BENCH_GPU_LABEL ?= $(shell git rev-parse --short HEAD 2>/dev/null)$(shell git diff --quiet HEAD 2>/dev/null || echo ' with uncommitted changes')
bench-gpu: $(B)/bench/bench_gpu
	$(B)/bench/bench_gpu $(BENCH_GPU_DATA) $(BENCH_GPU_ARGS) --json $(BENCH_GPU_JSON) --label "$(BENCH_GPU_LABEL)"

test-gpu:
	@test -n "$(NVCC)" || { echo "make test-gpu: no nvcc, the GPU code is not built" >&2; exit 2; }
	@$(MAKE) --no-print-directory $(BIN)/mnw $(GPU_TEST_BIN)
	@MNW_TEST_SET=gpu bash tests/run.sh

# The tests on a real Slurm (munge, slurmctld, three slurmd) brought up on
# this host by tests/slurm/cluster.sh; needs root. docs/slurm.md.
test-slurm: test-deps
	@bash scripts/deps.sh slurm
	@$(MAKE) --no-print-directory $(BIN)/mnw
	@MNW_TEST_SET=slurm bash tests/run.sh

demo:
	@bash scripts/demo.sh

# make install PREFIX=/opt/mnw DESTDIR=/tmp/stage (README, DECISIONS.md):
# mnw, the Slurm scripts beside it (mnw-submit finds mnw-job and mnw beside
# itself, its templates in PREFIX/share/mnw/templates), mnw(1), the docs.
# Builds bin/mnw first when it is not there; installs no packages.
PREFIX  ?= /usr/local
bindir  := $(PREFIX)/bin
datadir := $(PREFIX)/share/mnw
mandir  := $(PREFIX)/share/man/man1
docdir  := $(PREFIX)/share/doc/mnw
INSTALL_DOCS := README.md LICENSE $(wildcard docs/*.md) config/example.conf
INSTALL_TPL  := $(wildcard slurm/templates/*.sbatch)
install: $(BIN)/mnw
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(datadir)/templates $(DESTDIR)$(mandir) $(DESTDIR)$(docdir)
	install -m 755 $(BIN)/mnw slurm/mnw-submit slurm/mnw-job slurm/mnw-merge-job $(DESTDIR)$(bindir)/
	install -m 644 $(INSTALL_TPL) $(DESTDIR)$(datadir)/templates/
	install -m 644 docs/mnw.1 $(DESTDIR)$(mandir)/mnw.1
	install -m 644 $(INSTALL_DOCS) $(DESTDIR)$(docdir)/

uninstall:
	rm -f $(addprefix $(DESTDIR)$(bindir)/,mnw mnw-submit mnw-job mnw-merge-job) $(DESTDIR)$(mandir)/mnw.1
	rm -f $(addprefix $(DESTDIR)$(datadir)/templates/,$(notdir $(INSTALL_TPL))) $(addprefix $(DESTDIR)$(docdir)/,$(notdir $(INSTALL_DOCS)))
	-rmdir $(DESTDIR)$(datadir)/templates $(DESTDIR)$(datadir) $(DESTDIR)$(docdir) 2>/dev/null

clean:
	rm -rf $(B) $(BIN)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
