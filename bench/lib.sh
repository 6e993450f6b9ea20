# bench/lib.sh - the setup every benchmark script shares (bench/run_*.sh,
# what a user runs; bench/device/*.sh, the GPU machine's calls). Sourced:
#   . "$(dirname "$0")/lib.sh"          (from bench/)
#   . "$(dirname "$0")/../lib.sh"       (from bench/device/)
# It moves to the repository root, so every path below is from there, and
# gives:
#   OUT            where a device script writes (default bench/tmp; made)
#   bench_cuda     puts /usr/local/cuda/bin on PATH (nvcc, compute-sanitizer)
#   bench_machine  the machine, one fact a line: date, CPUs, CPU model, GPUs,
#                  nvcc and Open MPI versions, the commit
#   bench_stamp    the same in one line, for a result's header
#   bench_build LOG TARGET...  make -j(nproc) TARGET... into LOG; on failure
#                  prints its last lines and exits 1
#   bench_setup NAME [TARGET...]  the three above in a device script's usual
#                  order, its result file $log = $OUT/NAME
#   bench_fresh DIR, bench_genes N OUT.fa [SRC], say TEXT...  a scratch
#                  folder, the first N genes of the carried 16s-25k, a line
#                  into $log and stdout
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
OUT=${OUT:-bench/tmp}
mkdir -p "$OUT" bench/tmp

bench_cuda() { export PATH=/usr/local/cuda/bin:$PATH; }

bench_machine() {
    date -u
    echo "cpus: $(nproc)"
    grep -m1 '^model name' /proc/cpuinfo
    command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null
    command -v nvcc >/dev/null && nvcc --version 2>/dev/null | tail -2
    command -v mpirun >/dev/null && mpirun --version 2>/dev/null | head -1
    echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
}

bench_stamp() {
    echo "$(date -u +%Y-%m-%dT%H:%MZ), host $(hostname -s), $(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: *//'), $(nproc) CPUs, commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
}

bench_build() {
    local log=$1
    shift
    make -j"$(nproc)" "$@" >>"$log" 2>&1 || { tail -30 "$log"; exit 1; }
}

# bench_fresh DIR: DIR emptied and made (a run's scratch, under bench/tmp)
bench_fresh() { rm -rf "$1" && mkdir -p "$1"; }

# bench_genes N OUT.fa [SRC]: the first N genes of SRC (default the carried
# devdata/16s-25k.fa.gz) as plain FASTA
bench_genes() { zcat "${3:-devdata/16s-25k.fa.gz}" | awk -v n="$1" '/^>/{k++} k>n{exit} {print}' >"$2"; }

# bench_phash FILE: a checksum of a large file in seconds: the sha256 of each
# 1 GiB piece, 16 at once, then the sha256 of that list (the same file gives
# the same value on any machine; runs on different calls compare by it)
bench_phash() {
    local f=$1 n k
    n=$((($(stat -c %s "$f") + 1073741823) / 1073741824))
    # shellcheck disable=SC2016 # the piece's command runs in sh, with its own arguments
    for ((k = 0; k < n; k++)); do echo "$k"; done |
        xargs -P 16 -I{} sh -c 'printf "%s %s\n" "$1" "$(dd if="$2" bs=1M skip=$(($1 * 1024)) count=1024 status=none | sha256sum | cut -c1-64)"' sh {} "$f" |
        sort -n | sha256sum | cut -c1-64
}

# bench_test_gpu RES MODE...: build/tests-gpu/test_gpu for each scoring mode
# (MNW_GPU_TEST_MODE) into $OUT/test_gpu_MODE.txt, its counts and first
# failures appended to RES
bench_test_gpu() {
    local res=$1 m
    shift
    for m in "$@"; do
        echo "== test_gpu MNW_GPU_TEST_MODE=$m" >>"$res"
        MNW_GPU_TEST_MODE=$m build/tests-gpu/test_gpu >"$OUT/test_gpu_$m.txt" 2>&1
        echo "   exit $?: $(grep -c '^ok' "$OUT/test_gpu_$m.txt") ok, $(grep -c '^not ok' "$OUT/test_gpu_$m.txt") not ok" >>"$res"
        grep '^not ok' "$OUT/test_gpu_$m.txt" | head -5 >>"$res"
    done
}

# bench_memcheck RES MODE: compute-sanitizer memcheck on test_gpu's small set
# (MNW_GPU_TEST_SMALL) in scoring mode MODE, its summary appended to RES
bench_memcheck() {
    {
        echo "== compute-sanitizer memcheck, MNW_GPU_TEST_SMALL=1 MNW_GPU_TEST_MODE=$2"
        MNW_GPU_TEST_SMALL=1 MNW_GPU_TEST_MODE=$2 compute-sanitizer --tool memcheck --error-exitcode 9 \
            build/tests-gpu/test_gpu 2>&1 | grep -v '^ok - ' | tail -6
        echo "   exit status: ${PIPESTATUS[0]}"
    } >>"$1"
}

# say TEXT...: TEXT on stdout and at the end of $log (the script's result file)
say() { echo "$*" | tee -a "$log"; }

# bench_setup NAME [TARGET...]: the usual start of a device script: CUDA on
# PATH, log=$OUT/NAME begun with the machine's facts, TARGETs (default
# bin/mnw) built into $OUT/build.txt
bench_setup() {
    bench_cuda
    log="$OUT/$1"
    shift
    bench_machine >"$log"
    bench_build "$OUT/build.txt" "${@:-bin/mnw}"
}
