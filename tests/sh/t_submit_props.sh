#!/usr/bin/env bash
# t_submit_props.sh - a property test of the Slurm scripts (issue 38): no
# value a user or a manifest gives ever becomes shell code or an #SBATCH line
# of its own. mnw-submit --dry-run renders each template with random byte
# strings (line breaks, quotes, &, $(), backticks, ;, spaces, bytes >= 0x80
# that are not UTF-8, @KEY@ of the templates) in every option, every input
# and program path and every mnw option; then the batch scripts run as
# Slurm runs them (bash SCRIPT, with the SLURM_* variables of a task), with
# mnw, srun, mpirun and `module` replaced by recorders of their argv. The
# properties, each case:
#   - mnw-submit accepts exactly the values the rules of docs/slurm.md allow
#     (an oracle here), and refuses the others with one line, exit 2,
#     nothing written;
#   - accepted: the #SBATCH lines are the template's, each value whole on its
#     own line; the recorder gets the exact bytes (argv compared as
#     NUL-separated bytes); nothing else runs: no payload ("touch CANARY")
#     ever creates its canary.
# Then --shards: each task, the merge job, and --resume reading back the
# manifest's mnw-options (written by mnw-submit, or as the previous version
# wrote them); and manifests with one field replaced by random bytes, for
# mnw-submit --resume and for mnw-merge-job. Fixed seed (MNW_PROP_SEED), so a
# failure repeats; MNW_PROP_CASES cases (default 30) of each kind.
. "$(dirname "$0")/../lib.sh"
export LC_ALL=C # the test's own strings: bytes
cd "$TMP" || exit 1
SUB=$ROOT/slurm/mnw-submit
TPL=$ROOT/slurm/templates
seed=${MNW_PROP_SEED:-38}
cases=${MNW_PROP_CASES:-30}
RANDOM=$seed
# half the runs in a UTF-8 locale (where there is one): the scripts must not
# depend on the locale they are written or run in
utf8=C
locale -a 2>/dev/null | grep -qixE 'c\.utf-?8' && utf8=C.UTF-8
echo "# seed $seed, $cases cases of each kind (MNW_PROP_SEED, MNW_PROP_CASES)"

# the recorders: mnw (in a folder of a random name), srun, mpirun, squeue
# (prints no job), and `module` (an exported function the script inherits)
REC_DIR=$TMP/calls
export REC_DIR
mkdir -p "$REC_DIR" fake
cat >rec <<'EOF'
#!/bin/bash
printf '%s\0' "$0" "$@" >"$REC_DIR/call.$$"
EOF
chmod +x rec
cp rec fake/srun && cp rec fake/mpirun
printf '#!/bin/bash\nexit 0\n' >fake/squeue && chmod +x fake/squeue
PATH=$TMP/fake:$PATH
module() { printf '%s\0' "$@" >>"$REC_DIR/module"; }
export -f module

