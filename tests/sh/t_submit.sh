#!/usr/bin/env bash
# t_submit.sh - slurm/mnw-submit without a cluster: the batch scripts it
# writes (--dry-run) for each template, and every refusal (exit 2, nothing
# written). The jobs themselves run on a real Slurm in tests/slurm/t_slurm.sh.
. "$(dirname "$0")/../lib.sh"
cd "$TMP"
SUB=$ROOT/slurm/mnw-submit
cp "$TDATA/16s-200.fa" a.fa
zcat "$TDATA/gold-sample.fa.gz" >b.fa

# sub NAME ARGS... : runs mnw-submit, output in NAME.out, status in $rc
sub() {
    local n=$1
    shift
    "$SUB" --mnw "$MNW" "$@" >"$n.out" 2>&1
    rc=$?
}
has() { grep -qxF -- "$2" "$1"; } # has FILE LINE: LINE is a whole line of FILE

sub one --dry-run -i a.fa -o run1 -c 4 -t 90 --signal-lead 120 -- --cigar --gap-open 12
check "one node: exit 0, script written beside OUTDIR, OUTDIR not created" '[ $rc -eq 0 ] && [ -f run1.sbatch ] && [ ! -e run1 ]'
check "one node: bash can parse the script" 'bash -n run1.sbatch'
for l in "#SBATCH --nodes=1" "#SBATCH --cpus-per-task=4" "#SBATCH --time=90" "#SBATCH --signal=B:USR1@120" \
    "#SBATCH --requeue" "#SBATCH --open-mode=append" "#SBATCH --output=$TMP/run1.slurm-%j.out"; do
    check "one node: '$l'" 'has run1.sbatch "$l"'
done
check "one node: no --exclusive when CPUs are given, no gres, no partition line" \
    '! grep -qE -- "--exclusive|--gres|--partition" run1.sbatch'
check "one node: runs mnw-job with the absolute mnw, OUTDIR, input and the mnw options" \
    'grep -q "^exec $ROOT/slurm/mnw-job --mnw $MNW --outdir $TMP/run1 --input $TMP/a.fa --launcher none .* -- --cigar --gap-open 12$" run1.sbatch'

sub multi --dry-run -i a.fa -o run2 -N 3 -p big -G 2 --launcher mpirun --module openmpi/4.1 --sbatch --account=bio
check "multi-node: exit 0" '[ $rc -eq 0 ]'
for l in "#SBATCH --nodes=3" "#SBATCH --ntasks-per-node=1" "#SBATCH --partition=big" "#SBATCH --gres=gpu:2" \
    "#SBATCH --exclusive" "#SBATCH --account=bio" "module load openmpi/4.1"; do
    check "multi-node: '$l'" 'has run2.sbatch "$l"'
done
check "multi-node: launched with mpirun, no --cpus-per-task line" \
    'grep -q -- "--launcher mpirun" run2.sbatch && ! grep -q -- "--cpus-per-task" run2.sbatch'

sub het --dry-run -i a.fa -o run3 --cpu-partition cpu --gpu-partition gpu --cpu-nodes 2 --cpu-cpus 8 --gpu-cpus 4 -G 1
check "hetjob: exit 0, bash can parse it" '[ $rc -eq 0 ] && bash -n run3.sbatch'
check "hetjob: CPU component, then 'hetjob', then the GPU component with its gres" \
    '[ "$(grep -E "^#SBATCH (--partition|--nodes|--cpus-per-task|--gres|hetjob)" run3.sbatch | tr "\n" " ")" = "#SBATCH --partition=cpu #SBATCH --nodes=2 #SBATCH --cpus-per-task=8 #SBATCH hetjob #SBATCH --partition=gpu #SBATCH --nodes=1 #SBATCH --cpus-per-task=4 #SBATCH --gres=gpu:1 " ]'
check "hetjob: one MPI job over both components (srun-het, pmix)" 'grep -q -- "--launcher srun-het .*--mpi pmix" run3.sbatch'

