#!/usr/bin/env bash
# t_report.sh - `mnw report` (src/report.c, docs/STATUS.md): the bundled
# 500-gene sample run, stopped by SIGTERM and resumed, then reported (and
# reported while stopped: the figures "so far"). The
# page loads in a real headless Chromium (Debian's chromium) with no
# console error and no network request, its screenshot is a real image; the
# numbers in it equal those an independent script (tests/tools/
# report_check.py, Python's gzip) computes from pairs.tsv.gz; the resume is
# marked; so is that of a run killed by SIGKILL and resumed. A directory
# that is not a run, a cut or changed pairs.tsv.gz, a cut bookmark and bad
# options: exit status, message naming the file, no report left. A run with
# --outputs dist gets the run's part of the page and a note.
# MNW_REPORT_SHOT=FILE keeps the screenshot (the README's).
source "$(dirname "$0")/../lib.sh"
cd "$TMP"
opts=(-q --bind no --gpus none -t 2 --worklist-size 500)

# the bundled sample, stopped once and resumed (a run with a history)
"$MNW" "${opts[@]}" -i "$ROOT/data/16s-500.fa.gz" -o run &
pid=$!
for ((k = 0; k < 300; k++)); do [ -s run/mnw.bookmark ] && break; sleep 0.1; done
sleep 1
kill -TERM $pid
wait $pid
rc=$?
check "the sample run stopped by SIGTERM (exit 3)" '[ $rc -eq 3 ]'
ok "mnw report on the stopped run (its pairs so far)" "$MNW" report run -o stopped.html
check "the stopped run's page says the figures are those so far" \
    'grep -q "in progress or stopped" stopped.html && grep -q "nearest neighbour so far" stopped.html'
ok "its numbers equal those recomputed from the pairs written so far" \
    python3 "$ROOT/tests/tools/report_check.py" run stopped.html
"$MNW" "${opts[@]}" --resume run >resume.log 2>&1
rc=$?
check "and resumed to the end" '[ $rc -eq 0 ]'

ok "mnw report writes run/report.html" "$MNW" report run
check "the report is one self-contained page: no script, no link to fetch, a CSP that forbids fetching" \
    'grep -q "default-src .none." run/report.html && ! grep -qiE "<script|<link|<img|src=|href=|@import|url\(" run/report.html'
check "the resume is marked on the throughput chart" 'grep -q ">resume</text>" run/report.html'
check "the 18S gene of the sample is an outlier (gb|AF346542|)" 'grep -q "gb|AF346542|" run/report.html'
ok "the numbers in the page equal those recomputed from pairs.tsv.gz" python3 "$ROOT/tests/tools/report_check.py" run run/report.html

# a real browser
if command -v chromium >/dev/null; then
    shot=$TMP/report.png
    timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1000,3000 \
        --enable-logging=stderr --v=0 --log-net-log="$TMP/net.json" --screenshot="$shot" \
        "file://$TMP/run/report.html" >chromium.log 2>&1
    check "Chromium loaded the page and took a screenshot" '[ -s "$shot" ]'
    check "the screenshot is a 1000 x 3000 PNG of more than 100 kB (charts drawn)" \
        'python3 -c "import struct,sys; d=open(sys.argv[1],\"rb\").read(); w,h=struct.unpack(\">II\",d[16:24]); sys.exit(0 if d[:8]==b\"\\x89PNG\\r\\n\\x1a\\n\" and (w,h)==(1000,3000) and len(d)>100000 else 1)" "$shot"'
    check "no console message from the page" '! grep -qE "CONSOLE|Uncaught|Refused to" chromium.log'
    ok "no network request from the page (Chromium's net log: no request with the page as initiator)" \
        python3 "$ROOT/tests/tools/netlog_check.py" "$TMP/net.json"
    [ -n "${MNW_REPORT_SHOT:-}" ] && cp "$shot" "$MNW_REPORT_SHOT"
else
    echo "not ok - chromium is not installed (scripts/deps.sh test installs it)"
    T_FAILED=1
fi

# refusals: nothing left behind
mkdir notarun
"$MNW" report notarun >err1.txt 2>&1
rc=$?
check "a directory that is not a run: exit 1, says so, no report" \
    '[ $rc -eq 1 ] && grep -q "notarun: not an mnw run" err1.txt && [ ! -e notarun/report.html ]'
