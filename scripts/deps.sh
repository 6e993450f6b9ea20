#!/usr/bin/env bash
# scripts/deps.sh - installs, with apt-get, what mnw needs to build (build)
# or to build and run its tests and benchmarks (test). Installs only what is
# missing; needs root (or sudo) when something is. Debian 12 / Ubuntu 22.04+.
set -euo pipefail
what=${1:-build}
build_pkgs="gcc make zlib1g-dev libc6-dev pkg-config libopenmpi-dev openmpi-bin libhwloc-dev"
test_pkgs="$build_pkgs libparasail-dev vsearch emboss mothur python3 python3-biopython"
case "$what" in
    build) pkgs=$build_pkgs ;;
    test) pkgs=$test_pkgs ;;
    *) echo "usage: $0 build|test" >&2; exit 2 ;;
esac
missing=()
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
