#!/usr/bin/env bash
# bench/device/issue40_x4.sh - issue 40 on a 4-GPU node: the whole 16s-25k
# (default outputs) on 1, 2 and 4 GPUs driven by one process, then 4 GPUs as
# `mpirun -np 4` with one GPU a rank and as `mpirun -np 2` with two GPUs a
# rank (CUDA_VISIBLE_DEVICES from OMPI_COMM_WORLD_LOCAL_RANK; workers split
# so that every layout uses the same cores), in the background (it outlasts
# one 10-minute command):
#   bash bench/device/issue40_x4.sh start           builds, starts (setsid)
#   bash bench/device/issue40_x4.sh wait SECONDS    waits, prints bench/tmp/x4.txt (a copy in $OUT)
# Per run: wall, mnw's "done:" line, speed-up against one GPU, CPU time, each
# GPU's log line (busy, idle by cause); every run's outputs cmp'd against the
# first run's (g1 first: speed-ups against it). ONLY="1 2 4 np4 np2" picks runs (default those); b4 and
# b4nb are 4 GPUs with the baseline tree (BASE, default bench/tmp/base40: a
# git archive of the commit before, carried), b4nb with --bookmark-every
# 3600 (no bookmark between the first and the last).
# Data: the git-ignored devdata/16s-25k.fa.gz, carried.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
res=bench/tmp/x4.txt
case ${1:-} in
start)
    bench_setup x4-build.txt
    base=${BASE:-bench/tmp/base40}
    case " ${ONLY:-} " in *" b4"*)
        (cd "$base" && make -j"$(nproc)" bin/mnw LIBDEFLATE_DIR="$OLDPWD/.deps/usr") >>"$OUT/x4-build.txt" 2>&1 ||
            { tail -20 "$OUT/x4-build.txt"; exit 1; } ;;
    esac
    bench_machine >"$res"
    # shellcheck disable=SC2016 # the commands run in the setsid shell
    setsid bash -c '
        res='"$res"' only="'"${ONLY:-1 2 4 np4 np2}"'" base='"$base"'
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
        W=bench/tmp/x4
        rm -rf $W && mkdir -p $W
        nc=$(nproc)
        rate1= ref=
        one() { # one NAME COMMAND...: a run into $W/NAME
            local name=$1 d=$W/$1 rate wall user sys
            shift
            echo "== $(date -u +%FT%TZ) $name: $*" >>"$res"
            /usr/bin/time -f "%e %U %S" -o $W/time-$name "$@" -q -i devdata/16s-25k.fa.gz -o $d >>"$res" 2>&1
            echo "   exit $?" >>"$res"
            read -r wall user sys <$W/time-$name
            rate=$(sed -n "s/.*INFO done: [0-9]* pairs in [0-9.]*s: \([0-9]*\) pairs\/s.*/\1/p" $d/mnw.log)
            [ "$name" = g1 ] && rate1=$rate
            echo "   wall $wall s, CPU user $user s + system $sys s; $(grep -o "done: .*" $d/mnw.log)" >>"$res"
            [ -n "$rate1" ] && [ -n "$rate" ] && awk -v r="$rate" -v b="$rate1" "BEGIN{printf \"   speed-up %.3fx against one GPU\n\", r/b}" >>"$res"
            grep -E "INFO (GPU [0-9]+:|GPUs:|GPU dispatcher|rank [0-9]+ \(|done|cld:|bookmarks:|[0-9]+ ranks?,)" $d/mnw.log | sed "s/^[^]]*] /   /" | cut -c1-300 >>"$res"
            if [ -z "$ref" ]; then
                ref=$name
            else
                for f in pairs.tsv.gz dist.column.gz; do
                    cmp -s $W/$ref/$f $d/$f && echo "   $f byte-identical to the $ref run" >>"$res" ||
                        echo "   $f DIFFERS from the $ref run" >>"$res"
                done
                rm -rf $d
            fi
        }
        for r in $only; do
            case $r in
            1) one g1 bin/mnw --gpus 0 ;;
            2) one g2 bin/mnw --gpus 0,1 ;;
            4) one g4 bin/mnw --gpus 0,1,2,3 ;;
            b4) one b4 "$base/bin/mnw" --gpus 0,1,2,3 ;;
            b4nb) one b4nb "$base/bin/mnw" --gpus 0,1,2,3 --bookmark-every 3600 ;;
            np4) one np4 mpirun -np 4 --bind-to none sh -c "CUDA_VISIBLE_DEVICES=\$OMPI_COMM_WORLD_LOCAL_RANK exec bin/mnw -t $((nc / 4 - 2)) \"\$@\"" sh ;;
            np2) one np2 mpirun -np 2 --bind-to none sh -c "CUDA_VISIBLE_DEVICES=\$((2 * OMPI_COMM_WORLD_LOCAL_RANK)),\$((2 * OMPI_COMM_WORLD_LOCAL_RANK + 1)) exec bin/mnw -t $((nc / 2 - 2)) \"\$@\"" sh ;;
            esac
        done
        rm -rf $W
        echo "== all done" >>"$res"' </dev/null >/dev/null 2>&1 &
    echo "started" ;;
wait)
    end=$(($(date +%s) + ${2:-500}))
    while [ "$(date +%s)" -lt "$end" ] && ! grep -q '== all done' "$res"; do sleep 5; done
    cat "$res"
    cp "$res" "$OUT/" ;;
*) sed -n 2,13p "$0"; exit 2 ;;
esac
