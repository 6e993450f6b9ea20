# t_verify.sh - nothing lost, nothing corrupt (docs/RESUME.md, "What is
# checked"), with real runs:
#  - mnw verify on a complete run: exit 0, each output ok; usage errors: 2;
#  - 4 bytes changed in the middle of pairs.tsv.gz, or the file replaced by
#    random bytes of the same size: mnw verify exits 1 naming the file and
#    the byte range, mnw --resume refuses (exit 1) naming the same, and
#    every file in OUTDIR is byte-identical afterwards;
#  - 4 bytes appended to an output of a complete run (issue 38): verify
#    exits 1 naming them and the truncate command that cuts them, --resume
#    refuses the same way (nothing changed), after the command verify is ok;
#  - a run stopped by SIGTERM (exit 3): verify says not complete, ok; bytes
#    appended after the bookmark are named, and the resume cuts them and
#    ends identical to the uninterrupted run (its checksums continued from
#    the bookmark's, over merged blocks: MNW_TEST_SUM_BLOCK=4096);
#  - a version-1 bookmark (no checksums): verify and --resume check lengths
#    only and say so; the resume ends identical;
#  - a forged bookmark whose watermark is off the work-list boundaries:
#    refused naming the bookmark;
#  - pairs.tsv.gz deleted, or dist.column.gz cut to 0 bytes, during a run:
#    exit 1 with the message; the bookmark before stays readable (mnw verify,
#    mnw status);
#  - a FIFO in place of mnw.bookmark or of an output: mnw --resume and mnw
#    verify fail at once (timeout 20: a hang fails the check).
source "$(dirname "$0")/../lib.sh"
cd "$TMP"
cp "$TDATA/16s-200.fa" s200.fa
zcat "$ROOT/data/16s-500.fa.gz" > s500.fa
opts=(--cigar --worklist-size 100 --bind no --gpus none)
export MNW_TEST_SUM_BLOCK=4096 # many blocks (merged once) in a 5.9 MB file

