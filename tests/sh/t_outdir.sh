# t_outdir.sh - one mnw per OUTDIR and refused starts that change nothing
# (docs/RESUME.md, "One run per OUTDIR"): a real second mnw process
# (fresh, --force, --resume, under mpirun) against a live run is refused at
# once naming the holder and leaves every file as it was; the lock of a
# run killed with -9 does not block its resume; the fallback where the file
# system has no flock; a lock file that is a FIFO; refused starts with
# --force (a control character in a path, bad input, one sequence) leave an
# earlier run whole; a stop signal while the input is still being read (a
# FIFO without a writer, a slow pipe, two signals); a closed stdout; out of
# memory: one allocation, and ulimit -v of 20 to 120 MB on a small run
# (thread starts too), each message saying what to do, and that advice
# giving the run's bytes.
source "$(dirname "$0")/../lib.sh"
cd "$TMP"
cp "$TDATA/16s-200.fa" s200.fa
awk '/^>/{n++} n>120{exit} {print}' s200.fa > s120.fa
host=$(hostname)
# the runs that go to the end: 200 genes, 120 in the sanitizer runs (MNW_TEST_QUICK)
big=s200; [ -n "${MNW_TEST_QUICK:-}" ] && big=s120

# snap DIR : one line per file of DIR (name, size, checksum), for "nothing changed"
snap() { (cd "$1" && for f in $(ls -A); do printf '%s %s\n' "$f" "$(cksum < "$f")"; done); }

# start_stopped OUTDIR ARGS... : starts mnw, waits for its lock file to name
# it, stops it (SIGSTOP: it keeps its lock) and sets $live to its pid
start_stopped() {
    local out=$1; shift
    "$MNW" -o "$out" -q -t 1 "$@" >"$out.start.log" 2>&1 &
    live=$!
    for t in $(seq 1 300); do
        grep -qs "^pid $live\$" "$out/mnw.lock" && grep -qs "^watermark" "$out/mnw.bookmark" && break
        sleep 0.1
    done
    kill -STOP "$live"
}

# --- the lock against a live run ---
start_stopped L -i $big.fa --worklist-size 500
check "a live run's lock file names its host and pid" 'grep -qx "host $host" L/mnw.lock && grep -qx "pid $live" L/mnw.lock'
snap L > L.before
for how in resume force fresh; do
    case $how in
    resume) args=(--resume L) ;;
    force) args=(-i s120.fa -o L --force) ;;
    fresh) args=(-i s120.fa -o L) ;;
    esac
    t0=$SECONDS
    timeout 60 "$MNW" "${args[@]}" -q >"lock_$how.log" 2>&1
    rc=$?
    check "a second mnw ($how) on a live run's OUTDIR: exit 1, at once" '[ $rc -eq 1 ] && [ $((SECONDS - t0)) -lt 10 ]'
    check "a second mnw ($how): the message names the holder (pid, host, mnw.lock)" \
        'grep -q "L is in use by another mnw: pid $live on host $host, started .* (L/mnw.lock)" lock_$how.log'
    snap L > L.after
    check "a second mnw ($how): every file of OUTDIR unchanged" 'cmp -s L.before L.after'
done
"${MPIRUN[@]}" -np 2 "$MNW" --resume L -q >lock_mpi.log 2>&1
rc=$?
check "a second mnw under mpirun (2 ranks) --resume: refused, non-zero" '[ $rc -ne 0 ] && grep -q "in use by another mnw: pid $live" lock_mpi.log'
snap L > L.after
check "under mpirun: every file of OUTDIR unchanged" 'cmp -s L.before L.after'

