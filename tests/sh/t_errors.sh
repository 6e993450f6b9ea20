# t_errors.sh - every bad input ends with a non-zero exit, one clear
# "FILE:LINE: reason" message, and leaves OUTDIR untouched: not created when
# it did not exist, and byte for byte the same when it held earlier results.
source "$(dirname "$0")/../lib.sh"
BAD="$ROOT/tests/data/bad"
cd "$TMP"

# a previous good run, to check that failed runs change nothing in it
printf '>a\nACGT\n>b\nACGA\n>c\nTTGA\n' > good.fa
"$MNW" -q -i good.fa -o prev >/dev/null 2>&1
sum_prev() { (cd prev && cksum *) ; }
before=$(sum_prev)

expect_fail() { # expect_fail DESC PATTERN ARGS...
    local desc=$1 pat=$2; shift 2
    rm -rf new
    "$MNW" "$@" -o new >out.txt 2>err.txt
    local rc=$?
    local lines; lines=$(grep -c . err.txt)
    if [ $rc -ne 0 ] && grep -qF -- "$pat" err.txt && [ ! -e new ] && [ "$lines" -eq 1 ]; then
        echo "ok - $desc: exit $rc, '$(head -c 160 err.txt | tr -d '\n')'"
    else
        echo "not ok - $desc: exit $rc, stderr: $(cat err.txt), new exists: $([ -e new ] && echo yes || echo no)"
        T_FAILED=1
    fi
    # the same input into an existing OUTDIR with --force: nothing changes
    "$MNW" "$@" -o prev --force >/dev/null 2>&1
    if [ "$(sum_prev)" = "$before" ]; then echo "ok - $desc: earlier results in OUTDIR unchanged"
    else echo "not ok - $desc: earlier results in OUTDIR changed"; T_FAILED=1; fi
}

expect_fail "missing file" "nosuch.fa: cannot open: No such file or directory" -i nosuch.fa
expect_fail "empty file" "$BAD/empty.fa:1: empty file" -i "$BAD/empty.fa"
expect_fail "text before the first header" "$BAD/text_before_header.fa:2: text before the first '>'" -i "$BAD/text_before_header.fa"
expect_fail "empty sequence" "$BAD/empty_seq.fa:3: sequence 's2' is empty" -i "$BAD/empty_seq.fa"
expect_fail "invalid character" "$BAD/invalid_char.fa:6: invalid character 'J' at column 5 in sequence 's2'" -i "$BAD/invalid_char.fa"
expect_fail "aligned input (gap characters)" "invalid character '-' at column 4" -i "$BAD/aligned.fa"
expect_fail "header without id" "$BAD/no_id.fa:3: header has no id" -i "$BAD/no_id.fa"
expect_fail "duplicate id" "$BAD/duplicate_id.fa:5: duplicate id 's1' (first seen at line 1)" -i "$BAD/duplicate_id.fa"
expect_fail "truncated gzip" "corrupt or truncated gzip data" -i "$BAD/truncated.fa.gz"
expect_fail "corrupt gzip" "corrupt or truncated gzip data" -i "$BAD/corrupt.fa.gz"
expect_fail "gzip followed by plain text (tests/data/bad)" "$BAD/gzip_then_text.fa.gz: 13 bytes of data that is not gzip after the last gzip member, from byte offset 44" -i "$BAD/gzip_then_text.fa.gz"
expect_fail "fewer than 2 sequences" "$BAD/one_seq.fa: 1 sequence; all-against-all needs at least 2" -i "$BAD/one_seq.fa"
expect_fail "sequence over the length limit" "$BAD/too_long.fa.gz:3: sequence 's2' has more than 10000 bases (the limit)" -i "$BAD/too_long.fa.gz"
expect_fail "input is a directory" "cannot open: Is a directory" -i "$BAD"
expect_fail "bad option value" "match must be a number from 1 to 1000 (whole, or ending in .5), not 'x'" -i good.fa --match x
expect_fail "unknown option" "unknown option '--nosuch'" -i good.fa --nosuch
expect_fail "gap-extend above gap-open" "--gap-extend must not exceed --gap-open" -i good.fa --gap-open 2 --gap-extend 5
expect_fail "unknown identity definition" "unknown identity definition 'foo'" -i good.fa --iddef foo
printf 'match = 4\nbogus = 1\n' > bad.conf
expect_fail "unknown config key" "bad.conf:2: unknown key 'bogus'" -i good.fa -c bad.conf
printf 'threads = many\n' > bad2.conf
expect_fail "bad config value" "bad2.conf:1: threads must be an integer" -i good.fa -c bad2.conf
printf 'match = 4\nmis\0match = -5\n' > nul.conf
expect_fail "NUL byte in a config file" "nul.conf:2: a NUL byte at column 4 (is this a binary file?)" -i good.fa -c nul.conf
printf '\xEF\xBB\xBFbogus = 1\n' > bombad.conf
expect_fail "config file with a UTF-8 BOM: its first key is read without it" "bombad.conf:1: unknown key 'bogus' (keys" -i good.fa -c bombad.conf
printf '\xEF\xBB\xBFmatch = 3\r\nmismatch = -4\r\n' > bom.conf
"$MNW" -q -i good.fa -c bom.conf -o bomrun >out.txt 2>err.txt; rc=$?
check "config file with a UTF-8 BOM and CRLF line ends accepted (exit $rc, match 3 in the log)" \
    '[ $rc -eq 0 ] && grep -q "match 3" bomrun/mnw.log && [ ! -s err.txt ]'

