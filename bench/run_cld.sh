#!/usr/bin/env bash
# run_cld.sh - the CLD's own cost: results handled per second when
# alignment costs almost nothing, with rank 0 writing every result
# (--output-via rank0, the baseline) and with the ranks writing their own
# through MPI-IO (--output-via mpiio, issue 22), both in the same run.
# Sequences are 16-base windows cut from real 16S genes
# (data/16s-500.fa.gz), so a work list of 5,000 pairs aligns in about a
# millisecond and the run is bound by formatting, compression, messages and
# the CLD. CPU workers only (--gpus none): on a GPU host every rank would
# open the same GPU. For each rank count and output mode the table gives the
# wall-clock pairs/s and the CLD's busy time (mnw.log "cld:" line: with
# rank0 receiving, reordering and writing results; with mpiio receiving
# sizes, placing lists and counting what was synced), whose inverse is the
# ceiling: pairs/s the CLD would take if every other part were free; the
# result bytes that reached rank 0 over MPI per pair and the CLD's CPU time
# per pair, and (mpiio rows) how many times less CPU per pair the CLD spent
# than with rank0 at the same rank count. pairs/s ratios are against the
# single-process run (the first row) and the 2M pairs/s target. Every
# mpiio run's outputs are compared (cmp) with the rank0 run's of the same
# rank count: the script stops if they differ.
#   bench/run_cld.sh [-n NSEQ] [-w WORKERS_PER_RANK] [-v "rank0 mpiio"] [RANKS...]
# Defaults: 6000 sequences (17,997,000 pairs), 3 workers per rank, both
# output modes, ranks 1 2 4 8 (one rank: rank0 only).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
nseq=6000 wpr=3 vias="rank0 mpiio"
while getopts n:w:v: o; do
    case $o in n) nseq=$OPTARG ;; w) wpr=$OPTARG ;; v) vias=$OPTARG ;; *) exit 2 ;; esac
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
echo "# mnw CLD cost: $(bench_stamp)"
echo "# cpu: $(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: *//'), $(nproc) CPUs"
echo "# data: $nseq windows of 16 bases from data/16s-500.fa.gz ($npairs pairs), work lists of 5000, $wpr workers per rank"
echo "# command: bench/run_cld.sh -n $nseq -w $wpr -v \"$vias\" $ranks"
printf '%-6s %-6s %8s %11s %8s %7s %13s %9s %10s %10s %9s\n' ranks via seconds pairs/s vs-1rank "cld-s" "ceiling/s" vs-2M \
    "bytes/pair" "cld-us/pr" "cld-less"
base=""
for np in $ranks; do
    rupp="" # rank0's CLD us per pair at this rank count
    for via in $vias; do
        [ "$np" -eq 1 ] && [ "$via" = mpiio ] && continue # one rank: nothing crosses MPI
        out=$tmp/out-$via
        rm -rf "$out"
        mpirun --oversubscribe --bind-to none -np "$np" bin/mnw -q -i "$tmp/short.fa" -o "$out" -t "$wpr" --gpus none \
            --output-via "$via" >"$tmp/run.log" 2>&1 || { cat "$tmp/run.log"; exit 1; }
        done_line=$(grep 'INFO done:' "$out/mnw.log")
        secs=$(echo "$done_line" | sed -E 's/.* pairs in ([0-9.]+)s.*/\1/')
        pps=$(echo "$done_line" | sed -E 's/.*: ([0-9]+) pairs\/s.*/\1/')
        # every run logs it (one rank too: its workers reach the CLD by direct call)
        cld_line=$(grep 'INFO cld:' "$out/mnw.log")
        busy=$(echo "$cld_line" | sed -E 's/.*; ([0-9.]+) s taking in.*/\1/')
        bpp=$(echo "$cld_line" | sed -nE 's/.*result bytes received: [0-9]+ \(([0-9.]+) per pair[;)].*/\1/p')
        # the CLD's CPU time per pair, from its seconds (the log rounds us per pair to 0.01)
        upp=$(awk -v b="$busy" -v n="$npairs" 'BEGIN { printf "%.4f", 1e6 * b / n }')
        [ -z "$base" ] && base=$pps
        [ "$via" = rank0 ] && rupp=$upp
        if [ "$via" = mpiio ] && [ -d "$tmp/out-rank0" ]; then
            for f in "$tmp/out-rank0"/*.gz; do
                cmp -s "$f" "$out/$(basename "$f")" || { echo "$(basename "$f"): mpiio and rank0 outputs differ"; exit 1; }
            done
        fi
        awk -v np="$np" -v via="$via" -v s="$secs" -v p="$pps" -v b="$base" -v busy="$busy" -v n="$npairs" \
            -v bpp="${bpp:--}" -v upp="$upp" -v rupp="$rupp" '
            BEGIN { c = busy > 0 ? n / busy : 0
                    less = (via == "mpiio" && rupp != "" && upp > 0) ? sprintf("%.1fx", rupp / upp) : "-"
                    printf "%-6s %-6s %8.2f %11d %7.2fx %7s %13s %8.2fx %10s %10s %9s\n", np, via, s, p, p / b,
                           busy == "" ? "-" : sprintf("%.3f", busy), c ? sprintf("%d", c) : "-", (c ? c : p) / 2e6,
                           bpp, upp, less }'
    done
done
echo "# ceiling = pairs / CLD busy seconds; vs-2M: the ceiling (wall pairs/s where there is none) over 2,000,000"
echo "# bytes/pair: bytes rank 0 received over MPI per pair (rank0: results; mpiio: sizes and checksums only;"
echo "# its own NLD's are not sent); cld-us/pr: the CLD's CPU time per pair (mnw.log's cld: line, its seconds"
echo "# over the pairs); cld-less: rank0's cld-us/pr at the same rank count over mpiio's"
echo "# mpiio outputs: byte-identical (cmp) to rank0's at every rank count"