cp -r run cut && rm -f cut/report.html
size=$(stat -c %s cut/pairs.tsv.gz)
head -c $((size - 100)) run/pairs.tsv.gz >cut/pairs.tsv.gz
"$MNW" report cut >err2.txt 2>&1
rc=$?
check "a pairs.tsv.gz cut short: exit 1, names the file, no report" \
    '[ $rc -eq 1 ] && grep -q "cut/pairs.tsv.gz" err2.txt && [ ! -e cut/report.html ] && [ ! -e cut/report.html.tmp ]'
"$MNW" report run --outlier 2 >err3.txt 2>&1
rc=$?
check "--outlier outside (0, 1]: exit 2" '[ $rc -eq 2 ] && grep -q "outlier" err3.txt'
"$MNW" report run --threads 0 >err4.txt 2>&1
rc=$?
check "--threads 0: exit 2" '[ $rc -eq 2 ] && grep -q "threads takes a number from 1 to 256" err4.txt'

# a run killed with SIGKILL (no last snapshot, no "stopped") and resumed:
# the resume is still marked, and the numbers still hold (the first 120
# genes of 16s-200: 7,140 pairs)
awk '/^>/{n++} n>120{exit} {print}' "$ROOT/tests/data/16s-200.fa" >s120.fa
"$MNW" "${opts[@]}" --bookmark-every 0.2 -i s120.fa -o killed >/dev/null 2>&1 &
pid=$!
for ((k = 0; k < 600; k++)); do
    [ "$(sed -n 's/^watermark //p' killed/mnw.bookmark 2>/dev/null)" -gt 0 ] 2>/dev/null && break
    sleep 0.05
done
kill -9 $pid $(mnw_pids killed) 2>/dev/null
wait $pid 2>/dev/null
wm=$(sed -n 's/^watermark //p' killed/mnw.bookmark)
check "killed in the middle (the bookmark says $wm of 7140 pairs)" '[ "$wm" -gt 0 ] && [ "$wm" -lt 7140 ]'
"$MNW" "${opts[@]}" --resume killed >/dev/null 2>&1
rc=$?
check "a run killed by SIGKILL, then resumed to the end" '[ $rc -eq 0 ] && grep -q "^watermark 7140$" killed/mnw.bookmark'
echo "not a snapshot" >>killed/progress.log
ok "mnw report on it" "$MNW" report killed
check "its resume is marked, and the line of progress.log that is not a snapshot is said to be left out" \
    'grep -q ">resume</text>" killed/report.html && grep -q "1 line that is not a snapshot left out" killed/report.html'
ok "its numbers equal those recomputed from pairs.tsv.gz" python3 "$ROOT/tests/tools/report_check.py" killed killed/report.html

# damage: one byte of pairs.tsv.gz changed, a bookmark cut in its middle
cp -r killed flip && rm -f flip/report.html
python3 -c "import sys; p=sys.argv[1]; d=bytearray(open(p,'rb').read()); d[len(d)//2]^=0x55; open(p,'wb').write(d)" flip/pairs.tsv.gz
"$MNW" report flip >err5.txt 2>&1
rc=$?
check "a changed byte in pairs.tsv.gz: exit 1, the file and the member named, no report" \
    '[ $rc -eq 1 ] && grep -q "flip/pairs.tsv.gz: .*member at byte" err5.txt && [ ! -e flip/report.html ] && [ ! -e flip/report.html.tmp ]'
cp -r killed badbm && rm -f badbm/report.html
head -c 200 killed/mnw.bookmark >badbm/mnw.bookmark
"$MNW" report badbm >err6.txt 2>&1
rc=$?
check "a bookmark cut short: exit 1, names it, no report" \
    '[ $rc -eq 1 ] && grep -q "badbm/mnw.bookmark" err6.txt && [ ! -e badbm/report.html ]'

# a run that writes no pairs.tsv.gz: the run's part of the page, and a note
"$MNW" "${opts[@]}" --outputs dist -i s120.fa -o dist >/dev/null 2>&1
ok "mnw report on a run with --outputs dist" "$MNW" report dist
check "its page says why the identities are left out, and still charts the run" \
    'grep -q "data-k=\"no-pairs\"" dist/report.html && grep -q "Share of the pairs per rank and device" dist/report.html && ! grep -q "The closest pairs" dist/report.html'
finish