# the holder killed with -9: its lock goes with it, the resume runs
kill -9 "$live"; kill -CONT "$live" 2>/dev/null; wait "$live" 2>/dev/null
"$MNW" --resume L -q -t 2 >lock_resume.log 2>&1
rc=$?
check "after kill -9 of the holder, --resume runs: exit 0" '[ $rc -eq 0 ]' || sed 's/^/#   /' lock_resume.log | tail -3
"$MNW" -i $big.fa -o base -q -t 2
check "the resumed run's outputs are those of an uninterrupted run" 'same_outputs base L'
check "the lock file now names the resumed run" '! grep -qx "pid $live" L/mnw.lock && grep -qx "host $host" L/mnw.lock'

# a directory that holds only a lock file counts as empty (no --force)
mkdir -p onlylock && cp L/mnw.lock onlylock/
"$MNW" -i s120.fa -o onlylock -q -t 2 >onlylock.log 2>&1
check "OUTDIR holding only mnw.lock: a fresh run starts there" '[ $? -eq 0 ] && [ -s onlylock/mnw.bookmark ]'

# no flock on the file system (MNW_TEST_LOCK_NOFLOCK=1 makes flock fail as
# there): a live mnw of the pid the file names refuses; a dead one does not
export MNW_TEST_LOCK_NOFLOCK=1
start_stopped N -i $big.fa --worklist-size 500
snap N > N.before
"$MNW" --resume N -q >noflock.log 2>&1
rc=$?
check "no flock: a live mnw on this host named by mnw.lock refuses the start" '[ $rc -eq 1 ] && grep -q "in use by another mnw: pid $live" noflock.log'
snap N > N.after
check "no flock: every file unchanged" 'cmp -s N.before N.after'
kill -9 "$live"; kill -CONT "$live" 2>/dev/null; wait "$live" 2>/dev/null
"$MNW" --resume N -q -t 2 >noflock2.log 2>&1
rc=$?
check "no flock: after the holder died, --resume runs: exit 0" '[ $rc -eq 0 ]'
check "no flock: mnw.log warns that the lock is advisory" 'grep -q "has no flock .*: the lock is advisory" N/mnw.log'
check "no flock: outputs identical" 'same_outputs base N'
unset MNW_TEST_LOCK_NOFLOCK

# a FIFO where the lock file goes: an error, never a hang
mkdir F && mkfifo F/mnw.lock
timeout 20 "$MNW" -i s120.fa -o F --force -q >fifo.log 2>&1
rc=$?
check "mnw.lock a FIFO: exit 1 within seconds, naming it" '[ $rc -eq 1 ] && grep -q "F/mnw.lock: a FIFO, not mnw.s lock file" fifo.log'

# --- refused starts leave an earlier run whole ---
"$MNW" -i s120.fa -o E -q -t 2 --phylip
snap E > E.before
cp s120.fa $'new\nline.fa'
refuse() { # refuse DESC STATUS ARGS... : mnw ARGS exits STATUS, E unchanged
    local desc=$1 want=$2; shift 2
    "$MNW" "$@" -q >refuse.log 2>&1
    local rc=$?
    check "$desc: exit $want" '[ $rc -eq $want ]' || sed 's/^/#   /' refuse.log | head -3
    snap E > E.after
    check "$desc: the earlier run in OUTDIR is untouched" 'cmp -s E.before E.after'
}
refuse "--force with a newline in the input path" 2 -i $'new\nline.fa' -o E --force
check "a newline in a path: the message shows it escaped" "grep -q \"'new\\\\\\\\nline.fa': the path holds a control character\" refuse.log"
printf ">a\nACGT\n>b\nACXT\n" > bad.fa
refuse "--force with bad input" 1 -i bad.fa -o E --force
printf ">a\nACGT\n" > one.fa
refuse "--force with one sequence" 1 -i one.fa -o E --force
refuse "--force with a bad setting" 2 -i s120.fa -o E --force --gap-open 3 --gap-extend 5
refuse "--force with a missing input" 1 -i no-such.fa -o E --force
refuse "--resume with a setting that contradicts the bookmark" 2 --resume E --match 7
refuse "--resume of the complete run" 0 --resume E

