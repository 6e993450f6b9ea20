#!/usr/bin/env bash
# run_cpu.sh - run `make bench-cpu` from the top level and keep its output as
# bench/results/cpu-TAG-DATE.txt (the command on the first line).
#   bench/run_cpu.sh [TAG] [BENCH_ARGS...]
# TAG defaults to the CPU model's first word after the vendor, lower-cased,
# plus the number of CPUs (e.g. epyc-2c).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
model=$(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: *//')
tag=${1:-$(echo "$model" | sed -E 's/^(AMD|Intel\(R\)) *//; s/(Core|Xeon)\(TM\)? *//; s/\(R\)//g' |
            awk '{print tolower($1)}')-$(nproc)c}
shift || true
out=bench/results/cpu-$tag-$(date +%Y-%m-%d).txt
mkdir -p bench/results
cmd="make -s bench-cpu${*:+ BENCH_ARGS=\"$*\"}"
{ echo "\$ $cmd"; eval "$cmd"; } 2>&1 | tee "$out"
echo "saved: $out" >&2
