#!/usr/bin/env bash
# t_shellcheck.sh - ShellCheck (Debian's shellcheck, every check at its
# default severity, style included) on every shell script `make install`
# installs: slurm/mnw-submit, mnw-job, mnw-merge-job, and the batch scripts
# the templates render to (mnw-submit --dry-run of each template: one node,
# several nodes with srun and with mpirun, a heterogeneous job, an array,
# the shards and their merge, with modules, sbatch lines and mnw options
# that need quoting); and the project's own scripts/*.sh. shellcheck is
# required (scripts/deps.sh test installs it): missing, it is a failure.
. "$(dirname "$0")/../lib.sh"
cd "$TMP" || exit 1
if ! command -v shellcheck >/dev/null 2>&1; then
    echo "not ok - shellcheck is not installed (Debian package shellcheck: bash scripts/deps.sh test; CI must install it)"
    finish
fi
echo "# $(shellcheck --version | sed -n 's/^version: /shellcheck /p')"
SUB=$ROOT/slurm/mnw-submit
awk '/^>/{n++} n>3{exit} {print}' "$TDATA/16s-200.fa" >a.fa
common=(--mnw "$MNW" --dry-run --module openmpi/4.1 --module 'R&D/x' --sbatch=--account=bio -t 1:00:00)
opts=(-- --label $'a b\n$(x)`y`;z' --iddef 2 '')
render() { # render NAME ARGS...: mnw-submit --dry-run, exit 0
    "$SUB" "${common[@]}" "${@:2}" "${opts[@]}" >"$1.out" 2>&1 || { sed 's/^/#   /' "$1.out"; return 1; }
}
ok "render one-node.sbatch" render one -i a.fa -o one -c 2
ok "render multi-node.sbatch (srun)" render multi -i a.fa -o multi -N 2 -G 1
ok "render multi-node.sbatch (mpirun)" render multi2 -i a.fa -o multi2 -N 2 --launcher mpirun
ok "render hetjob.sbatch" render het -i a.fa -o het --cpu-partition cpu --gpu-partition gpu
ok "render array.sbatch" render arr --array -o arr a.fa
ok "render shards.sbatch and merge.sbatch" render sh --shards 3 -i a.fa -o sh --array-throttle 2
scripts=("$ROOT"/slurm/mnw-submit "$ROOT"/slurm/mnw-job "$ROOT"/slurm/mnw-merge-job
    one.sbatch multi.sbatch multi2.sbatch het.sbatch arr/mnw-array.sbatch sh/mnw-shards.sbatch sh/mnw-merge.sbatch
    "$ROOT"/scripts/*.sh)
for f in "${scripts[@]}"; do
    ok "shellcheck ${f#"$ROOT"/}" shellcheck "$f"
done
finish