sub arr --dry-run --array -o base a.fa b.fa --array-throttle 1 -c 1 --no-requeue
check "array: exit 0, script in OUTBASE" '[ $rc -eq 0 ] && [ -f base/mnw-array.sbatch ] && bash -n base/mnw-array.sbatch'
check "array: two tasks, one at a time, no requeue" \
    'has base/mnw-array.sbatch "#SBATCH --array=0-1%1" && has base/mnw-array.sbatch "#SBATCH --no-requeue"'
check "array: each task its input and OUTBASE/NAME" \
    'has base/mnw-array.sbatch "inputs=($TMP/a.fa $TMP/b.fa)" && has base/mnw-array.sbatch "outdirs=($TMP/base/a $TMP/base/b)"'

# issue 40: a node of more GPUs than --gpus-per-rank (default 2) runs several
# ranks that share its GPUs out (mnw does, nld/gpushare.h)
sub g4 --dry-run -i a.fa -o g4 -G 4 -c 30
check "-G 4 on one node: two ranks of 30 CPUs, launched by srun (pmix), --ranks-per-node 2" \
    '[ $rc -eq 0 ] && has g4.sbatch "#SBATCH --ntasks=2" && has g4.sbatch "#SBATCH --cpus-per-task=30" && has g4.sbatch "#SBATCH --gres=gpu:4" &&
     grep -q -- "--launcher srun .*--mpi pmix --ranks-per-node 2 --" g4.sbatch'
sub g2 --dry-run -i a.fa -o g2 -G 2
check "-G 2 on one node: one process drives both (no launcher)" \
    '[ $rc -eq 0 ] && has g2.sbatch "#SBATCH --ntasks=1" && grep -q -- "--launcher none " g2.sbatch && ! grep -q -- "--ranks-per-node" g2.sbatch'
sub g8 --dry-run -i a.fa -o g8 -N 2 -G 8 --gpus-per-rank 4 --launcher mpirun
check "-N 2 -G 8 --gpus-per-rank 4: two ranks a node, mpirun" \
    '[ $rc -eq 0 ] && has g8.sbatch "#SBATCH --ntasks-per-node=2" && grep -q -- "--launcher mpirun .*--ranks-per-node 2 --" g8.sbatch'
sub g3 --dry-run -i a.fa -o g3 -G 3 --gpus-per-rank 1
check "-G 3 --gpus-per-rank 1: three ranks" '[ $rc -eq 0 ] && has g3.sbatch "#SBATCH --ntasks=3"'
# mnw-job's launch line with R ranks a node, through a stand-in srun and
# mpirun that print their arguments (the real ones: tests/slurm)
mkdir -p fakebin
printf '#!/bin/sh\necho "$0 $*" >>"%s/launched"\n' "$TMP" >fakebin/srun
cp fakebin/srun fakebin/mpirun
chmod +x fakebin/srun fakebin/mpirun
rm -f launched
for l in srun mpirun; do
    PATH=$TMP/fakebin:$PATH SLURM_CPUS_ON_NODE=64 "$ROOT/slurm/mnw-job" --mnw "$MNW" --outdir "$TMP/mj-$l" --input a.fa \
        --launcher $l --ranks-per-node 2 -- -t 1 >mj-$l.log 2>&1
done
check "mnw-job --ranks-per-node 2 on a whole node of 64 CPUs: srun -n 2 a node, 32 CPUs each" \
    'grep -q "srun --mpi=pmix --ntasks-per-node=2 --cpus-per-task=32 --cpu-bind=none --kill-on-bad-exit=1 $MNW -i a.fa -o $TMP/mj-srun -t 1$" launched'
check "mnw-job --ranks-per-node 2 with mpirun: ppr:2:node, SLURM_CPUS_PER_TASK=32 for each rank" \
    'grep -q "mpirun --map-by ppr:2:node --bind-to none -x SLURM_CPUS_PER_TASK=32 $MNW -i a.fa -o $TMP/mj-mpirun -t 1$" launched'
