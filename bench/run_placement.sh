#!/usr/bin/env bash
# run_placement.sh - where CPU scaling is lost: the same work with 1 and 2
# workers placed on chosen CPUs (taskset), unbound, with AVX2 instead of
# AVX-512, and on short sequences whose direction matrices stay in cache.
#   bench/run_placement.sh [FASTA.gz] [NSEQ]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
data=${1:-devdata/16s-2k.fa.gz} nseq=${2:-300}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
{ zcat -f "$data" || true; } | awk -v n="$nseq" '/^>/{k++} k>n{exit} {print}' > "$tmp/in.fa"
# the same genes cut to their first 300 bases: 32 lanes x 300 x 300 x 2 bits = 720 KB per lane group
awk '/^>/{print; next} {print substr($0, 1, 300)}' "$tmp/in.fa" > "$tmp/short.fa"
[ -x bin/mnw ] || make -s bin/mnw
echo "# run_placement: $(date -u +%Y-%m-%dT%H:%MZ) $(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: *//'), $(nproc) CPUs; $nseq genes"
for s in /sys/devices/system/cpu/cpu0/topology/thread_siblings_list /sys/devices/system/cpu/cpu0/topology/core_cpus_list; do
    [ -r "$s" ] && echo "# $s: $(cat "$s")"
done
printf '%-44s %8s %8s\n' run seconds GCUPS
r() { # r LABEL ENV... -- MNW ARGS
    local label=$1; shift
    rm -rf "$tmp/o"
    if ! env "$@" -q -o "$tmp/o" >/dev/null 2>&1; then printf '%-44s %8s\n' "$label" failed; return 0; fi
    grep 'INFO done:' "$tmp/o/mnw.log" | sed -E 's/.* in ([0-9.]+)s: .* ([0-9.]+) GCUPS.*/\1 \2/' |
        awk -v l="$label" '{printf "%-44s %8.2f %8.2f\n", l, $1, $2}'
}
r "1 worker, cpu 0" taskset -c 0 bin/mnw -i "$tmp/in.fa" -t 1
r "1 worker, cpu 5" taskset -c 5 bin/mnw -i "$tmp/in.fa" -t 1
r "2 workers, cpus 0,1" taskset -c 0,1 bin/mnw -i "$tmp/in.fa" -t 2
r "2 workers, cpus 0,8" taskset -c 0,8 bin/mnw -i "$tmp/in.fa" -t 2
r "2 workers, unbound (--bind no)" bin/mnw -i "$tmp/in.fa" -t 2 --bind no
r "1 worker AVX2, cpu 0" MNW_SIMD=avx2 taskset -c 0 bin/mnw -i "$tmp/in.fa" -t 1
r "2 workers AVX2, cpus 0,8" MNW_SIMD=avx2 taskset -c 0,8 bin/mnw -i "$tmp/in.fa" -t 2
r "14 workers AVX2" MNW_SIMD=avx2 bin/mnw -i "$tmp/in.fa" -t 14
r "14 workers AVX-512" bin/mnw -i "$tmp/in.fa" -t 14
r "14 workers AVX-512, --bind no" bin/mnw -i "$tmp/in.fa" -t 14 --bind no
r "300-base genes: 1 worker, cpu 0" taskset -c 0 bin/mnw -i "$tmp/short.fa" -t 1
r "300-base genes: 2 workers, cpus 0,8" taskset -c 0,8 bin/mnw -i "$tmp/short.fa" -t 2
r "300-base genes: 14 workers" bin/mnw -i "$tmp/short.fa" -t 14
