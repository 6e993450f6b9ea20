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
refuse "white space in OUTDIR" "a path with white space" -i a.fa -o "new dir"
refuse "no mnw" "--mnw '/nonexistent' is not an executable" -i a.fa -o new --mnw /nonexistent

# --resume of a run with a bookmark (any run has one: 20 genes will do)
awk '/^>/{n++} n>20{exit} {print}' a.fa >a20.fa
"$MNW" -q -i a20.fa -o done1 -t 1 --gpus none
sub res --dry-run --resume done1 -c 2
check "--resume OUTDIR: the script runs mnw-job on it (it resumes from the bookmark)" \
    '[ $rc -eq 0 ] && grep -q -- "--outdir $TMP/done1 " done1.sbatch'
finish
