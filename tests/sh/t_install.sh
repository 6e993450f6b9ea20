#!/usr/bin/env bash
# t_install.sh - `make install` and `make uninstall` into a temporary PREFIX
# under a DESTDIR (issue 16): every file in its place with its mode and its
# bytes, nothing else; the installed mnw runs and gives the build's outputs;
# the installed mnw-submit finds the installed templates, mnw-job and mnw
# (--dry-run), and the script it writes runs them; the options of
# `mnw --help` and the OPTIONS of mnw(1) are the same set (both ways);
# `man -l` renders the page and groff finds nothing to warn about;
# uninstall removes what install put there and nothing else; an install
# into a DESTDIR that cannot be written fails.
#
# It installs the binary under test ($MNW: bin/mnw, or bin-SAN/mnw under
# tests/san/run.sh) and never rebuilds it: make gets that build's B, BIN and
# sanitizer switch, and -o BIN/mnw (treat the binary as up to date), so a
# source edited since the build does not relink it here.
. "$(dirname "$0")/../lib.sh"
cd "$TMP"

prefix=$TMP/prefix
stage=$TMP/stage
P=$stage$prefix
bvar=${MNW_BUILD:-build}
binvar=$(dirname "${MNW_BIN:-bin/mnw}")
margs=(B="$bvar" BIN="$binvar")
[ -n "${MNW_SAN:-}" ] && margs+=("$MNW_SAN=1")
# mk ARGS... : make in ROOT, as run by hand (no MAKEFLAGS or jobserver of a
# make that runs this test)
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -C "$ROOT" "${margs[@]}" -o "$binvar/mnw" "$@"; }

# --- install ---
mk install PREFIX="$prefix" DESTDIR="$stage" >install.out 2>&1
rc=$?
check "make install PREFIX=$prefix DESTDIR=stage: exit 0 (exit $rc)" '[ $rc -eq 0 ]'
[ $rc -eq 0 ] || sed 's/^/#   /' install.out | head -20

