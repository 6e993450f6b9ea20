#!/usr/bin/env bash
# t_readsafe.sh - the commands that only look at a run (mnw status, mnw
# status --json, mnw report, mnw verify) never hang on and never misread
# what stands in a file's place (lib/runfile.c, docs/STATUS.md): each file
# they read in OUTDIR (progress.json, progress.log, mnw.bookmark,
# pairs.tsv.gz, mnw.log) and in the parent of a sharded run (mnw.shards, a
# shard's directory, its bookmark and progress.json, the merged directory)
# replaced by a FIFO with no writer, a symbolic link loop, a directory (or a
# file for a directory) and a dangling link: each command ends within 10 s,
# names the path, and exits 1 (mnw report leaves out a progress.json it
# cannot read, with a note naming it). A link to a regular file is read.
# mnw report -o refuses every file of the run (by name in OUTDIR, through a
# link to OUTDIR, a second name of a file, the input): exit 2, the file
# unchanged, nothing written; a page named *.html in OUTDIR or elsewhere is
# fine. The report of one shard says so. Ids, OUTDIR and input paths with
# bytes that are not UTF-8 give a page that is valid UTF-8.
# check's conditions are single-quoted on purpose (check evaluates them):
# shellcheck disable=SC2016
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
cd "$TMP" || exit 1
opts=(-q --bind no --gpus none -t 2 --worklist-size 100)
awk '/^>/{n++} n>40{exit} {print}' "$TDATA/16s-200.fa" >s40.fa
"$MNW" "${opts[@]}" -i s40.fa -o run >/dev/null 2>&1
check "a run of the first 40 genes of 16s-200 (780 pairs)" '[ -s run/pairs.tsv.gz ] && [ -s run/progress.log ]'

# plant KIND PATH : puts a FIFO, a loop, a directory (a file where a
# directory was) or a dangling link at PATH
plant() {
    local was_dir=0
    [ -d "$2" ] && [ ! -L "$2" ] && was_dir=1
    rm -rf "$2"
    case $1 in
    fifo) mkfifo "$2" ;;
    loop) ln -s "$(basename "$2")" "$2" ;;
    other) if [ $was_dir = 1 ]; then echo x >"$2"; else mkdir "$2"; fi ;;
    dangling) ln -s nowhere "$2" ;;
    esac
}
# try DESC WANT_RC PATTERN CMD... : CMD ends within 10 s with exit status
# WANT_RC and PATTERN (grep -F) in what it printed
try() {
    # shellcheck disable=SC2034 # want and pat: read by check's condition
    local desc=$1 want=$2 pat=$3 rc
    shift 3
    timeout 10 "$@" </dev/null >out.txt 2>&1
    rc=$?
    check "$desc: exit $want in time (got $rc), names it" '[ $rc -eq "$want" ] && grep -qF -- "$pat" out.txt' ||
        sed 's/^/#   /' out.txt | head -5
}

for kind in fifo loop other dangling; do
    for f in progress.json mnw.bookmark progress.log pairs.tsv.gz mnw.log; do
        rm -rf d && cp -r run d && rm -f d/report.html
        plant $kind d/$f
        case $f in
        progress.json)
            try "status, $f as $kind" 1 "d/$f" "$MNW" status d
            try "status --json, $f as $kind" 1 "d/$f" "$MNW" status --json d
            try "report, $f as $kind (left out, with a note)" 0 "note: d/$f" "$MNW" report d ;;
        mnw.bookmark)
            try "status, $f as $kind" 1 "d/$f" "$MNW" status d
            try "report, $f as $kind" 1 "d/$f" "$MNW" report d
            try "verify, $f as $kind" 1 "d/$f" "$MNW" verify d ;;
        pairs.tsv.gz)
            try "report, $f as $kind" 1 "d/$f" "$MNW" report d
            try "verify, $f as $kind" 1 "d/$f" "$MNW" verify d ;;
        *)
            try "report, $f as $kind" 1 "d/$f" "$MNW" report d ;;
        esac
        if [ $f != progress.json ]; then
            check "no report.html, no report.html.tmp left" '[ ! -e d/report.html ] && [ ! -e d/report.html.tmp ]'
        fi
    done
done
rm -rf d && cp -r run d && rm -f d/report.html
plant loop d/progress.json
"$MNW" status d >out.txt 2>&1
check "a loop is called a loop, not 'no progress.json'" \
    'grep -q "d/progress.json: a symbolic link loop" out.txt && ! grep -q "not recorded (no progress.json" out.txt'
plant dangling d/progress.json
"$MNW" status d >out.txt 2>&1
check "a dangling link is called one" 'grep -q "d/progress.json: a dangling symbolic link" out.txt'

# a link to a regular file is read
rm -rf d && cp -r run d && rm -f d/report.html
mv d/progress.json pj.json && ln -s "$TMP/pj.json" d/progress.json
mv d/progress.log pl.log && ln -s ../pl.log d/progress.log
ok "status reads progress.json through a link to a regular file" "$MNW" status d
ok "report reads progress.json and progress.log through links" "$MNW" report d
check "the page has the history read through the link" 'grep -q "progress.log (1 snapshot\|progress.log ([0-9]* snapshots" d/report.html'

