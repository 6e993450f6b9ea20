#!/usr/bin/env bash
# scripts/deps.sh - installs, with apt-get, what mnw needs to build (build)
# or to build and run its tests and benchmarks (test; shellcheck for
# tests/sh/t_shellcheck.sh), or nvcc to build the
# GPU code (cuda: Debian's nvidia-cuda-toolkit, from the contrib and non-free
# sections, which it enables; about 1.6 GB; CI uses it to compile the CUDA
# code), or clang with libFuzzer and the sanitizer runtimes (fuzz: the
# fuzz targets of tests/fuzz; llvm-14 for llvm-symbolizer, which makes the
# crash reports readable), or Slurm for tests/slurm (slurm: munge,
# slurmctld, slurmd and the clients; iproute2 and util-linux for the
# per-node namespaces of tests/slurm/cluster.sh), or (unpack) libdeflate
# (libdeflate-dev) unpacked into .deps/ for a machine without apt. Installs only what is missing; needs root (or
# sudo) when something is: without either it names the packages and exits 1;
# a failed apt-get is reported as such (exit 1), with apt-get's last lines.
set -euo pipefail
what=${1:-build}
build_pkgs="gcc make zlib1g-dev libdeflate-dev libc6-dev pkg-config libopenmpi-dev openmpi-bin libhwloc-dev"
test_pkgs="$build_pkgs g++ libparasail-dev vsearch emboss mothur python3 python3-biopython man-db chromium shellcheck"
say() { echo "scripts/deps.sh: $*" >&2; }
SUDO=""
case "$what" in
    build) pkgs=$build_pkgs ;;
    test) pkgs=$test_pkgs ;;
    slurm) pkgs="slurm-wlm slurm-wlm-basic-plugins munge iproute2 util-linux" ;;
    fuzz) pkgs="clang-14 libclang-rt-14-dev llvm-14 zlib1g-dev" ;; # libclang-rt-14-dev: libFuzzer, ASan, UBSan for clang
    cuda)
        pkgs="nvidia-cuda-toolkit"
        [ "$(id -u)" -eq 0 ] || SUDO="sudo"
        command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] && exit 0
        if grep -qi '^ID=debian' /etc/os-release; then # the toolkit is in non-free, its driver parts in contrib
            for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
                [ -f "$f" ] && $SUDO sed -i -E '/^deb(-src)? /{/ contrib/! s/ main( |$)/ main contrib\1/; / non-free( |$)/! s/ main contrib( |$)/ main contrib non-free\1/}' "$f"
            done
            for f in /etc/apt/sources.list.d/*.sources; do
                [ -f "$f" ] && $SUDO sed -i -E '/^Components:/{/ contrib/! s/$/ contrib/; / non-free( |$)/! s/$/ non-free/}' "$f"
            done
        fi ;;
    unpack) # libdeflate for a machine without apt or network (the
        # GPU device machine): downloaded here (no root needed) and unpacked
        # into .deps/, which make takes where the system has none; carry .deps
        if ! command -v apt-get >/dev/null || ! command -v dpkg >/dev/null; then say "unpack needs apt-get and dpkg"; exit 1; fi
        root=$(cd "$(dirname "$0")/.." && pwd)
        tmp=$(mktemp -d)
        trap 'rm -rf "$tmp"' EXIT
        (cd "$tmp" && apt-get download libdeflate-dev >/dev/null 2>&1) || { say "apt-get download libdeflate-dev failed"; exit 1; }
        rm -rf "$root/.deps"
        mkdir -p "$root/.deps"
        for d in "$tmp"/*.deb; do dpkg -x "$d" "$root/.deps"; done
        [ -f "$root/.deps/usr/include/libdeflate.h" ] || { say "no libdeflate.h in the package"; exit 1; }
        echo "unpacked libdeflate-dev into $root/.deps (make takes .deps/usr where the system has none)"
        exit 0 ;;
    *) echo "usage: $0 build|test|cuda|fuzz|slurm|unpack" >&2; exit 2 ;;
esac
missing=()
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null || ! command -v dpkg-query >/dev/null; then
    say "no apt-get/dpkg here (not Debian or Ubuntu): install the equivalents of these Debian packages with the system's package manager, then run make again: ${missing[*]}"
    exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null; then
        say "missing Debian packages: ${missing[*]}"
        say "not root and no sudo here: as root run  apt-get install ${missing[*]}  then run make again"
        exit 1
    fi
    SUDO="sudo"
fi
echo "installing: ${missing[*]}${SUDO:+ (through sudo)}"
export DEBIAN_FRONTEND=noninteractive
apt_log=$(mktemp)
trap 'rm -f "$apt_log"' EXIT
apt() { # apt ARGS...: apt-get ARGS, its output kept for a failure report
    local rc=0
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get "$@" >"$apt_log" 2>&1 || rc=$?
    [ "$rc" -eq 0 ] && return 0
    tail -n 15 "$apt_log" | sed 's/^/    /' >&2
    say "apt-get $1 failed (exit status $rc)${SUDO:+ (through sudo)}: not installed: ${missing[*]}"
    [ -n "$SUDO" ] && say "if sudo refused, run as root:  apt-get install ${missing[*]}"
    exit 1
}
apt update
apt install -y --no-install-recommends "${missing[@]}"