# what must be there: "INSTALLED-PATH MODE SOURCE"
{
    echo "bin/mnw 755 $MNW"
    echo "bin/mnw-submit 755 $ROOT/slurm/mnw-submit"
    echo "bin/mnw-job 755 $ROOT/slurm/mnw-job"
    echo "bin/mnw-merge-job 755 $ROOT/slurm/mnw-merge-job"
    for f in "$ROOT"/slurm/templates/*.sbatch; do echo "share/mnw/templates/$(basename "$f") 644 $f"; done
    echo "share/man/man1/mnw.1 644 $ROOT/docs/mnw.1"
    for f in "$ROOT/README.md" "$ROOT/LICENSE" "$ROOT"/docs/*.md "$ROOT/config/example.conf"; do
        echo "share/doc/mnw/$(basename "$f") 644 $f"
    done
} >expected.txt
bad_mode= bad_bytes= missing=
while read -r path mode src; do
    if [ ! -f "$P/$path" ]; then missing+=" $path"; continue; fi
    [ "$(stat -c %a "$P/$path")" = "$mode" ] || bad_mode+=" $path($(stat -c %a "$P/$path"), not $mode)"
    cmp -s "$src" "$P/$path" || bad_bytes+=" $path"
done <expected.txt
n_expected=$(wc -l <expected.txt)
check "all $n_expected files installed (missing:${missing:- none})" '[ -z "$missing" ]'
check "modes: 755 for the programs, 644 for the rest (wrong:${bad_mode:- none})" '[ -z "$bad_mode" ]'
check "each installed file is its source's bytes, mnw the binary under test (differ:${bad_bytes:- none})" '[ -z "$bad_bytes" ]'
(cd "$P" 2>/dev/null && find . -type f -o -type l | sed 's|^\./||' | sort) >found.txt
cut -d' ' -f1 expected.txt | sort >want.txt
extra=$(comm -13 want.txt found.txt | tr '\n' ' ')
check "nothing else installed (extra: ${extra:-none})" '[ -z "$extra" ]'
check "nothing installed outside DESTDIR (PREFIX itself not created)" '[ ! -e "$prefix" ]'

# --- the installed mnw ---
M=$P/bin/mnw
"$M" --version >version.out 2>&1
rc=$?
want_version=$(sed -n 's/^#define MNW_VERSION "\(.*\)"/\1/p' "$ROOT/src/opts.h")
check "installed mnw --version: exit 0, 'mnw $want_version', as the build's" \
    '[ $rc -eq 0 ] && [ "$(head -1 version.out)" = "mnw $want_version" ] && cmp -s version.out <("$MNW" --version 2>&1)'
awk '/^>/{n++} n>20{exit} {print}' "$TDATA/16s-200.fa" >s20.fa
run=(-i s20.fa --gpus none -t 1 -q --phylip)
"$MNW" "${run[@]}" -o ref >ref.out 2>&1
rc=$?
check "the build's mnw ($MNW) on 20 sequences of 16s-200: exit 0 (exit $rc)" '[ $rc -eq 0 ] && [ -s ref/pairs.tsv.gz ]'
"$M" "${run[@]}" -o inst >inst.out 2>&1
rc=$?
check "installed mnw on the same 20 sequences: exit 0, nothing printed (-q) (exit $rc)" '[ $rc -eq 0 ] && [ ! -s inst.out ]'
check "installed mnw: outputs byte-identical to the build's" 'same_bytes ref inst'
check "installed mnw: 190 pairs" '[ "$(zcat inst/pairs.tsv.gz | wc -l)" -eq 191 ]'

# --- the installed mnw-submit: finds the installed templates, mnw-job and mnw ---
marker="# t_install: the installed copy of one-node.sbatch"
[ -f "$P/share/mnw/templates/one-node.sbatch" ] && echo "$marker" >>"$P/share/mnw/templates/one-node.sbatch"
"$P/bin/mnw-submit" --dry-run -i s20.fa -o "$TMP/viajob" -- "${run[@]:2}" >submit.out 2>&1
rc=$?
check "installed mnw-submit --dry-run: exit 0, script written (exit $rc)" '[ $rc -eq 0 ] && [ -f viajob.sbatch ] && bash -n viajob.sbatch'
[ $rc -eq 0 ] || sed 's/^/#   /' submit.out | head -10
check "its template is the installed one (PREFIX/share/mnw/templates)" 'grep -qxF "$marker" viajob.sbatch'
check "its script runs the installed mnw-job with the installed mnw" \
    'grep -q "^exec $P/bin/mnw-job --mnw $P/bin/mnw --outdir $TMP/viajob --input $TMP/s20.fa --launcher none " viajob.sbatch'
# the script itself, outside Slurm (its #SBATCH lines are comments): the
# installed mnw-job runs the installed mnw
env -u SLURM_JOB_ID -u SLURM_RESTART_COUNT -u SLURM_ARRAY_JOB_ID bash viajob.sbatch >job.out 2>&1
rc=$?
check "the script runs: installed mnw-job starts the installed mnw, exit 0 (exit $rc)" \
    '[ $rc -eq 0 ] && grep -qF "$P/bin/mnw -i $TMP/s20.fa -o $TMP/viajob" job.out'
[ $rc -eq 0 ] || sed 's/^/#   /' job.out | head -10
check "... and its outputs are byte-identical to the build's" 'same_bytes ref viajob'
"$P/bin/mnw-submit" --dry-run --shards 2 -i s20.fa -o "$TMP/viashards" >submit2.out 2>&1
check "installed mnw-submit --shards: the merge script runs the installed mnw-merge-job" \
    'grep -q "^exec $P/bin/mnw-merge-job --mnw $P/bin/mnw --parent $TMP/viashards$" viashards/mnw-merge.sbatch' ||
    sed 's/^/#   /' submit2.out | head -10

# --- mnw(1) against mnw --help, both ways ---
MAN=$P/share/man/man1/mnw.1
# options of --help: the left column ("  -i, --input FILE", "      --bind yes|no")
"$M" --help 2>&1 | grep -oE '^ +(-[A-Za-z], )?--[a-z0-9][a-z0-9-]*' | grep -oE -- '--?[A-Za-z0-9][a-z0-9-]*' | sort -u >help_opts.txt
# options of mnw(1): the tag line of each .TP (or .TQ) in OPTIONS, but for
# its "status" subsection (the options of mnw status); roff escapes undone
awk '
    /^\.SH/ { opt = ($0 ~ /^\.SH +"?OPTIONS"?[ \t]*$/); skip = 0; next }
    !opt { next }
    /^\.SS/ { skip = (tolower($0) ~ /status/); next }
    skip || /^\.\\"/ { next }
    /^\.(TP|TQ)/ { tag = 1; next }
    tag { tag = 0; print }' "$MAN" 2>/dev/null |
    sed -e 's/\\-/-/g' -e 's/\\f[BIRPC]//g' -e 's/\\f([A-Z][A-Z]//g' -e 's/\\f\[[^]]*\]//g' -e 's/\\[&%:]//g' \
        -e 's/^\.[A-Z][A-Z]* //' -e 's/"//g' |
    grep -oE -- '(^|[ ,|[])--?[A-Za-z0-9][a-z0-9-]*' | grep -oE -- '--?[A-Za-z0-9][a-z0-9-]*' | sort -u >man_opts.txt
n_help=$(wc -l <help_opts.txt)
n_man=$(wc -l <man_opts.txt)
check "options read: $n_help from mnw --help, $n_man from mnw(1) OPTIONS (30 or more each)" '[ $n_help -ge 30 ] && [ $n_man -ge 30 ]'
not_in_man=$(comm -23 help_opts.txt man_opts.txt | tr '\n' ' ')
not_in_help=$(comm -13 help_opts.txt man_opts.txt | tr '\n' ' ')
check "every option of mnw --help has an entry in mnw(1) OPTIONS (missing: ${not_in_man:-none})" '[ -z "$not_in_man" ]'
check "every option in mnw(1) OPTIONS is one of mnw --help (unknown to mnw: ${not_in_help:-none})" '[ -z "$not_in_help" ]'
no_sh=
for s in NAME SYNOPSIS DESCRIPTION OPTIONS OUTPUTS "EXIT STATUS" FILES SIGNALS ENVIRONMENT "CONFIGURATION FILE" EXAMPLES \
    "SEE ALSO" LICENSE; do
    grep -Eq "^\.SH +\"?$s\"?$" "$MAN" 2>/dev/null || no_sh+=" '$s'"
done
check "mnw(1) has its sections (missing:${no_sh:- none})" '[ -z "$no_sh" ]'
check "mnw(1)'s .TH names the version of mnw --version ($want_version)" 'grep -q "^\.TH MNW 1 .*\"mnw $want_version\"" "$MAN"'

# --- the page renders ---
if command -v man >/dev/null; then
    MANWIDTH=80 man -l "$MAN" >man.out 2>man.err
    rc=$?
    check "man -l renders the installed mnw(1): exit 0, its NAME line (exit $rc)" \
        '[ $rc -eq 0 ] && grep -q "^NAME" man.out && grep -Eq "^ +mnw [-‐−] all.against.all Needleman.Wunsch" man.out && grep -q "^MNW(1)" man.out'
    [ $rc -eq 0 ] || sed 's/^/#   /' man.err | head -5
else
    check "man -l renders mnw(1): man not found (install man-db: bash scripts/deps.sh test)" false
fi
if command -v groff >/dev/null; then
    groff -man -Tutf8 -ww -z "$MAN" >groff.out 2>&1
    rc=$?
    check "groff -man -Tutf8 -ww -z: no warning, exit 0 (exit $rc)" '[ $rc -eq 0 ] && [ ! -s groff.out ]'
    sed 's/^/#   /' groff.out | head -10
else
    check "groff -ww on mnw(1): groff not found (it comes with man-db's groff-base: bash scripts/deps.sh test)" false
fi

# --- uninstall: what install put there goes, nothing else ---
echo keep >"$P/bin/not-mnw"
echo keep >"$P/share/mnw/not-mnw"
mk uninstall PREFIX="$prefix" DESTDIR="$stage" >uninstall.out 2>&1
rc=$?
check "make uninstall: exit 0 (exit $rc)" '[ $rc -eq 0 ]'
[ $rc -eq 0 ] || sed 's/^/#   /' uninstall.out | head -10
left=$(cd "$stage" && find . \( -type f -o -type l \) ! -name not-mnw | tr '\n' ' ')
check "make uninstall: no installed file left (left: ${left:-none})" '[ -z "$left" ]'
check "make uninstall: other files in PREFIX stay" '[ -f "$P/bin/not-mnw" ] && [ -f "$P/share/mnw/not-mnw" ]'
rm -f "$P/bin/not-mnw" "$P/share/mnw/not-mnw"
mk uninstall PREFIX="$prefix" DESTDIR="$stage" >uninstall2.out 2>&1
rc=$?
check "make uninstall again (nothing installed): exit 0 (exit $rc)" '[ $rc -eq 0 ]'

# --- refused: a DESTDIR that cannot be written ---
echo "a file" >destfile
mk install PREFIX="$prefix" DESTDIR="$TMP/destfile" >refused.out 2>&1
rc=$?
check "make install with DESTDIR a regular file: exit non-zero, says why, the file unchanged (exit $rc)" \
    '[ $rc -ne 0 ] && grep -q "Not a directory" refused.out && [ "$(cat destfile)" = "a file" ]'
mkdir ro
if [ "$(id -u)" -ne 0 ]; then
    chmod 555 ro
    mk install PREFIX="$prefix" DESTDIR="$TMP/ro" >refused2.out 2>&1
    rc=$?
    check "make install into a read-only DESTDIR: exit non-zero, Permission denied, nothing written (exit $rc)" \
        '[ $rc -ne 0 ] && grep -q "Permission denied" refused2.out && [ -z "$(ls -A ro)" ]'
    chmod 755 ro
elif setpriv --reuid=65534 --regid=65534 --clear-groups test -r "$ROOT/Makefile" -a -x "$ROOT" 2>/dev/null; then
    # root writes anywhere: make install as nobody, into a directory of root's
    chmod 755 "$TMP"
    setpriv --reuid=65534 --regid=65534 --clear-groups env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
        make -s --no-print-directory -C "$ROOT" "${margs[@]}" -o "$binvar/mnw" install PREFIX="$prefix" \
        DESTDIR="$TMP/ro" >refused2.out 2>&1
    rc=$?
    check "make install as nobody into root's DESTDIR: exit non-zero, Permission denied, nothing written (exit $rc)" \
        '[ $rc -ne 0 ] && grep -q "Permission denied" refused2.out && [ -z "$(ls -A ro)" ]'
else
    echo "ok - make install into an unwritable DESTDIR # skip nobody cannot read $ROOT (the regular-file case above ran)"
fi
finish