# the parent of a sharded run: mnw.shards, a shard's dir and files, the merged dir
mkdir P P/m
"$MNW" "${opts[@]}" --shard 1/2 -i s40.fa -o P/s1 >/dev/null 2>&1
printf 'mnw-shards 1\ninput %s\nshards 2\nshard 1 s1\nshard 2 s2\nmerged m\n' "$TMP/s40.fa" >P/mnw.shards
ok "status of the parent of a sharded run" "$MNW" status P
for kind in fifo loop other dangling; do
    for f in mnw.shards s1 s1/mnw.bookmark s1/progress.json m; do
        rm -rf Q && cp -r P Q
        plant $kind Q/$f
        try "status of a parent, $f as $kind" 1 "Q/$f" "$MNW" status Q
        try "status --json of a parent, $f as $kind" 1 "Q/$f" "$MNW" status --json Q
    done
done

# report of one shard
ok "report of shard 1/2" "$MNW" report P/s1
check "its page says it is shard 1 of 2, which pairs, that its figures are its own" \
    'grep -q "data-k=\"shard\">This run is shard 1 of 2 (mnw --shard 1/2): the pairs k = 0 to 399, 400 of the whole run.s 780" P/s1/report.html &&
     grep -q "come from this shard.s pairs only" P/s1/report.html && grep -q "<title>mnw report: P/s1 (shard 1/2)" P/s1/report.html'
check "its 'complete' is the shard's, its neighbours this shard's" \
    'grep -q "this shard complete (not the whole run)" P/s1/report.html && grep -q "nearest neighbour in this shard" P/s1/report.html &&
     ! grep -q ", complete<" P/s1/report.html'

# report -o: never over a file of the run
"$MNW" report run >/dev/null 2>&1
mkdir elsewhere && ln -s ../run elsewhere/alias && ln run/pairs.tsv.gz hard.gz && ln -s run/mnw.bookmark bm.link
ln run/mnw.bookmark run/second.html
sums() { md5sum run/* s40.fa 2>/dev/null; }
sums >before.md5
for o in run/pairs.tsv.gz run/mnw.bookmark run/progress.json run/progress.log run/mnw.log run/mnw.lock \
    run/dist.column.gz run/new-name ./run/../run/pairs.tsv.gz elsewhere/alias/progress.json hard.gz bm.link \
    s40.fa "$TMP/s40.fa" run/second.html run; do
    "$MNW" report run -o "$o" >out.txt 2>&1
    rc=$?
    check "report -o $o: exit 2, names it, nothing written" \
        '[ $rc -eq 2 ] && grep -qF -- "-o $o:" out.txt && [ ! -e "$o.tmp" ] && [ ! -e run/new-name ] && sums | cmp -s - before.md5' ||
        sed 's/^/#   /' out.txt
done
rm run/second.html
ok "report -o run/stopped.html (a page in OUTDIR)" "$MNW" report run -o run/stopped.html
ok "report -o elsewhere/alias/other.html (through a link to OUTDIR)" "$MNW" report run -o elsewhere/alias/other.html
ok "report -o page.html (elsewhere)" "$MNW" report run -o page.html
check "the pages are there, the run's files unchanged" \
    '[ -s run/stopped.html ] && [ -s run/other.html ] && [ -s page.html ] && sums | grep -v "\.html$" | cmp -s - <(grep -v "\.html$" before.md5)'

# ids, OUTDIR and input with bytes that are not UTF-8: the page is UTF-8
python3 - "$TDATA/16s-200.fa" <<'EOF'
import sys
seqs = []
for l in open(sys.argv[1]):
    if l.startswith('>'):
        if len(seqs) == 7: break
        seqs.append('')
    else:
        seqs[-1] += l.strip()
ids = [b'x80\x80a', b'xff\xffb', b'overlong\xc0\xaf\xe0\x80\xafc', b'cont\xbf\x80d', b'cut3\xe2\x82', b'cut4\xf0\x9f\x98e',
       b'ok\xc3\xa9\xe2\x82\xac<&>']
with open(b'u\xfe.fa', 'wb') as f:
    for i, s in zip(ids, seqs):
        f.write(b'>' + i + b'\n' + s.encode() + b'\n')
EOF
"$MNW" "${opts[@]}" -i $'u\xfe.fa' -o $'u\xffrun' >/dev/null 2>&1
ok "report of a run whose ids, input and OUTDIR hold bytes that are not UTF-8" "$MNW" report $'u\xffrun'
ok "the page is valid UTF-8 (Python, strict), with U+FFFD for the bad bytes and the good ones kept" \
    python3 -c "
import sys
t = open(sys.argv[1], 'rb').read().decode('utf-8')
assert t.count('\ufffd') >= 12 and 'ok\u00e9\u20ac&lt;&amp;&gt;' in t and 'cut3\ufffd' in t and 'x80\ufffda' in t, t.count('\ufffd')
" $'u\xffrun/report.html'
finish