# --- a stop signal while the input is still being read ---
mkfifo nowriter.fa
"$MNW" -i nowriter.fa -o R1 -q >stopread1.log 2>&1 &
pid=$!; sleep 1; t0=$SECONDS; kill -TERM $pid; wait $pid; rc=$?
check "SIGTERM while waiting for a FIFO's writer: exit 3 at once" '[ $rc -eq 3 ] && [ $((SECONDS - t0)) -le 3 ]'
check "... the message says nothing was written, and OUTDIR was not created" 'grep -q "^mnw: stopped: SIGTERM while reading the input (nowriter.fa: reading stopped at line 1), before the run began: nothing was written" stopread1.log && [ ! -e R1 ]'
mkfifo slow.fa
{ head -c 100000 s200.fa; sleep 30; } > slow.fa &
writer=$!
"$MNW" -i slow.fa -o R2 -q >stopread2.log 2>&1 &
pid=$!; sleep 1; t0=$SECONDS; kill -TERM $pid; wait $pid; rc=$?
kill $writer 2>/dev/null; wait $writer 2>/dev/null
check "SIGTERM while a slow pipe is half read: exit 3 at once, OUTDIR not created" '[ $rc -eq 3 ] && [ $((SECONDS - t0)) -le 3 ] && [ ! -e R2 ] && grep -q "reading stopped at line [1-9]" stopread2.log'
"$MNW" -i nowriter.fa -o R3 -q >stopread3.log 2>&1 &
# stopped, both signals pend and arrive together on SIGCONT (two kills in a
# row can be far apart on a busy machine, and the first one ends mnw)
pid=$!; sleep 1; kill -STOP $pid; kill -INT $pid; kill -TERM $pid; kill -CONT $pid; wait $pid; rc=$?
check "two signals while reading: exit 128+N, and the message says no bookmark exists yet" '[ $rc -gt 128 ] && grep -q "before the run wrote its first bookmark" stopread3.log && ! grep -q "bookmark written stays valid" stopread3.log'

# --- stdout closed or a closed pipe ---
"$MNW" -i s120.fa -o P1 -t 2 2>P1.err | true
rc=${PIPESTATUS[0]}
check "stdout a closed pipe: exit 0 (the run is complete), not 141" '[ $rc -eq 0 ]'
check "stdout a closed pipe: stderr says the lines were lost" 'grep -q "cannot write to standard output: Broken pipe" P1.err'
"$MNW" -i s120.fa -o P2 -t 2 >&- 2>P2.err
rc=$?
check "stdout closed (>&-): exit 0" '[ $rc -eq 0 ]'
check "stdout closed: outputs and log intact (nothing printed into them)" 'same_outputs P1 P2 && gzip -t P2/pairs.tsv.gz && ! grep -q "^mnw: aligned" P2/mnw.log P2/dist.column.gz'

# --- out of memory: a message for a person, exit 1, no abort ---
# (ulimit -v; a sanitizer build reserves terabytes of shadow memory at start,
# so there the sanitizer's allocator refuses allocations over 16 MB instead:
# the workers' DP buffers of 19 MB for these genes; its "failed to allocate"
# warning goes to a log of its own, not to the suite's report folder; under
# TSan the worker threads left running by the exit at once are no leak)
case ${MNW_SAN:-} in
asan) (export ASAN_OPTIONS="${ASAN_OPTIONS:-}:allocator_may_return_null=1:max_allocation_size_mb=16:log_path=$TMP/oomsan"
       "$MNW" -i s200.fa -o M -q -t 2 --worklist-size 19900) >oom.log 2>&1 ;;
tsan) (export TSAN_OPTIONS="${TSAN_OPTIONS:-}:allocator_may_return_null=1:max_allocation_size_mb=16:report_thread_leaks=0:log_path=$TMP/oomsan"
       "$MNW" -i s200.fa -o M -q -t 2 --worklist-size 19900) >oom.log 2>&1 ;;
