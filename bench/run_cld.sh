#!/usr/bin/env bash
# run_cld.sh - the CLD's own ceiling: results handled per second when
# alignment costs almost nothing. Sequences are 16-base windows cut from
# real 16S genes (data/16s-500.fa.gz), so a work list of 5,000 pairs aligns
# in about a millisecond and the run is bound by formatting, compression,
# messages and the CLD. CPU workers only (--gpus none): on a GPU host every
# rank would open the same GPU (ranks started together each size their GPU
# memory from what is free, and the later ones run out). For each rank count the table gives the wall-clock
# pairs/s and the CLD's busy time (receiving, reordering and writing
# results; mnw.log "cld:" line), whose inverse is the ceiling: pairs/s the
# CLD would take if every other part were free; and the result bytes that
# reached rank 0 over MPI per pair and the CLD's CPU time per pair (the
# figures issue 22 sets out to cut: results written by the nodes). Ratios
# are against the single-process run of the same invocation (the baseline)
# and the 2M pairs/s target.
#   bench/run_cld.sh [-n NSEQ] [-w WORKERS_PER_RANK] [RANKS...]
# Defaults: 6000 sequences (17,997,000 pairs), 3 workers per rank, ranks 1 2 4 8.
set -euo pipefail
cd "$(dirname "$0")/.."
nseq=6000 wpr=3
while getopts n:w: o; do
    case $o in n) nseq=$OPTARG ;; w) wpr=$OPTARG ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
ranks=${*:-1 2 4 8}
[ -x bin/mnw ] || make -s bin/mnw
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mnw-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
zcat data/16s-500.fa.gz | awk -v n="$nseq" '
    /^>/ { if (s != "") g[k++] = s; s = ""; next } { s = s $0 } END { if (s != "") g[k++] = s
        for (i = 0; i < n; i++) { x = g[i % k]; o = 1 + 16 * int(i / k); printf ">w%d\n%s\n", i, substr(x, o, 16) } }' \
    > "$tmp/short.fa"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
npairs=$((nseq * (nseq - 1) / 2))
echo "# mnw CLD ceiling: $(date -u +%Y-%m-%dT%H:%MZ), host $(hostname -s)"
echo "# cpu: $(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: *//'), $(nproc) CPUs"
echo "# data: $nseq windows of 16 bases from data/16s-500.fa.gz ($npairs pairs), work lists of 5000, $wpr workers per rank"
echo "# command: bench/run_cld.sh -n $nseq -w $wpr $ranks"
printf '%-10s %8s %11s %8s %7s %13s %9s %9s %10s %10s\n' ranks seconds pairs/s vs-1rank "cld-s" "ceiling/s" vs-1rank vs-2M \
    "bytes/pair" "cld-us/pr"
base="" cbase=""
for np in $ranks; do
    rm -rf "$tmp/out"
    mpirun --oversubscribe --bind-to none -np "$np" bin/mnw -q -i "$tmp/short.fa" -o "$tmp/out" -t "$wpr" --gpus none \
        >"$tmp/run.log" 2>&1 || { cat "$tmp/run.log"; exit 1; }
    done_line=$(grep 'INFO done:' "$tmp/out/mnw.log")
    secs=$(echo "$done_line" | sed -E 's/.* pairs in ([0-9.]+)s.*/\1/')
    pps=$(echo "$done_line" | sed -E 's/.*: ([0-9]+) pairs\/s.*/\1/')
    # every run logs it (one rank too: its workers reach the CLD by direct call)
    cld_line=$(grep 'INFO cld:' "$tmp/out/mnw.log")
    busy=$(echo "$cld_line" | sed -E 's/.*; ([0-9.]+) s taking in.*/\1/')
    bpp=$(echo "$cld_line" | sed -nE 's/.*result bytes received: [0-9]+ \(([0-9.]+) per pair[;)].*/\1/p')
    upp=$(echo "$cld_line" | sed -nE 's/.*; ([0-9.]+) us per pair\).*/\1/p')
    [ -z "$base" ] && base=$pps
    awk -v np="$np" -v s="$secs" -v p="$pps" -v b="$base" -v busy="$busy" -v n="$npairs" -v cb="$cbase" \
        -v bpp="${bpp:--}" -v upp="${upp:--}" '
        BEGIN { c = busy > 0 ? n / busy : 0
                printf "%-10s %8.2f %11d %7.2fx %7s %13s %9s %8.2fx %10s %10s\n", np, s, p, p / b,
                       busy == "" ? "-" : sprintf("%.3f", busy), c ? sprintf("%d", c) : "-",
                       (c && cb) ? sprintf("%.2fx", c / cb) : "-", (c ? c : p) / 2e6, bpp, upp }'
    if [ -z "$cbase" ] && [ -n "$busy" ]; then cbase=$(awk -v n="$npairs" -v b="$busy" 'BEGIN{print n/b}'); fi
done
echo "# ceiling = pairs / CLD busy seconds; vs-2M: the ceiling (wall pairs/s where there is none) over 2,000,000"
echo "# bytes/pair: result bytes rank 0 received over MPI per pair (its own NLD's results are not sent);"
echo "# cld-us/pr: the CLD's CPU time per pair (mnw.log's cld: line)"