"$ROOT/slurm/mnw-job" --mnw "$MNW" --outdir "$TMP/mj-none" --input a.fa --launcher none --ranks-per-node 2 >mj-none.log 2>&1
rc=$?
check "mnw-job --ranks-per-node 2 without a launcher: refused" '[ $rc -eq 2 ] && grep -q "needs a launcher" mj-none.log'

# a value with white space or shell characters reaches mnw as one word
sub quote --dry-run -i a.fa -o run4 -- --host 'n*:threads=2' --label 'a b'
check "mnw options are quoted for the shell" "grep -qF -- \"--host n\\\\*:threads=2 --label a\\\\ b\" run4.sbatch"

# --- refusals: exit 2, a message naming the problem, nothing written ---
mkdir full && echo x >full/f
refuse() { # refuse DESC PATTERN ARGS...
    local d=$1 pat=$2
    shift 2
    local before
    before=$(ls -R --ignore='*.out' | md5sum)
    sub refuse "$@"
    check "refused ($d): exit 2, says '$pat', nothing written" \
        '[ $rc -eq 2 ] && grep -q -- "$pat" refuse.out && [ "$(ls -R --ignore=*.out | md5sum)" = "$before" ]'
    grep -q -- "$pat" refuse.out || sed 's/^/#   /' refuse.out
}
refuse "OUTDIR not empty" "full exists and is not empty: continue a run there with --resume" -i a.fa -o full
refuse "--resume without a bookmark" "full/mnw.bookmark: no bookmark" --resume full
refuse "missing input" "nope.fa: cannot read the input" -i nope.fa -o new
refuse "no input" "a new run needs -i SEQS and -o OUTDIR" -o new
refuse "half a hetjob" "needs both --cpu-partition and --gpu-partition" -i a.fa -o new --cpu-partition cpu
refuse "bad node count" "--nodes 'x' is not a number" -i a.fa -o new -N x
refuse "zero CPUs" "--cpus-per-task '0' is not a positive number" -i a.fa -o new -c 0
refuse "bad launcher" "--launcher 'ssh'" -i a.fa -o new -N 2 --launcher ssh
refuse "unknown option" "unknown option '--bogus'" -i a.fa -o new --bogus
refuse "same name twice in an array" "two inputs are named 'a'" --array -o base2 a.fa "$TMP/a.fa"
refuse "white space in OUTDIR" "an #SBATCH line cannot hold white space" -i a.fa -o "new dir"
refuse "no mnw" "--mnw '/nonexistent' is not an executable" -i a.fa -o new --mnw /nonexistent

# --resume of a run with a bookmark (any run has one: 20 genes will do)
awk '/^>/{n++} n>20{exit} {print}' a.fa >a20.fa
"$MNW" -q -i a20.fa -o done1 -t 1 --gpus none
sub res --dry-run --resume done1 -c 2
check "--resume OUTDIR: the script runs mnw-job on it (it resumes from the bookmark)" \
    '[ $rc -eq 0 ] && grep -q -- "--outdir $TMP/done1 " done1.sbatch'

# --- --shards N: an array of shard tasks and a merge job ---
sub shd --dry-run --shards 12 -c 2 --array-throttle 4 -i a.fa -o sh12 -- --cigar -t 1
check "shards: exit 0; the array script, the merge script and the manifest in OUTDIR" \
    '[ $rc -eq 0 ] && bash -n sh12/mnw-shards.sbatch && bash -n sh12/mnw-merge.sbatch && [ -f sh12/mnw.shards ]'
for l in "#SBATCH --array=1-12%4" "#SBATCH --cpus-per-task=2" "#SBATCH --output=$TMP/sh12/slurm-%A_%a.out" \
    "#SBATCH --signal=B:USR1@300" "#SBATCH --requeue"; do
    check "shards: '$l'" 'has sh12/mnw-shards.sbatch "$l"'