# snap DIR : every file of DIR with its checksum, size and modification time
snap() { (cd "$1" && for f in *; do echo "$f $(cksum < "$f") $(stat -c %Y "$f")"; done); }
# commas N : 1234567 -> 1,234,567
commas() { local s=$1 r=""; while [ ${#s} -gt 3 ]; do r=",${s: -3}$r"; s=${s:0:-3}; done; echo "$s$r"; }
# block_size DIR FILE : the block size of FILE's checksums in DIR's bookmark
block_size() { awk -v f="$2" '$1 == "blocks" && $2 == f { print $3 }' "$1/mnw.bookmark"; }
# block_of DIR FILE OFFSET : "bytes A to B" of the bookmark's block holding OFFSET
block_of() {
    local bs a
    bs=$(block_size "$1" "$2")
    a=$(( $3 / bs * bs ))
    echo "bytes $(commas $a) to $(commas $((a + bs - 1)))"
}
# crc_hex FILE : CRC-32 of FILE as 8 hex digits (the gzip trailer holds it)
crc_hex() { gzip -c < "$1" | tail -c 8 | head -c 4 | od -An -tx4 | tr -d ' \n'; }
# seal BOOKMARK : replaces its end line by the CRC-32 of the lines above
seal() { sed -i '/^end /d' "$1"; echo "end $(crc_hex "$1")" >> "$1"; }
watermark() { sed -n 's/^watermark //p' "$1/mnw.bookmark" 2>/dev/null; }
# wait_wm DIR N : until DIR's bookmark has watermark >= N (at most 60 s)
wait_wm() {
    local k w
    for ((k = 0; k < 6000; k++)); do w=$(watermark "$1"); [ -n "$w" ] && [ "$w" -ge "$2" ] && return 0; sleep 0.01; done
    return 1
}

# --- a complete run ---
"$MNW" -q -i s200.fa -o ref "${opts[@]}" -t 2
out=$("$MNW" verify ref 2>&1); rc=$?
check "verify of a complete run: exit 0, each output ok, complete" \
    '[ $rc -eq 0 ] && [[ $out =~ "ref/pairs.tsv.gz: ok ("[0-9],[0-9]{3},[0-9]{3}" bytes" ]] && [[ $out == *"ref/dist.column.gz: ok ("* ]] && [[ $out == *"the run is complete"* ]]'
check "the bookmark holds each output's CRC-32, the file's own" \
    '[ "$(sed -n "s/^output pairs.tsv.gz [0-9]* //p" ref/mnw.bookmark)" = "$(crc_hex ref/pairs.tsv.gz)" ] &&
     [ "$(sed -n "s/^output dist.column.gz [0-9]* //p" ref/mnw.bookmark)" = "$(crc_hex ref/dist.column.gz)" ]'
check "blocks of 4 KiB merged to 8 KiB in the 5.9 MB pairs.tsv.gz" '[ "$(block_size ref pairs.tsv.gz)" = 8192 ]'

out=$("$MNW" verify 2>&1); rc=$?
check "verify without OUTDIR: exit 2" '[ $rc -eq 2 ] && [[ $out == *"which OUTDIR"* ]]'
out=$("$MNW" verify ref ref 2>&1); rc=$?
check "verify with two OUTDIRs: exit 2" '[ $rc -eq 2 ] && [[ $out == *"one OUTDIR only"* ]]'
out=$("$MNW" verify --frobnicate ref 2>&1); rc=$?
check "verify with an unknown option: exit 2" '[ $rc -eq 2 ] && [[ $out == *"unknown option"* ]]'
out=$("$MNW" verify --help 2>&1); rc=$?
check "verify --help: the usage, exit 0" '[ $rc -eq 0 ] && [[ $out == "usage: mnw verify OUTDIR"* ]]'
mkdir empty
out=$("$MNW" verify empty 2>&1); rc=$?
check "verify of a directory without a bookmark: exit 1" '[ $rc -eq 1 ] && [[ $out == *"empty/mnw.bookmark: no bookmark"* ]]'

# --- 4 bytes changed in the middle of pairs.tsv.gz ---
cp -a ref flip
size=$(stat -c %s flip/pairs.tsv.gz)
off=$((size / 2))
printf 'mnw!' | dd of=flip/pairs.tsv.gz bs=1 seek=$off conv=notrunc status=none
range=$(block_of flip pairs.tsv.gz $off)
before=$(snap flip)
out=$("$MNW" verify flip 2>&1); rc=$?
check "4 bytes changed at byte $off: verify exit 1 naming the file and $range" \
    '[ $rc -eq 1 ] && [[ $out == *"flip/pairs.tsv.gz: $range differ from what the run wrote"* ]] && [[ $out == *"flip/dist.column.gz: ok"* ]]'
out=$("$MNW" --resume flip -t 2 2>&1); rc=$?
check "and --resume refuses, exit 1, naming the same" '[ $rc -eq 1 ] && [[ $out == *"flip/pairs.tsv.gz: $range differ"* ]]'
check "every file of OUTDIR unchanged (bytes and times)" '[ "$(snap flip)" = "$before" ]'

# --- the whole file replaced by random bytes of the same size ---
cp -a ref rnd
head -c "$size" /dev/urandom > rnd/pairs.tsv.gz
before=$(snap rnd)
out=$("$MNW" verify rnd 2>&1); rc=$?
check "random bytes of the same size: verify exit 1, bytes 0 to 8,191" '[ $rc -eq 1 ] && [[ $out == *"rnd/pairs.tsv.gz: bytes 0 to 8,191 differ"* ]]'
out=$("$MNW" --resume rnd -t 2 2>&1); rc=$?
check "and --resume refuses, exit 1" '[ $rc -eq 1 ] && [[ $out == *"rnd/pairs.tsv.gz: bytes 0 to 8,191 differ"* ]] && [ "$(snap rnd)" = "$before" ]'

# --- bytes appended to a complete run (issue 38) ---
cp -a ref junk
printf JUNK >> junk/dist.column.gz
n=$(commas "$(stat -c %s ref/dist.column.gz)")
before=$(snap junk)
out=$("$MNW" verify junk 2>&1); rc=$?
check "4 bytes appended to a complete run: verify exit 1, naming the file, the bytes and the command that cuts them" \
    '[ $rc -eq 1 ] && [[ $out == *"junk/dist.column.gz: 4 bytes after byte $n, where the complete run ended: mnw did not write them"*"truncate -s $(stat -c %s ref/dist.column.gz) junk/dist.column.gz"* ]] && [[ $out == *"junk/pairs.tsv.gz: ok"* ]]' ||
    sed 's/^/#   /' <<<"$out"
out2=$("$MNW" --resume junk -t 2 2>&1); rc=$?
check "and --resume refuses them too (exit 1, the same command), every file unchanged" \
    '[ $rc -eq 1 ] && [[ $out2 == *"truncate -s $(stat -c %s ref/dist.column.gz) junk/dist.column.gz"* ]] && [ "$(snap junk)" = "$before" ]' ||
    sed 's/^/#   /' <<<"$out2"
cmd=$(grep -o "truncate -s [0-9]* junk/dist.column.gz" <<<"$out" | head -1)
$cmd
out=$("$MNW" verify junk 2>&1); rc=$?
check "after the command it gave ($cmd): verify exit 0" '[ $rc -eq 0 ] && cmp -s junk/dist.column.gz ref/dist.column.gz'

# --- stopped by SIGTERM ---
"$MNW" -q -i s200.fa -o stop "${opts[@]}" -t 1 --bookmark-every 0.1 >stop.log 2>&1 &
job=$!
wait_for_wm=$(wait_wm stop 3000 && echo yes)
kill -TERM $job
wait $job; rc=$?
check "SIGTERM: exit 3 (watermark $(watermark stop))" '[ "$wait_for_wm" = yes ] && [ $rc -eq 3 ]'
out=$("$MNW" verify stop 2>&1); rc=$?
check "verify of the stopped run: exit 0, not complete, each output ok" \
    '[ $rc -eq 0 ] && [[ $out == *"the run is not complete (continue it with: mnw --resume stop)"* ]] && [[ $out == *"stop/pairs.tsv.gz: ok"* ]]'
cp -a stop v1
cp -a stop forged
printf 'work written after the bookmark' >> stop/pairs.tsv.gz
out=$("$MNW" verify stop 2>&1); rc=$?
check "bytes after the bookmark: ok, and named" '[ $rc -eq 0 ] && [[ $out == *"31 bytes beyond the bookmark (written after it; mnw --resume cuts them)"* ]]'
"$MNW" -q --resume stop -t 2 --gpus none; rc=$?
out=$("$MNW" verify stop 2>&1); rc2=$?
check "the resume cuts them and ends identical to the uninterrupted run; verify ok" \
    '[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && cmp -s stop/pairs.tsv.gz ref/pairs.tsv.gz && cmp -s stop/dist.column.gz ref/dist.column.gz'
check "its bookmark's checksums are those of an uninterrupted run" '[ "$(grep -E "^(output|blocks) " stop/mnw.bookmark)" = "$(grep -E "^(output|blocks) " ref/mnw.bookmark)" ]'

# --- a bookmark of version 1 (mnw before the checksums) ---
sed -i 's/^mnw-bookmark 2$/mnw-bookmark 1/; /^blocks /d; s/^\(output [^ ]* [0-9]*\) [0-9a-f]*$/\1/' v1/mnw.bookmark
seal v1/mnw.bookmark
out=$("$MNW" verify v1 2>&1); rc=$?
check "verify of a version-1 bookmark: lengths only, said so, exit 0" \
    '[ $rc -eq 0 ] && [[ $out == *"only the lengths are checked"* ]] && [[ $out == *"v1/pairs.tsv.gz: length ok"* ]]'
out=$("$MNW" --resume v1 -t 2 2>&1); rc=$?
check "its resume warns that only lengths are checked, and ends identical" \
    '[ $rc -eq 0 ] && [[ $out == *"v1/pairs.tsv.gz: the bookmark (of an mnw from before output checksums) holds no checksum"* ]] &&
     cmp -s v1/pairs.tsv.gz ref/pairs.tsv.gz && grep -q "^mnw-bookmark 2$" v1/mnw.bookmark && "$MNW" verify v1 >/dev/null'

# --- a forged bookmark: watermark off the work-list boundaries ---
sed -i 's/^watermark .*/watermark 1234/' forged/mnw.bookmark
seal forged/mnw.bookmark
out=$("$MNW" --resume forged -t 2 2>&1); rc=$?
check "a forged watermark (valid CRC): --resume refuses naming the bookmark" \
    '[ $rc -eq 1 ] && [[ $out == *"forged/mnw.bookmark: watermark 1234 is not at a work-list boundary (worklist-size 100)"* ]]'
out=$("$MNW" verify forged 2>&1); rc=$?
check "and verify too" '[ $rc -eq 1 ] && [[ $out == *"watermark 1234 is not at a work-list boundary"* ]]'

# --- outputs deleted or cut during a run ---
# midrun DIR WHAT : a run of 16s-500 (1 thread, bookmarks every 0.1 s);
# once 2,000 pairs are bookmarked, runs WHAT; waits for the run (rc in $rc)
midrun() {
    "$MNW" -q -i s500.fa -o "$1" --worklist-size 500 --bind no --gpus none -t 1 --bookmark-every 0.1 >"$1.log" 2>&1 &
    local job=$!
    wait_wm "$1" 2000
    eval "$2"
    wait $job
    rc=$?
}
t0=$SECONDS
midrun del 'rm del/pairs.tsv.gz'
check "pairs.tsv.gz deleted during the run: exit 1, said so (in $((SECONDS - t0)) s)" \
    '[ $rc -eq 1 ] && grep -q "mnw: error: del/pairs.tsv.gz was deleted during the run" del.log'
out=$("$MNW" verify del 2>&1); rc=$?
check "the bookmark before stays readable: verify reads it and names the missing file, exit 1" \
    '[ $rc -eq 1 ] && [[ $out == *"del/mnw.bookmark: "*" of 124,750 pairs written"* ]] && [[ $out == *"del/pairs.tsv.gz: No such file"* ]]'
out=$("$MNW" status del 2>&1)
check "mnw status: failed, with the message" '[[ $out == *"failed: del/pairs.tsv.gz was deleted during the run"* ]] && [[ $out != *"damaged"* ]]'
midrun cut ': > cut/dist.column.gz'
check "dist.column.gz cut to 0 bytes during the run: exit 1, said so" \
    '[ $rc -eq 1 ] && grep -Eq "mnw: error: cut/dist.column.gz is [0-9]+ bytes, but this run wrote [0-9]+: it was cut or written to by something else during the run" cut.log'
out=$("$MNW" verify cut 2>&1); rc=$?
check "verify: the bookmark reads, the file is shorter than it says, exit 1" \
    '[ $rc -eq 1 ] && [[ $out == *"cut/pairs.tsv.gz: ok"* ]] && [[ $out == *"cut/dist.column.gz: "*"shorter than the"* ]]'
check "no NUL bytes where the cut was: the writes after it landed at the new end" \
    '[ "$(head -c 1 cut/dist.column.gz | od -An -tx1 | tr -d " ")" = 1f ]'

# --- a FIFO in place of the bookmark or of an output ---
cp -a ref fifo
rm fifo/mnw.bookmark
mkfifo fifo/mnw.bookmark
out=$(timeout 20 "$MNW" --resume fifo -t 2 2>&1); rc=$?
check "a FIFO bookmark: --resume fails at once (exit $rc)" '[ $rc -eq 1 ] && [[ $out == *"fifo/mnw.bookmark: is not a regular file (a FIFO)"* ]]'
out=$(timeout 20 "$MNW" verify fifo 2>&1); rc=$?
check "and verify (exit $rc)" '[ $rc -eq 1 ] && [[ $out == *"fifo/mnw.bookmark: is not a regular file (a FIFO)"* ]]'
cp -a ref fifo2
rm fifo2/dist.column.gz
mkfifo fifo2/dist.column.gz
out=$(timeout 20 "$MNW" --resume fifo2 -t 2 2>&1); rc=$?
check "a FIFO output: --resume fails at once (exit $rc)" '[ $rc -eq 1 ] && [[ $out == *"fifo2/dist.column.gz: is not a regular file (a FIFO)"* ]]'
out=$(timeout 20 "$MNW" verify fifo2 2>&1); rc=$?
check "and verify (exit $rc)" '[ $rc -eq 1 ] && [[ $out == *"fifo2/dist.column.gz: is not a regular file (a FIFO)"* ]]'
finish
