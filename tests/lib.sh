# tests/lib.sh - sourced by tests/sh/t_*.sh. Each check prints one line,
# "ok - DESC" or "not ok - DESC"; tests/run.sh counts them.
# Variables: ROOT (repository), MNW (the binary), BUILD (the build directory
# of the test tools: build/tools/check_output, build/tests/test_*), DATA
# (../shared/data/16s or tests/data), TMP (a fresh scratch directory for
# this script). MNW_BIN=bin-asan/mnw MNW_BUILD=build-asan run the shell tests
# on a sanitizer build (relative paths: from the repository root).
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MNW="${MNW_BIN:-bin/mnw}"
BUILD="${MNW_BUILD:-build}"
case $MNW in /*) ;; *) MNW="$ROOT/$MNW" ;; esac
case $BUILD in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
TDATA="$ROOT/tests/data"
SHARED16S="$ROOT/../shared/data/16s"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mnw-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
T_FAILED=0

ok() { # ok DESC CMD...   : passes when CMD exits 0
    local desc=$1; shift
    if "$@" >"$TMP/.ok.out" 2>&1; then
        echo "ok - $desc"
    else
        echo "not ok - $desc"
        sed 's/^/#   /' "$TMP/.ok.out" | head -20
        T_FAILED=1
    fi
}

check() { # check DESC CONDITION-STRING : evaluated with [[ ]] semantics via eval;
    # returns 1 when it failed, so that `check ... || show-why` prints the why
    local desc=$1; shift
    if eval "$@"; then echo "ok - $desc"; else echo "not ok - $desc"; T_FAILED=1; return 1; fi
}

finish() { exit "$T_FAILED"; }

# Open MPI on one machine: real ranks, oversubscribed (more ranks than
# cores), no binding (mnw binds its own threads), root allowed (CI runs as
# root), no CMA single-copy (refused in containers without ptrace).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1
MPIRUN=(mpirun --oversubscribe --bind-to none)
# Under a sanitizer (tests/san/run.sh sets MNW_SAN) hwloc names no PCI
# devices in these tests' processes. Debian 12's Open MPI (4.1) has every
# rank discover its own hwloc topology with its I/O devices, and hwloc's pci
# plugin names them through libpciaccess, which reads pci.ids and grows a
# vendor's table one realloc at a time (about 10,000 for Intel's, which a
# host bridge asks for): a few ms in a normal build, about a second per
# process under ASan or TSan, whose allocators move every grown block, on any
# machine with pci.ids (CI gets it with CUDA). Nothing reads Open MPI's
# names; mnw asks for none itself (nld/topo.c). HWLOC_COMPONENTS also makes
# hwloc ignore HWLOC_XMLFILE and HWLOC_SYNTHETIC: t_topo.sh drops it for
# test_topo, which uses them.
[ -n "${MNW_SAN:-}" ] && export HWLOC_COMPONENTS=-pci:annotate
# mpmd ARGS... : "${MPIRUN[@]}" ARGS for an MPMD command line (A : B ...).
# Debian 13's Open MPI 5.0.7 / PMIx 5.0.7 mpirun dies of SIGSEGV in
# PMIx_Setenv (the ompi pmdl component's setup_fork) on every MPMD command
# line (open-mpi/ompi#13303); without that component they run. The first
# call tries a two-program mpirun once and remembers whether it needs that.
mpmd() {
    if [ -z "${MPMD_ENV+set}" ]; then
        MPMD_ENV=()
        "${MPIRUN[@]}" -np 1 true : -np 1 true >/dev/null 2>&1 || MPMD_ENV=(env PMIX_MCA_pmdl=^ompi)
    fi
    "${MPMD_ENV[@]}" "${MPIRUN[@]}" "$@"
}

# same_bytes A B : the output files of two OUTDIRs are identical as bytes (the
# gzip files themselves: one gzip member per work list, so compare runs of
# one work-list size); alignments.paf.gz too where either has it
same_bytes() { cmp -s "$1/pairs.tsv.gz" "$2/pairs.tsv.gz" && cmp -s "$1/dist.column.gz" "$2/dist.column.gz" &&
               cmp -s "$1/dist.phylip" "$2/dist.phylip" &&
               { [ ! -e "$1/alignments.paf.gz" ] && [ ! -e "$2/alignments.paf.gz" ] ||
                 cmp -s "$1/alignments.paf.gz" "$2/alignments.paf.gz"; }; }

# every output, pairs.tsv with its CIGARs: what the GPU tests compare
ALL_OUTPUTS=(--cigar --outputs pairs,dist,phylip,paf)

# cpu_ref DIR FASTA WL [SCORING...] : the CPU-only run (ALL_OUTPUTS, work
# lists of WL pairs) the GPU tests compare with, made once into DIR
cpu_ref() {
    local dir=$1 fa=$2 wl=$3; shift 3
    [ -d "$dir" ] || "$MNW" -q -i "$fa" -o "$dir" "${ALL_OUTPUTS[@]}" --gpus none --worklist-size "$wl" "$@"
}

# same_outputs A B : the decompressed outputs of two OUTDIRs are identical
same_outputs() {
    cmp -s <(zcat "$1/pairs.tsv.gz") <(zcat "$2/pairs.tsv.gz") &&
        cmp -s <(zcat "$1/dist.column.gz") <(zcat "$2/dist.column.gz") &&
        { [ ! -e "$1/dist.phylip" ] || cmp -s "$1/dist.phylip" "$2/dist.phylip"; }
}

# refuse_run FASTA DESC PATTERN ARGS... : mnw -i FASTA -o bad ARGS is
# refused (non-zero), its stderr names PATTERN, and the OUTDIR is not made
refuse_run() {
    local fa=$1 desc=$2 pat=$3
    shift 3
    rm -rf bad
    "$MNW" -q -i "$fa" -o bad "$@" 2>err.txt
    local rc=$?
    check "$desc: refused (rc $rc), naming both, OUTDIR not created" '[ $rc -ne 0 ] && grep -q -- "$pat" err.txt && [ ! -e bad ]'
}

# term_mid_run OUTDIR ARGS... : mnw -o OUTDIR ARGS in the background (its
# stderr to OUTDIR.err), SIGTERM 0.3 s after its first bookmark; its exit
# status in $rc (3: stopped, resumable)
term_mid_run() {
    local dir=$1 job k
    shift
    "$MNW" -o "$dir" "$@" 2>"$dir.err" &
    job=$!
    for ((k = 0; k < 3000; k++)); do [ -s "$dir/mnw.bookmark" ] && break; sleep 0.01; done
    sleep 0.3
    kill -TERM $job
    wait $job
    rc=$?
}

# mnw_pids OUTDIR : pids of every process of the job writing OUTDIR (mpirun
# included: its command line names mnw and OUTDIR), started with -o OUTDIR or
# --resume OUTDIR. Reads /proc with builtins only: no procps (minimal
# containers lack pgrep), and no fork per process (slow on a busy machine).
mnw_pids() {
    local f a cmd
    for f in /proc/[0-9]*/cmdline; do
        mapfile -d '' -t a 2>/dev/null <"$f" || continue
        cmd="${a[*]} "
        case "$cmd" in *mnw\ *"-o $1 "* | *mnw\ *"--resume $1 "*) f=${f#/proc/}; echo "${f%/cmdline}" ;; esac
    done
}

# rank_pid OUTDIR RANK : pid of the mnw process of that rank writing OUTDIR
# (its environment names the rank)
rank_pid() {
    local p e
    for p in $(mnw_pids "$1"); do
        mapfile -d '' -t e 2>/dev/null <"/proc/$p/environ" || continue
        case " ${e[*]} " in *" OMPI_COMM_WORLD_RANK=$2 "*) echo "$p"; return 0 ;; esac
    done
    return 1
}

# gold80 OUT : 80 genes of the RDP gold sample, 40 with IUPAC codes and 40
# without (the real-data set of the scoring-mode checks)
gold80() {
    zcat "$TDATA/gold-sample.fa.gz" | awk '
        function flush() { if (h == "") return; if (toupper(s) ~ /[RYSWKMBDHVN]/) { if (a < 40) { printf "%s\n%s", h, s; a++ } }
                           else if (b < 40) { printf "%s\n%s", h, s; b++ } }
        /^>/ { flush(); h = $0; s = ""; next } { s = s $0 "\n" } END { flush() }' > "$1"
}