done
check "shards: task I runs mnw-job into OUTDIR/shard-II (two digits for 12) with --shard I/12 before the mnw options" \
    'has sh12/mnw-shards.sbatch "dir=\$(printf '"'"'%s/shard-%0*d'"'"' $TMP/sh12 2 \"\$i\")" &&
     grep -q -- "--outdir \"\$dir\" --input $TMP/a.fa --launcher none .* -- --shard \"\$i/12\" --cigar -t 1$" sh12/mnw-shards.sbatch'
check "shards: the merge job: one CPU, its own log, mnw-merge-job on OUTDIR" \
    'has sh12/mnw-merge.sbatch "#SBATCH --cpus-per-task=1" && has sh12/mnw-merge.sbatch "#SBATCH --output=$TMP/sh12/slurm-merge-%j.out" &&
     has sh12/mnw-merge.sbatch "exec $ROOT/slurm/mnw-merge-job --mnw $MNW --parent $TMP/sh12"'
check "shards: the manifest names the input, 12 shards shard-01 .. shard-12, merged, no job yet" \
    'has sh12/mnw.shards "input $TMP/a.fa" && has sh12/mnw.shards "shards 12" && has sh12/mnw.shards "shard 1 shard-01" &&
     has sh12/mnw.shards "shard 12 shard-12" && has sh12/mnw.shards "merged merged" && ! grep -q "^job " sh12/mnw.shards'
"$MNW" status sh12 >sh12-status.txt 2>&1
check "shards: mnw status of the dry run: 12 shards, none started, nothing merged" \
    'grep -q "split into 12 shards" sh12-status.txt && grep -q "0 done, 0 running, 0 queued, 12 stopped or not started" sh12-status.txt &&
     grep -q "merged     .*: not yet" sh12-status.txt && [ "$(grep -c "not started  " sh12-status.txt)" = 12 ]' ||
    sed 's/^/#   /' sh12-status.txt
sub shd2 --dry-run --shards 12 -c 2 -i a.fa -o sh12 -- --cigar -t 1
check "shards: a second dry run replaces what the first left" '[ $rc -eq 0 ]'

# the batch scripts run as Slurm runs them (each task with its
# SLURM_ARRAY_TASK_ID), here without Slurm: the merged run is the whole run's
sub sh3 --dry-run --shards 3 -i a20.fa -o sh3 -- -t 1 --gpus none --worklist-size 20 --cigar --phylip
"$MNW" -q -i a20.fa -o whole20 -t 1 --gpus none --worklist-size 20 --cigar --phylip
for i in 1 2 3; do SLURM_ARRAY_TASK_ID=$i bash sh3/mnw-shards.sbatch >sh3-task$i.log 2>&1; done
check "shards: each task's script ran mnw --shard I/3 into shard-I (complete bookmarks)" \
    'grep -q "^setting shard 1/3" sh3/shard-1/mnw.bookmark && grep -q "^setting shard 3/3" sh3/shard-3/mnw.bookmark'
"$MNW" status sh3 >sh3-status.txt 2>&1
check "shards: mnw status: 3 done, 190 of 190 pairs, all shards complete, no merge queued" \
    'grep -q "3 done, 0 running" sh3-status.txt && grep -q "190 of 190 pairs" sh3-status.txt &&
     grep -q "All 3 shards are complete, but no merge job is queued: merge them with mnw-submit --resume" sh3-status.txt' ||
    sed 's/^/#   /' sh3-status.txt
mkdir sh3/merged && echo partial >sh3/merged/.pairs.tsv.gz.merge # a merge killed midway
bash sh3/mnw-merge.sbatch >sh3-merge.log 2>&1
rc=$?
check "shards: the merge script: a killed merge's files removed, then merged byte-identical to the whole run" \
    '[ $rc -eq 0 ] && grep -q "a merge killed midway" sh3-merge.log && same_bytes sh3/merged whole20 &&
     [ ! -e sh3/merged/.pairs.tsv.gz.merge ]' ||
    sed 's/^/#   /' sh3-merge.log
