#!/usr/bin/env bash
# scripts/deps.sh - installs, with apt-get, what mnw needs to build (build)
# or to build and run its tests and benchmarks (test), or nvcc to build the
# GPU code (cuda: Debian's nvidia-cuda-toolkit, from the contrib and non-free
# sections, which it enables; about 1.6 GB; CI uses it to compile the CUDA
# code), or clang with libFuzzer and the sanitizer runtimes (fuzz: the
# fuzz targets of tests/fuzz; llvm-14 for llvm-symbolizer, which makes the
# crash reports readable), or Slurm for tests/slurm (slurm: munge,
# slurmctld, slurmd and the clients; iproute2 and util-linux for the
# per-node namespaces of tests/slurm/cluster.sh). Installs only what is missing; needs root (or
# sudo) when something is. Debian 12 / Ubuntu 22.04+.
set -euo pipefail
what=${1:-build}
build_pkgs="gcc make zlib1g-dev libc6-dev pkg-config libopenmpi-dev openmpi-bin libhwloc-dev"
test_pkgs="$build_pkgs g++ libparasail-dev vsearch emboss mothur python3 python3-biopython"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
case "$what" in
    build) pkgs=$build_pkgs ;;
    test) pkgs=$test_pkgs ;;
    slurm) pkgs="slurm-wlm slurm-wlm-basic-plugins munge iproute2 util-linux" ;;
    fuzz) pkgs="clang-14 libclang-rt-14-dev llvm-14 zlib1g-dev" ;; # libclang-rt-14-dev: libFuzzer, ASan, UBSan for clang
    cuda)
        pkgs="nvidia-cuda-toolkit"
        command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] && exit 0
        if grep -qi '^ID=debian' /etc/os-release; then # the toolkit is in non-free, its driver parts in contrib
            for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
                [ -f "$f" ] && $SUDO sed -i -E '/^deb(-src)? /{/ contrib/! s/ main( |$)/ main contrib\1/; / non-free( |$)/! s/ main contrib( |$)/ main contrib non-free\1/}' "$f"
            done
            for f in /etc/apt/sources.list.d/*.sources; do
                [ -f "$f" ] && $SUDO sed -i -E '/^Components:/{/ contrib/! s/$/ contrib/; / non-free( |$)/! s/$/ non-free/}' "$f"
            done
        fi ;;
    *) echo "usage: $0 build|test|cuda|fuzz|slurm" >&2; exit 2 ;;
esac
missing=()
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