# a config key given twice in one section: refused, exit 2, both lines named (issue 38)
printf 'threads = 1\nmatch = 4\nthreads = 2\n' > twice.conf
expect_fail "config key given twice" "twice.conf:3: 'threads' given a second time (first at line 1): keep one of them" -i good.fa -c twice.conf
"$MNW" -i good.fa -c twice.conf -o new >/dev/null 2>&1; rc=$?
check "config key given twice: exit 2 ($rc)" '[ $rc -eq 2 ] && [ ! -e new ]'

# long paths (issue 38: messages were cut at 1,024 bytes, the reason lost):
# the message is one line that ends with the reason, the path shortened in
# its middle. mkpath LEN NAME: a relative path of LEN bytes ending in NAME.
mkpath() {
    local p="" d
    d=$(printf 'd%.0s' {1..100})
    while [ $((${#p} + 101 + ${#2})) -le "$1" ]; do p+="$d/"; done
    while [ $((${#p} + ${#2} + 1)) -lt "$1" ]; do p+=e; done
    [ $((${#p} + ${#2})) -lt "$1" ] && p+=/
    printf '%s%s' "$p" "$2"
}
# ends_with DESC REASON EXIT ARGS... : mnw ARGS exits EXIT with one line ending in REASON, no OUTDIR "new"
ends_with() {
    local desc=$1 reason=$2 want=$3; shift 3
    rm -rf new
    "$MNW" "$@" >out.txt 2>err.txt
    local rc=$? msg; msg=$(cat err.txt)
    check "$desc: exit $want ($rc), one line of ${#msg} bytes ending '...$reason', OUTDIR not created" \
        '[ $rc -eq "$want" ] && [ "$(grep -c . err.txt)" -eq 1 ] && [[ $msg == *"$reason" ]] && [[ $msg == *...* ]] && [ ! -e new ]' ||
        echo "#   $(tail -c 200 err.txt)"
}
in1219=$(mkpath 1219 x.fa) in4300=$(mkpath 4300 x.fa)
check "the long paths are 1,219 and 4,300 bytes" '[ ${#in1219} -eq 1219 ] && [ ${#in4300} -eq 4300 ]'
ends_with "-i missing, a 1,219-byte path" "/x.fa: cannot open: No such file or directory" 1 -i "$in1219" -o new
ends_with "-i of 4,300 bytes" "/x.fa: cannot open: File name too long" 1 -i "$in4300" -o new
ends_with "-o under a file, a 1,219-byte path" "/out: cannot create output directory: good.fa is not a directory" 1 \
    -i good.fa -o "good.fa/$(mkpath 1211 out)"
ends_with "-o of 4,300 bytes" "/out/mnw.lock: cannot open the lock file: File name too long" 1 -i good.fa -o "$(mkpath 4300 out)"
ends_with "-c missing, a 1,219-byte path" "/x.conf: cannot open: No such file or directory" 2 -c "$(mkpath 1219 x.conf)"
mkdir -p "$(dirname "$(mkpath 1219 bad.conf)")"
printf 'match = 4\nbogus = 1\n' > "$(mkpath 1219 bad.conf)"
ends_with "a bad key in a config file under a 1,219-byte path: FILE:LINE whole" "/bad.conf:2: unknown key 'bogus' (keys are the long options of mnw --help)" 2 \
    -i good.fa -o new -c "$(mkpath 1219 bad.conf)"

# gzip data followed by something that is not gzip: refused with the file,
# the byte count and the offset where it starts (docs/INPUT.md)
printf '>d\nACGT\n>e\nTTGA\n' > more.fa
gzip -n -c good.fa > good.fa.gz
gzsize=$(stat -c %s good.fa.gz)
(gzip -n -c good.fa; cat more.fa) > mixed.fa.gz
expect_fail "gzip followed by plain text" \
    "mixed.fa.gz: 16 bytes of data that is not gzip after the last gzip member, from byte offset $gzsize (a gzip file followed by plain text? compress all of it, or none)" \
    -i mixed.fa.gz
"$MNW" -q -i mixed.fa.gz -o new >/dev/null 2>&1; rc=$?
check "gzip followed by plain text: exit 1 ($rc), OUTDIR not created" '[ $rc -eq 1 ] && [ ! -e new ]'
(gzip -n -c good.fa; head -c 1024 /dev/zero) > padded.fa.gz
expect_fail "gzip followed by zero padding" \
    "padded.fa.gz: 1,024 zero bytes after the last gzip member, from byte offset $gzsize (padding is not accepted" \
    -i padded.fa.gz
(gzip -n -c good.fa; gzip -n -c more.fa) > members.fa.gz
"$MNW" -q -i members.fa.gz -o memrun >out.txt 2>err.txt; rc=$?
check "two gzip members (cat a.gz b.gz) still read as one input (exit $rc, 5 sequences, 10 pairs)" \
    '[ $rc -eq 0 ] && [ "$(zcat memrun/pairs.tsv.gz | grep -vc "^i")" -eq 10 ]'

# exit status: 2 for a bad command line or config, 1 for a failure while running
"$MNW" -i good.fa -o st --match x >/dev/null 2>&1; rc_usage=$?
"$MNW" -i good.fa -o st --gap-open 2 --gap-extend 5 >/dev/null 2>&1; rc_usage2=$?
"$MNW" -i nosuch.fa -o st >/dev/null 2>&1; rc_input=$?
check "exit status 2 for bad options ($rc_usage, $rc_usage2), 1 for bad input ($rc_input)" '[ $rc_usage -eq 2 ] && [ $rc_usage2 -eq 2 ] && [ $rc_input -eq 1 ]'

# OUTDIR problems
"$MNW" -i good.fa -o prev >out.txt 2>err.txt; rc=$?
check "non-empty OUTDIR refused without --force (exit $rc)" '[ $rc -ne 0 ] && grep -q "prev: output directory is not empty (use --force" err.txt && [ "$(sum_prev)" = "$before" ]'
touch afile
"$MNW" -i good.fa -o afile >out.txt 2>err.txt; rc=$?
check "OUTDIR that is a file refused (exit $rc)" '[ $rc -ne 0 ] && grep -q "afile: output directory is not a directory" err.txt'
"$MNW" -i good.fa -o afile/sub >out.txt 2>err.txt; rc=$?
check "OUTDIR under a file refused (exit $rc)" '[ $rc -ne 0 ] && grep -q "afile/sub: cannot create output directory: afile is not a directory" err.txt'
mkdir ro && chmod 555 ro
if [ "$(id -u)" -eq 0 ]; then
    # root ignores permissions: run mnw as nobody to see a real EACCES
    chmod 755 "$TMP"; chmod 644 good.fa
    RUN=(setpriv --reuid=65534 --regid=65534 --clear-groups)
else
    RUN=()
fi
# as_nobody CMD... : CMD as RUN says. On a sanitizer build (tests/san/run.sh)
# the report folder and the suppression files may be out of nobody's reach
# (a clone under /root): its reports go to stderr, and the check fails on any
# of them (exit 66). Set here, not with env: setpriv must exec mnw itself.
as_nobody() {
    (
        if [ -n "${MNW_SAN:-}" ]; then
            export ASAN_OPTIONS=halt_on_error=1:exitcode=66:detect_leaks=0 TSAN_OPTIONS=halt_on_error=1:exitcode=66
            export UBSAN_OPTIONS=halt_on_error=1:exitcode=66:print_stacktrace=1
        fi
        exec "${RUN[@]}" "$@"
    )
}
as_nobody "$MNW" -i good.fa -o ro/out >out.txt 2>err.txt; rc=$?
check "unwritable OUTDIR parent refused (exit $rc)" '[ $rc -eq 1 ] && grep -q "ro/out: cannot create output directory: ro is not writable (Permission denied)" err.txt && [ ! -e ro/out ]'
as_nobody "$MNW" -i good.fa -o ro >out.txt 2>err.txt; rc=$?
check "unwritable existing OUTDIR refused (exit $rc)" '[ $rc -eq 1 ] && grep -q "ro: output directory is not writable: Permission denied" err.txt && [ -z "$(ls ro)" ]'
finish