bash sh3/mnw-merge.sbatch >sh3-merge2.log 2>&1
rc=$?
check "shards: the merge script again: complete already, nothing done" \
    '[ $rc -eq 0 ] && grep -q "is complete already (190 pairs): nothing to merge" sh3-merge2.log'
"$MNW" status sh3 >sh3-status.txt 2>&1
check "shards: mnw status: the run is complete, merged into merged" \
    'grep -q "The run is complete: its 3 shards are merged into sh3/merged (mnw status sh3/merged)" sh3-status.txt' || sed 's/^/#   /' sh3-status.txt
sub sh3r --resume sh3
check "shards: --resume of a merged run: nothing to submit" '[ $rc -eq 0 ] && grep -q "merged is complete: nothing to submit" sh3r.out'

# --resume: the shards not complete (and not queued) again, then the merge
sub sh4 --dry-run --shards 4 -i a20.fa -o sh4 --remove-shards -- -t 1 --gpus none --worklist-size 20 --cigar --phylip
for i in 1 3; do SLURM_ARRAY_TASK_ID=$i bash sh4/mnw-shards.sbatch >/dev/null 2>&1; done
# what mnw-submit writes in OUTDIR (scripts, manifest, through NAME.tmp) is
# never written through a link or a FIFO put there (issue 38)
echo victim >victim && cp victim victim.orig
bad=""
for plant in "mnw-merge.sbatch.tmp:link" "mnw-shards.sbatch.tmp:fifo" "mnw.shards:link" "mnw.shards:hardlink" "mnw-merge.sbatch:hardlink"; do
    rm -rf sh4p && cp -a sh4 sh4p
    case ${plant#*:} in
    link) cp "sh4p/${plant%:*}" victim 2>/dev/null; cp victim victim.orig; rm -f "sh4p/${plant%:*}"; ln -s "$TMP/victim" "sh4p/${plant%:*}" ;;
    fifo) mkfifo "sh4p/${plant%:*}" ;;
    hardlink) cp "sh4p/${plant%:*}" victim && cp victim victim.orig && rm -f "sh4p/${plant%:*}" && ln victim "sh4p/${plant%:*}" ;;
    esac
    "$SUB" --mnw "$MNW" --dry-run --resume sh4p -c 1 >sh4p.out 2>&1 </dev/null &
    pid=$!
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && { kill "$pid"; bad+=" $plant(hangs)"; }
    wait "$pid"
    prc=$?
    { [ $prc -eq 2 ] && grep -q "sh4p/${plant%:*}: not a regular file of its own" sh4p.out && cmp -s victim victim.orig; } ||
        bad+=" $plant(rc $prc: $(head -c 200 sh4p.out))"
    cp victim.orig victim
done
check "shards: --resume with a link, FIFO or hard link at a script, the manifest or their .tmp: exit 2 naming it, nothing written through${bad:+:$bad}" '[ -z "$bad" ]'
sub sh4r --dry-run --resume sh4 -c 1
check "shards: --resume: an array of the shards not complete (2,4) with the run's mnw options, the merge after them" \
    '[ $rc -eq 0 ] && has sh4/mnw-shards.sbatch "#SBATCH --array=2,4" && grep -q "after 2 new shard task(s)" sh4r.out &&
     grep -q -- "-- --shard \"\$i/4\" -t 1 --gpus none --worklist-size 20 --cigar --phylip$" sh4/mnw-shards.sbatch' ||
    sed 's/^/#   /' sh4r.out
for i in 2 4; do SLURM_ARRAY_TASK_ID=$i bash sh4/mnw-shards.sbatch >/dev/null 2>&1; done
bash sh4/mnw-merge.sbatch >sh4-merge.log 2>&1
rc=$?
check "shards: --remove-shards: merged byte-identical, then the shard directories removed" \
    '[ $rc -eq 0 ] && same_bytes sh4/merged whole20 && [ ! -e sh4/shard-1 ] && [ ! -e sh4/shard-4 ] &&
     grep -q "removing the shard directories" sh4-merge.log' || sed 's/^/#   /' sh4-merge.log