# --- random values ---
NASTY=($'\n' '&' '\' "'" '"' '$' '(' ')' '`' ';' ' ' '|' '<' '>' '*' '?' '[' ']' '{' '}' '!' '#' '~'
    '=' '%' $'\t' $'\r' '@' ':' ',' '-' '--' '$(touch CANARY)' '`touch CANARY`' ';touch CANARY;' '&touch CANARY&'
    $'\ntouch CANARY\n' "'\$(touch CANARY)'" '"$(touch CANARY)"' '|touch CANARY' '>CANARY' '@OUTDIR@'
    '@MNW_OPTS@' '&&' '\&' "\$'\\n'" '$(touch${IFS}CANARY)' '`touch${IFS}CANARY`' ';touch${IFS}CANARY;' $'\xff' $'\xc3\xa9' $'\xc3' $'\x80' $'\x01' $'\x7f' 'hetjob' '%j')
# rword VAR MAX: VAR set to up to MAX random pieces (a byte 1-255, or one of NASTY)
rword() {
    local n=$((RANDOM % ($2 + 1))) s='' o c
    while [ "$n" -gt 0 ]; do
        if ((RANDOM % 2)); then
            c=${NASTY[RANDOM % ${#NASTY[@]}]}
        else
            printf -v o '%03o' $((RANDOM % 255 + 1))
            printf -v c "\\$o"
        fi
        s+=$c n=$((n - 1))
    done
    printf -v "$1" '%s' "$s"
}
# rname VAR MAX: a random file name (no '/', never empty, '.' or '..')
PREFIX=(f - '~' '&' ' ' $'\n' "'" '$(' é)
rname() {
    local w
    rword w "$2"
    w=${w//\//_}
    printf -v "$1" '%s' "${PREFIX[RANDOM % ${#PREFIX[@]}]}$w"
}
# pick VAR VALUES...: one of VALUES
pick() { local a=("${@:2}"); printf -v "$1" '%s' "${a[RANDOM % ${#a[@]}]}"; }

# --- the oracle: what docs/slurm.md lets reach an #SBATCH line ---
sbok() { [[ $1 != *[[:cntrl:][:space:]\\\"\'#]* ]] && [[ ${1,,} != *hetjob* && ${1,,} != *packjob* ]]; }
ok_name() { [[ $1 =~ ^[A-Za-z0-9._-]+$ ]] && sbok "$1"; }
ok_part() { [ -z "$1" ] || { [[ $1 =~ ^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$ ]] && sbok "$1"; }; }
ok_time() { [[ $1 =~ ^([0-9]{1,9}(:[0-9]{1,2}){0,2}|[0-9]{1,9}-[0-9]{1,2}(:[0-9]{1,2}){0,2})$ ]] || [[ ${1,,} =~ ^(unlimited|infinite)$ ]]; }
ok_sbatch() { sbok "$1" && [[ $1 == -?* ]]; }
ok_path() { sbok "$1" && [[ $1 != *%* ]]; }
ok_module() { [ -n "$1" ] && [[ $1 != -* ]] && [[ $1 != *[[:cntrl:]]* ]]; }
ok_mpi() { [[ $1 =~ ^[A-Za-z0-9_.-]+$ ]]; }

# --- the checks of one case ---
bad=0
fail() { # fail WHAT: one failing case, shown with its values
    echo "not ok - case $k ($kind): $1"
    local LC_ALL=C
    printf '#   %s\n' "$(printf '%q ' "${args[@]}")" | head -c 3000
    [ -f sub.err ] && cat -v sub.err | sed 's/^/#   sub: /' | head -5
    T_FAILED=1 bad=$((bad + 1))
}
# expect_sbatch SCRIPT TEMPLATE: the script's #SBATCH lines are the
# template's with the values of E (empty: left out), SBL after @SBATCH_LINES@
expect_sbatch() {
    local line rest out key drop
    while IFS= read -r line; do
        if [ "$line" = "@SBATCH_LINES@" ]; then
            for line in "${sbl[@]}"; do printf '#SBATCH %s\n' "$line"; done
            continue
        fi
        [[ $line == "#SBATCH"* ]] || continue
        out='' rest=$line drop=0
        while [[ $rest =~ @([A-Z_]+)@ ]]; do
            key=${BASH_REMATCH[1]}
            [ -n "${E[$key]:-}" ] || { drop=1 && break; }
            out+=${rest%%"@$key@"*}${E[$key]}
            rest=${rest#*"@$key@"}
        done
        [ "$drop" = 1 ] || printf '%s\n' "$out$rest"
    done <"$2" >sbatch.want
    grep '^#SBATCH' "$1" >sbatch.got
    cmp -s sbatch.want sbatch.got || { diff sbatch.want sbatch.got | sed 's/^/#   /' | head; return 1; }
}
# calls_are WANT...: the recorded calls, each a file of NUL-separated argv
# ($0 first), are exactly the files WANT... (in any order)
calls_are() {
    local got=("$REC_DIR"/call.*) w g hit
    [ -e "${got[0]}" ] || got=()
    [ "${#got[@]}" -eq $# ] || { echo "#   ${#got[@]} calls, $# wanted"; return 1; }
    for w in "$@"; do
        hit=0
        for g in "${got[@]}"; do cmp -s "$w" "$g" && hit=1; done
        [ "$hit" = 1 ] || { od -c "$w" | head -4 | sed 's/^/#   want /'; od -c "${got[0]}" | head -4 | sed 's/^/#   got  /'; return 1; }
    done
}
want() { printf '%s\0' "${@:2}" >"$1"; } # want FILE ARGV...
clean_calls() { rm -f "$REC_DIR"/call.* "$REC_DIR"/module; }
canary() { [ -z "$(find "$TMP" -name 'CANARY*' -print -quit)" ]; }
# tree: what is here, names and bytes (the test's own files left out): what a refusal must leave
tree() {
    find . \( -name 'sub.*' -o -name '*.out' -o -name 'want.*' -o -name 'sbatch.want' -o -name 'sbatch.got' \) -prune \
        -o -print0 | sort -z | xargs -0 md5sum 2>/dev/null | md5sum
}

# --- single runs: one node, several nodes (srun, mpirun), a heterogeneous job, an array ---
refused=0
for ((k = 1; k <= cases; k++)); do
    cd "$TMP" && rm -rf c && mkdir c && cd c || exit 1
    clean_calls
    pick kind one one multi-srun multi-mpirun het array
    cp=''
    rname mdir 8
    mdir=m$mdir # a name of its own (the OUTDIR is another)
    mkdir -- "$mdir" && cp -- ../rec "$mdir/mnw"
    mnw=$PWD/$mdir/mnw
    words=()
    for ((w = RANDOM % 5; w > 0; w--)); do rword x 8 && words+=("$x"); done
    # the values that go onto #SBATCH lines: valid ones, or, in a hostile
    # case (one in three), some of random bytes (then mostly refused)
    hostile=$((RANDOM % 3 == 0))
    hit() { [ "$hostile" = 1 ] && ((RANDOM % 3 == 0)); }
    if hit; then rword name 6; else pick name mnw a.b-c_1 X my-hetjob; fi
    partition='' time=24:00:00 mpi=pmix sbl=() mods=()
    if hit; then rword partition 6; elif ((RANDOM % 2)); then pick partition gpu a,b big_1; fi
    if hit; then rword time 5; elif ((RANDOM % 2)); then pick time 90 1:30 1:00:00 2-12 2-12:30 2-0:0:1 UNLIMITED infinite; fi
    for ((w = RANDOM % 3; w > 0; w--)); do
        if hit; then rword x 6; else pick x --account=bio --qos=x --mem=4G '--comment=R&D;$(x)`y`' -A=x; fi
        sbl+=("$x")
    done
    for ((w = RANDOM % 3; w > 0; w--)); do
        rword x 6
        hit || { x=m${x//[[:cntrl:]]/}; }
        mods+=("$x")
    done
    # OUTDIR: its log is on an #SBATCH line, the rest of its bytes may be anything
    rname out 8
    hit || out=o${out//[[:cntrl:][:space:]\\\"\'#%]/}
    if hit; then rword mpi 4; fi
    args=(--dry-run --mnw "$mnw" -J "$name" -t "$time")
    [ -n "$partition" ] && [ "$kind" != het ] && args+=(-p "$partition")
    for x in "${sbl[@]}"; do args+=(--sbatch "$x"); done
    for x in "${mods[@]}"; do args+=(--module "$x"); done
    accept=1
    ok_name "$name" && ok_time "$time" && ok_path "$PWD/$out" || accept=0
    for x in "${sbl[@]}"; do ok_sbatch "$x" || accept=0; done
    for x in "${mods[@]}"; do ok_module "$x" || accept=0; done
    ok_mpi "$mpi" || accept=0
    inputs=()
    case $kind in
    array)
        ok_part "$partition" || accept=0
        for ((w = 1 + RANDOM % 2; w > 0; w--)); do
            rname x 8
            x=${x/#-/_} # an argument that starts with - is an option (mnw-submit --array -o B ./-x.fa)
            inputs+=("$x$w.fa") && echo ">s" >"$x$w.fa"
        done
        args+=(--mpi "$mpi" --array -o "$out" "${inputs[@]}") tpl=array script=$PWD/$out/mnw-array.sbatch ;;
    het)
        pick cp cpu "${partition:-x}"
        rname x 8 && inputs=("$x") && echo ">s" >"$x"
        args+=(--mpi "$mpi" --cpu-partition "$cp" --gpu-partition gpu -i "$x" -o "$out") tpl=hetjob script=$PWD/$out.sbatch
        partition='' && ok_part "$cp" || accept=0 ;;
    *)
        ok_part "$partition" || accept=0
        rname x 8 && inputs=("$x") && echo ">s" >"$x"
        args+=(--mpi "$mpi" -i "$x" -o "$out") tpl=one-node script=$PWD/$out.sbatch
        [ "$kind" = one ] || args+=(-N 2 --launcher "${kind#multi-}") tpl=multi-node ;;
    esac
    args+=(-- "${words[@]}")
    before=$(tree)
    if ((RANDOM % 2)); then loc=$utf8; else loc=C; fi
    LC_ALL=$loc timeout 20 "$SUB" "${args[@]}" </dev/null >sub.out 2>sub.err
    rc=$?
    if [ "$accept" = 0 ]; then
        refused=$((refused + 1))
        [ "$rc" -eq 2 ] && [ "$(wc -l <sub.err)" -eq 1 ] && grep -q '^mnw-submit: error: ' sub.err &&
            [ "$(tree)" = "$before" ] || fail "not refused as it should be (exit $rc, or more than one line, or files written)"
        canary || fail "a canary ran"
        continue
    fi
    [ "$rc" -eq 0 ] || { fail "refused (exit $rc), but every value is allowed"; continue; }
    declare -A E=([NAME]=$name [PARTITION]=$partition [NODES]=2 [CPUS]='' [EXCLUSIVE]=--exclusive [GPUS]=''
        [TIME]=$time [LEAD]=300 [REQUEUE]=--requeue [LOG]=$PWD/$out.slurm-%j.out [ARRAY]=''
        [CPU_PARTITION]=$cp [CPU_NODES]=1 [CPU_CPUS]='' [CPU_EXCLUSIVE]=--exclusive
        [GPU_PARTITION]=gpu [GPU_NODES]=1 [GPU_CPUS]='' [GPU_EXCLUSIVE]=--exclusive [RANKS]=1)
    [ "$kind" = het ] && E[GPUS]=1
    [ "$kind" = array ] && E[LOG]=$PWD/$out/slurm-%A_%a.out E[ARRAY]=0-$((${#inputs[@]} - 1))
    expect_sbatch "$script" "$TPL/$tpl.sbatch" || fail "the #SBATCH lines are not the template's with the values"
    bash -n "$script" || fail "bash cannot parse the script"
    # run it as Slurm would: bash SCRIPT in the submit directory, each task
    if ((RANDOM % 2)); then loc=$utf8; else loc=C; fi
    wants=()
    case $kind in
    array)
        for i in "${!inputs[@]}"; do
            LC_ALL=$loc SLURM_JOB_ID=7 SLURM_ARRAY_JOB_ID=7 SLURM_ARRAY_TASK_ID=$i timeout 20 bash "$script" </dev/null >run.out 2>&1
            b=${inputs[i]%.fa}
            want "want.$i" "$mnw" -i "$PWD/${inputs[i]}" -o "$PWD/$out/$b" "${words[@]}"
            wants+=("want.$i")
        done ;;
    *)
        LC_ALL=$loc SLURM_JOB_ID=7 SLURM_HET_SIZE=2 timeout 20 bash "$script" </dev/null >run.out 2>&1
        cmd=("$mnw" -i "$PWD/${inputs[0]}" -o "$PWD/$out" "${words[@]}")
        case $kind in
        one) want want.0 "${cmd[@]}" ;;
        multi-srun) want want.0 "$TMP/fake/srun" --mpi="$mpi" --ntasks-per-node=1 --cpu-bind=none --kill-on-bad-exit=1 "${cmd[@]}" ;;
        multi-mpirun) want want.0 "$TMP/fake/mpirun" --map-by ppr:1:node --bind-to none "${cmd[@]}" ;;
        het)
            cmd=("$mnw" -i "$PWD/${inputs[0]}" -o "$PWD/$out" "${words[@]}")
            want want.0 "$TMP/fake/srun" --mpi="$mpi" --cpu-bind=none --kill-on-bad-exit=1 --het-group=0 "${cmd[@]}" : --het-group=1 "${cmd[@]}" ;;
        esac
        wants=(want.0) ;;
    esac
    calls_are "${wants[@]}" || fail "the launched program did not get the exact bytes (or ran more or less than once a task)"
    n=$((${#inputs[@]}))
    [ "$kind" = array ] || n=1
    : >mods.want
    for ((i = 0; i < n; i++)); do for x in "${mods[@]}"; do printf 'load\0%s\0' "$x" >>mods.want; done; done
    if [ ${#mods[@]} -gt 0 ]; then cmp -s mods.want "$REC_DIR/module"; else [ ! -e "$REC_DIR/module" ]; fi ||
        fail "module load did not get the exact module names"
    canary || fail "a canary ran"
done
echo "# single runs: $((cases - refused)) run, $refused refused"
check "single runs: $cases random cases, each refused or run with the exact bytes, no canary" '[ $bad -eq 0 ]'

# --- --shards: the tasks, the merge, --resume reading the manifest back ---
bad=0
for ((k = 1; k <= cases; k++)); do
    cd "$TMP" && rm -rf c && mkdir c && cd c || exit 1
    clean_calls
    kind=shards
    rname mdir 8
    mdir=m$mdir # a name of its own (the OUTDIR is another)
    mkdir -- "$mdir" && cp -- ../rec "$mdir/mnw"
    mnw=$PWD/$mdir/mnw
    words=()
    for ((w = RANDOM % 5; w > 0; w--)); do rword x 8 && [[ $x != --shard* ]] && words+=("$x"); done
    rname in 8
    in=${in//$'\n'/_} # the manifest holds one line each: a line break in the input is refused (t_submit.sh)
    echo ">s" >"$in"
    if ((RANDOM % 3)); then pick out P P.2 é; else rname out 6; fi
    args=(--dry-run --mnw "$mnw" --shards 2 -i "$in" -o "$out" -- "${words[@]}")
    before=$(tree)
    timeout 20 "$SUB" "${args[@]}" </dev/null >sub.out 2>sub.err
    rc=$?
    if ! ok_path "$PWD/$out"; then
        [ "$rc" -eq 2 ] && [ "$(tree)" = "$before" ] || fail "-o: not refused as it should be"
        canary || fail "a canary ran"
        continue
    fi
    [ "$rc" -eq 0 ] || { fail "refused (exit $rc), but every value is allowed"; continue; }
    P=$PWD/$out
    run_all() { # the two tasks and the merge, as Slurm would; the calls they should make
        clean_calls
        for i in 1 2; do SLURM_ARRAY_JOB_ID=7 SLURM_ARRAY_TASK_ID=$i timeout 20 bash "$P/mnw-shards.sbatch" </dev/null >"run$i.out" 2>&1; done
        SLURM_JOB_ID=8 timeout 20 bash "$P/mnw-merge.sbatch" </dev/null >run3.out 2>&1
        want want.1 "$mnw" -i "$1" -o "$P/shard-1" --shard 1/2 "${@:2}"
        want want.2 "$mnw" -i "$1" -o "$P/shard-2" --shard 2/2 "${@:2}"
        want want.3 "$mnw" merge "$P/merged" "$P/shard-1" "$P/shard-2"
        calls_are want.1 want.2 want.3
    }
    run_all "$PWD/$in" "${words[@]}" || fail "--shards: the tasks or the merge did not get the exact bytes"
    # --resume reads the options back from the manifest: as written, or as
    # the previous mnw-submit wrote them (printf %q in the user's locale)
    if ((RANDOM % 2)); then
        qw=$(LC_ALL=$utf8 bash -c 's=; for a in "$@"; do s+=" $(printf %q "$a")"; done; printf %s "${s# }"' - "${words[@]}")
        sed -i '/^mnw-options /d' "$P/mnw.shards" && printf 'mnw-options %s\n' "$qw" >>"$P/mnw.shards"
    fi
    timeout 20 "$SUB" --mnw "$mnw" --dry-run --resume "$out" </dev/null >sub.out 2>sub.err ||
        { fail "--resume of the dry run refused"; continue; }
    run_all "$PWD/$in" "${words[@]}" || fail "--resume: the tasks or the merge did not get the run's exact options"
    canary || fail "a canary ran"
done
check "shards: $cases random cases, tasks, merge and --resume with the exact bytes, no canary" '[ $bad -eq 0 ]'

# --- manifests with one field of random bytes: --resume and the merge job ---
bad=0
cd "$TMP" && rm -rf m && mkdir m && cd m || exit 1
echo ">s" >in.fa
"$SUB" --mnw "$TMP/rec" --dry-run --shards 2 -i in.fa -o P -- --cigar >/dev/null 2>&1
cp P/mnw.shards clean.shards
for ((k = 1; k <= cases; k++)); do
    cd "$TMP/m" && rm -rf P/merged P/shard-* && cp clean.shards P/mnw.shards || exit 1
    clean_calls
    pick kind input mnw-options merged shard remove-shards shards job
    rword v 10
    v=${v//$'\n'/_}
    dup=$((RANDOM % 6 == 0)) # the field's line added, the old one kept: two of it
    [ "$dup" = 1 ] && cp P/mnw.shards dup.shards
    case $kind in
    input) ((RANDOM % 2)) && v=/$v; sed -i '/^input /d' P/mnw.shards ;;
    mnw-options) sed -i '/^mnw-options /d' P/mnw.shards ;;
    merged) ((RANDOM % 3)) || pick v . .. merged/x ../x; sed -i '/^merged /d' P/mnw.shards ;;
    shard) ((RANDOM % 3)) || pick v . .. merged shard-2 "shard-1/.."; v="1 $v"; sed -i '/^shard 1 /d' P/mnw.shards ;;
    remove-shards) sed -i '/^remove-shards /d' P/mnw.shards ;;
    shards) ((RANDOM % 3)) || pick v 02 2 3; sed -i '/^shards /d' P/mnw.shards ;;
    job) ((RANDOM % 3)) || pick v "merge 5" "shards 5 1-2" "merge 5;x" "merge \$(touch CANARY)" ;;
    esac
    [ "$dup" = 1 ] && mv dup.shards P/mnw.shards
    printf '%s %s\n' "$kind" "$v" >>P/mnw.shards
    args=(dup "$dup" "$kind" "$v")
    # mnw-submit --resume: reads the field, or refuses it
    accept=1
    case $kind in
    input) [[ $v == /* ]] || accept=0 ;;
    mnw-options) accept=maybe ;;
    merged) [ "$v" = merged ] || accept=0 ;;
    shard) [ "$v" = "1 shard-1" ] || accept=0 ;;
    remove-shards) [[ $v =~ ^(yes|no)$ ]] || accept=0 ;;
    shards) [[ $v =~ ^[0-9]{1,7}$ ]] && [ $((10#$v)) -eq 2 ] || accept=0 ;;
    job) [[ $v =~ ^(shards\ [0-9]+\ [0-9,%-]+|merge\ [0-9]+)$ ]] || accept=0 ;;
    esac
    [ "$dup" = 1 ] && [ "$kind" != job ] && accept=0
    before=$(tree)
    timeout 20 "$SUB" --mnw "$TMP/rec" --dry-run --resume P </dev/null >sub.out 2>sub.err
    rc=$?
    if [ "$accept" = maybe ] && [ "$rc" -eq 0 ]; then
        # accepted: then the words are the line's words as bash reads them
        # (here in a subshell, with nothing on PATH: if the reader let code
        # through, the canary check below fails)
        (
            PATH=/nonexistent
            eval "o=($v)" 2>/dev/null
            want want.1 "$TMP/rec" -i "$TMP/m/in.fa" -o "$TMP/m/P/shard-1" --shard 1/2 "${o[@]}"
        )
        SLURM_ARRAY_TASK_ID=1 timeout 20 bash P/mnw-shards.sbatch </dev/null >run.out 2>&1
        calls_are want.1 || fail "mnw-options: read back other words than bash reads"
    elif [ "$accept" = maybe ]; then
        [ "$rc" -eq 2 ] && grep -q "mnw.shards: the mnw-options line" sub.err || fail "mnw-options: not refused as it should be"
    elif [ "$accept" = 0 ]; then
        [ "$rc" -eq 2 ] && [ "$(wc -l <sub.err)" -eq 1 ] && [ "$(tree)" = "$before" ] || fail "--resume: a bad field not refused (exit $rc)"
    else
        [ "$rc" -eq 0 ] || fail "--resume: a good field refused"
        if [ "$kind" = input ]; then
            SLURM_ARRAY_TASK_ID=1 timeout 20 bash P/mnw-shards.sbatch </dev/null >run.out 2>&1
            want want.1 "$TMP/rec" -i "$v" -o "$TMP/m/P/shard-1" --shard 1/2 --cigar
            calls_are want.1 || fail "--resume: the manifest's input did not reach mnw byte for byte"
        fi
    fi
    # the merge job reads the manifest itself: a name that is not a single
    # directory of its own inside P is refused, and nothing is removed
    clean_calls
    mkdir -p P/shard-1 P/shard-2 && touch sentinel P/shard-1/keep
    SLURM_JOB_ID=8 timeout 20 bash P/mnw-merge.sbatch </dev/null >merge.out 2>&1
    rc=$?
    [ -e sentinel ] && [ -e P/mnw.shards ] && { [ -e P/shard-1/keep ] || [ "$kind $v" = "remove-shards yes" ]; } ||
        fail "the merge job removed what is not its own"
    if [ "$kind" = merged ] || [ "$kind" = shard ]; then
        n=${v#1 }
        if [ "$dup" = 0 ] && [[ $n =~ ^[^/]+$ ]] && [ "$n" != . ] && [ "$n" != .. ] && [[ $n != *[[:cntrl:]]* ]] &&
            if [ "$kind" = merged ]; then [ "$n" != shard-1 ] && [ "$n" != shard-2 ]; else [ "$n" != merged ] && [ "$n" != shard-2 ]; fi; then
            [ "$rc" -eq 0 ] || fail "the merge job refused a good name"
        else
            [ "$rc" -eq 2 ] && ! compgen -G "$REC_DIR/call.*" >/dev/null || fail "the merge job ran with a bad name (exit $rc)"
        fi
    fi
    canary || fail "a canary ran"
done
check "manifests: $cases with a random field, each read exactly or refused, the merge job removes nothing of others" '[ $bad -eq 0 ]'
finish
