# tests/lib.sh - sourced by tests/sh/t_*.sh. Each check prints one line,
# "ok - DESC" or "not ok - DESC"; tests/run.sh counts them.
# Variables: ROOT (repository), MNW (the binary), DATA (../shared/data/16s or
# tests/data), TMP (a fresh scratch directory for this script).
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MNW="${MNW_BIN:-$ROOT/bin/mnw}"   # MNW_BIN=bin-asan/mnw runs the shell tests on a sanitizer build
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

check() { # check DESC CONDITION-STRING : evaluated with [[ ]] semantics via eval
    local desc=$1; shift
    if eval "$@"; then echo "ok - $desc"; else echo "not ok - $desc"; T_FAILED=1; fi
}

finish() { exit "$T_FAILED"; }