# --- issue 38: no value becomes shell code or an #SBATCH line of its own
# (tests/sh/t_submit_props.sh tries random bytes everywhere) ---
# & in a path and in the mnw options: bash 5.2's ${x//p/r} read it as the
# matched text (patsub_replacement); the script now holds each as one word
mkdir -p "R&D" && cp a20.fa "R&D/x.fa"
sub amp --dry-run -i "R&D/x.fa" -o run5 --module "a&b" -- --iddef "x&/path/evil" "\$(touch CANARY)" ""
check "& in -i, --module and the mnw options: quoted in the script, never the matched text" \
    '[ $rc -eq 0 ] && grep -qF -- "--input $TMP/R\&D/x.fa " run5.sbatch && has run5.sbatch "module load a\&b" &&
     grep -qF -- " -- --iddef x\&/path/evil \\\$\(touch\ CANARY\) '"''"'" run5.sbatch' || sed 's/^/#   /' run5.sbatch
# a template key in a value is copied, never replaced again (it looped on
# '@MNW_OPTS@&': the & brought the key back)
sub keys --dry-run -i a.fa -o run6 -- @INPUT@ "@MNW_OPTS@&"
check "a template's @KEY@ in an mnw option reaches the script as it is" \
    '[ $rc -eq 0 ] && grep -qF -- " -- @INPUT@ @MNW_OPTS@\&" run6.sbatch' || sed 's/^/#   /' keys.out
refuse "a line break in -p" "-p .'gpu.n/path/evil': partition names" -i a.fa -o new -p $'gpu\n/path/evil'
refuse "a line break in -t" "-t .'1.n/path/evil': not a Slurm time limit" -i a.fa -o new -t $'1\n/path/evil'
refuse "sbatch options in -p" "-p 'gpu --uid=0 --output=/etc/x': partition names" -i a.fa -o new -p 'gpu --uid=0 --output=/etc/x'
refuse "-t not a time" "-t '1h': not a Slurm time limit" -i a.fa -o new -t 1h
refuse "--sbatch not an option" "--sbatch 'hetjob': 'hetjob' or 'packjob'" -i a.fa -o new --sbatch hetjob
refuse "--sbatch with a quote" "--sbatch '--comment=\"x': an #SBATCH line cannot hold" -i a.fa -o new --sbatch '--comment="x'
refuse "% in OUTDIR" "a path with % cannot go into an #SBATCH line" -i a.fa -o new%j
refuse "--mpi not a type" "--mpi 'x;y': letters, digits" -i a.fa -o new -N 2 --mpi 'x;y'
cp a20.fa .fa
refuse "an array input named .fa" "its name without the extension, '', cannot name a run" --array -o base4 .fa
# the mnw-options line of a manifest is read as words, never run
sub inj --dry-run --shards 2 -i a20.fa -o inj -- --cigar
optline() { grep -v '^mnw-options ' inj/mnw.shards >inj/m && printf 'mnw-options %s\n' "$1" >>inj/m && mv inj/m inj/mnw.shards; }
optline '--cigar $(touch CANARY) `touch CANARY`;touch CANARY'
sub injr --dry-run --resume inj
check "--resume: an mnw-options line that is code is refused, not run" \
    '[ $rc -eq 2 ] && grep -q "inj/mnw.shards: the mnw-options line is not words" injr.out && [ ! -e CANARY ]' || sed 's/^/#   /' injr.out
optline "--label $(printf %q $'a & \n;b') R\\&D ''"
sub injr2 --dry-run --resume inj
check "--resume: printf %q words read back as words (\$'a & \\n;b', R&D and an empty one)" \
    '[ $rc -eq 0 ] && grep -qF -- "--shard \"\$i/2\" --label \$'"'"'a & \\n;b'"'"' R\\&D '"''"'" inj/mnw-shards.sbatch' ||
    { sed 's/^/#   /' injr2.out; grep "^mnw-options" inj/mnw.shards; }
