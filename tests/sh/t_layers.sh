#!/usr/bin/env bash
# t_layers.sh - the layers of the code (docs/ARCHITECTURE.md, "Layers";
# scripts/layers.py): includes written from the repository root, no file
# using a layer above its own, private headers (*_int.h, *.cuh) included only
# from their own folder, no circle between files. Then the same check on a
# copy of the tree with one rule broken at a time: each must be caught.
. "$(dirname "$0")/../lib.sh"
cd "$ROOT"

ok "the tree keeps every layer rule (python3 scripts/layers.py)" python3 scripts/layers.py --quiet
python3 scripts/layers.py >"$TMP/sheet.txt" 2>&1
check "the sheet lists the 9 layers, top to bottom" \
    '[ "$(grep -cE "^  [0-9]+  [a-z/]+/ " "$TMP/sheet.txt")" = 9 ] && grep -q "^  9  bench/" "$TMP/sheet.txt" && grep -q "^  1  lib/" "$TMP/sheet.txt"'
check "lib/ uses no other layer" 'grep -qE "^  1  lib/ .*uses: -$" "$TMP/sheet.txt"'

# a copy of the sources to break (tests/ref is a layer too)
copy() {
    rm -rf "$TMP/t" && mkdir -p "$TMP/t/tests" &&
        cp -r lib src cld nld workers bench "$TMP/t/" && cp -r tests/ref tests/unit tests/tap.h "$TMP/t/tests/" &&
        rm -rf "$TMP/t/bench/results" "$TMP/t/bench/tmp"
}
broken() { # broken DESC PATTERN : the copy fails the check, naming PATTERN
    local desc=$1 pat=$2
    if python3 scripts/layers.py --root "$TMP/t" --quiet >"$TMP/out.txt" 2>&1; then
        echo "not ok - $desc: not caught"
        T_FAILED=1
    elif grep -q -- "$pat" "$TMP/out.txt"; then
        echo "ok - $desc: caught"
    else
        echo "not ok - $desc: the message lacks '$pat'"
        sed 's/^/#   /' "$TMP/out.txt" | head -5
        T_FAILED=1
    fi
}

copy && ok "an untouched copy passes" python3 scripts/layers.py --root "$TMP/t" --quiet

copy && sed -i 's|#include "lib/seq.h"|#include "seq.h"|' "$TMP/t/lib/fasta.h"
broken "an include without its folder" 'lib/fasta.h:[0-9]*: #include "seq.h" names no folder'

copy && sed -i '0,/#include "lib\/log.h"/s||#include "lib/log.h"\n#include "lib/nosuch.h"|' "$TMP/t/cld/cld.c"
broken "an include of a file that is not there" 'cld/cld.c:[0-9]*: #include "lib/nosuch.h": no such file'

copy && printf '#include "src/opts.h"\n' >>"$TMP/t/lib/score.c"
broken "the library including the program's top" 'lib/score.c (lib/) uses src/opts.h (src/)'

copy && printf 'int mnw_probe_up(void) { return mnw_nld_gpu_reserve(0); }\n' >>"$TMP/t/workers/tb/trace.c"
broken "a worker calling into the node dispatcher" 'workers/tb/trace.c (workers/tb/) uses nld/nld.c (nld/)'

copy && printf '#include "workers/gpu/gpu.h"\n' >>"$TMP/t/workers/cpu/worklist.c"
broken "the CPU worker using the GPU worker beside it" 'workers/cpu/worklist.c (workers/cpu/) uses workers/gpu/gpu.h'

copy && printf '#include "nld/nldq_int.h"\n' >>"$TMP/t/src/main.c"
broken "a private header included from another folder" 'src/main.c includes nld/nldq_int.h, private to nld/'

copy && printf '#include "workers/gpu/gpu_kernels_int.cuh"\n' >>"$TMP/t/workers/tb/trace.c"
broken "a kernel header (.cuh) included outside its folder" 'private to workers/gpu/'

copy && printf 'int mnw_probe_back(void) { return (int)mnw_cld_probe_x; }\n' >>"$TMP/t/cld/place.c" &&
    printf 'long mnw_cld_probe_x;\nint mnw_probe_fwd(void) { return mnw_probe_back(); }\n' >>"$TMP/t/cld/merge.c"
broken "two files that call each other" 'circle between 2 files: cld/merge.c, cld/place.c'

finish