*) (ulimit -v 400000; "$MNW" -i s200.fa -o M -q -t 2 --worklist-size 19900 --counts no) >oom.log 2>&1 ;;
esac
rc=$?
check "out of memory: exit 1 (not 134, no core)" '[ $rc -eq 1 ]' || sed 's/^/#   /' oom.log | head -3
check "out of memory: the message says what happened, what to do and how to go on" \
    'grep -q "^mnw: out of memory: could not get [0-9,]* more bytes ([0-9.]* MiB).*\. What to do: give mnw more memory .* or use fewer --threads, .*; then continue the run with: mnw --resume M (its last bookmark stays valid)\. (Where: [a-z/_]*\.c:[0-9]*, for a bug report\.)$" oom.log' ||
    sed 's/^/#   /' oom.log | head -3
[ -n "${MNW_SAN:-}" ] && check "out of memory (sanitizer): its log holds only the refused allocation" '! grep -hv "failed to allocate" $TMP/oomsan* | grep -q .'

# issue 38: under ulimit -v of 20 to 120 MB a small run ends at one of its
# allocations or thread starts (which fail with EAGAIN: no room for a
# stack); each ends with exit 1 and one out-of-memory message saying what
# to do, or completes; what the message advises works (the resume, or a
# start again) and gives the bytes of a run with enough memory, which mnw
# verify accepts. Not under a sanitizer (its shadow memory needs terabytes
# of address space).
if [ -z "${MNW_SAN:-}" ]; then
    awk '/^>/{n++} n>20{exit} {print}' s200.fa > s20.fa
    vopts=(-q -t 2 --gpus none --bind no --worklist-size 40)
    "$MNW" -i s20.fa -o V0 "${vopts[@]}"
    ooms=0
    for mb in 20 40 60 80 120; do
        (ulimit -v $((mb * 1024)); "$MNW" -i s20.fa -o "V$mb" "${vopts[@]}") >"V$mb.log" 2>&1
        rc=$?
        if [ $rc -eq 127 ] && grep -q "error while loading shared libraries" "V$mb.log"; then
            echo "# ulimit -v $mb MB: too little to load mnw's libraries on this machine"
            continue
        fi
        msg=$(cat "V$mb.log")
        if [ $rc -eq 1 ]; then
            ooms=$((ooms + 1))
            check "ulimit -v $mb MB: exit 1, one line: out of memory, what to do (${msg:0:90}...)" \
                '[ "$(grep -c . "V$mb.log")" -eq 1 ] && [[ $msg =~ ^mnw:\ (error:\ )?out\ of\ memory:\  ]] &&
                 [[ $msg == *"What to do: give mnw more memory"* ]]' || sed 's/^/#   /' "V$mb.log" | head -3
            if [[ $msg == *"then continue the run with: mnw --resume V$mb (its last bookmark stays valid)"* ]]; then
                "$MNW" --resume "V$mb" -q -t 2 --gpus none >"V$mb.res" 2>&1
            else
                check "ulimit -v $mb MB: the message says to start again: no bookmark was written" '[ ! -e "V$mb/mnw.bookmark" ]'
                "$MNW" -i s20.fa -o "V$mb" "${vopts[@]}" --force >"V$mb.res" 2>&1
            fi
            rc=$?
        else
            check "ulimit -v $mb MB: exit 0 when not out of memory ($rc)" '[ $rc -eq 0 ] && [ ! -s "V$mb.log" ]'
        fi
        check "ulimit -v $mb MB: as advised, the run ends with the bytes of a run with enough memory, verified" \
            '[ $rc -eq 0 ] && same_outputs V0 "V$mb" && "$MNW" verify "V$mb" >/dev/null 2>&1'
    done
    check "ulimit -v: at least 2 of the 5 limits ran out of memory ($ooms)" '[ $ooms -ge 2 ]'
fi
finish