echo "mnw-options --other" >>inj/mnw.shards
sub injr4 --dry-run --resume inj
check "--resume: two mnw-options lines: refused" '[ $rc -eq 2 ] && grep -q "more than one .mnw-options. line" injr4.out' || sed 's/^/#   /' injr4.out
sed -i '$d' inj/mnw.shards
echo "job merge 1;touch CANARY" >>inj/mnw.shards
sub injr3 --dry-run --resume inj
check "--resume: a job line that is not a job id is refused" '[ $rc -eq 2 ] && grep -q "not .job shards ID LIST. or .job merge ID." injr3.out && [ ! -e CANARY ]'
# mnw-merge-job: the merged directory '..' or '.', or a link: refused, nothing removed
sub mj --dry-run --shards 2 -i a20.fa -o mj -- --cigar
mkdir -p mj/shard-1 mj/shard-2
for m in .. . ../mj "x$(printf '\001')"; do
    sed -i "s|^merged .*|merged $m|" mj/mnw.shards
    bash mj/mnw-merge.sbatch >mj.log 2>&1
    rc=$?
    check "merge job: merged '$m' refused, nothing removed" \
        '[ $rc -eq 2 ] && grep -q "not a directory name inside" mj.log && [ -f a.fa ] && [ -f mj/mnw.shards ]' || sed 's/^/#   /' mj.log
done
mkdir -p elsewhere && touch elsewhere/keep && ln -s ../elsewhere mj/merged && sed -i "s|^merged .*|merged merged|" mj/mnw.shards
bash mj/mnw-merge.sbatch >mj.log 2>&1
rc=$?
check "merge job: a merged directory that is a symbolic link: refused, what it points to kept" \
    '[ $rc -eq 2 ] && grep -q "not a directory of its own" mj.log && [ -f elsewhere/keep ]' || sed 's/^/#   /' mj.log
rm mj/merged && sed -i "s|^shard 2 .*|shard 2 merged|" mj/mnw.shards
bash mj/mnw-merge.sbatch >mj.log 2>&1
rc=$?
check "merge job: a shard in the merged directory: refused" '[ $rc -eq 2 ] && grep -q "is the directory of merged too" mj.log' || sed 's/^/#   /' mj.log

refuse "--gpus-per-rank 0" "--gpus-per-rank '0' is not a positive number" --gpus-per-rank 0 -G 4 -i a.fa -o new
refuse "--shards with --array" "--shards and --array do not mix" --shards 2 --array -o base3 a.fa
refuse "--shards on 2 nodes" "--shards runs each shard on one node" --shards 2 -N 2 -i a.fa -o new
refuse "--shard among the mnw options" "'--shard=1/2': mnw-submit --shards gives each task" --shards 2 -i a.fa -o new -- --shard=1/2
refuse "--shards 0" "--shards '0' is not a positive number" --shards 0 -i a.fa -o new
refuse "--shards beyond 1000000" "--shards 1000001: at most 1000000" --shards 1000001 -i a.fa -o new
refuse "--script with --shards" "--script does not apply to --shards" --shards 2 -i a.fa -o new --script x.sbatch
refuse "--remove-shards alone" "--remove-shards goes with --shards" --remove-shards -i a.fa -o new
refuse "--shards into a non-empty OUTDIR" "full exists and is not empty: choose another" --shards 2 -i a.fa -o full
refuse "--resume with another N" "--shards 5: the run in $TMP/sh4 is split into 4 shards" --resume sh4 --shards 5
echo "job shards 99 1-4" >>sh12/mnw.shards
refuse "--shards over a submitted sharded run" "holds a run split into shards already: continue it with --resume" --shards 12 -i a.fa -o sh12
finish
