# t_plant.sh - nothing planted in OUTDIR is written through (issue 38): a
# symbolic link to a victim file outside OUTDIR, a FIFO, a directory and a
# hard link to the victim, at the name of each file mnw creates or rewrites
# there (the outputs, mnw.bookmark and its temporary, progress.json and its
# temporary, progress.log and its compaction temporary, mnw.log, mnw.token,
# mnw.lock; report.html and its temporary for mnw report, FILE.tmp for
# mnw report -o FILE): a --resume (and mnw report) is refused at once with
# a message naming the file, exit 1, the victim byte-identical, OUTDIR as
# it was, no hang (each refused start runs under timeout). --force removes
# what is at the names it replaces (never writing through it) and refuses
# the rest;
# a regular temporary left by a killed run does not block a resume; a link
# planted during a run makes its next bookmark write fail, victim intact;
# under mpirun -np 2 the token; mnw merge's lock file (its OUTDIR must be
# empty but for mnw.lock). The library calls themselves: test_safeio.
# shellcheck shell=bash disable=SC2016 # check's conditions are evaluated by check
source "$(dirname "$0")/../lib.sh"
cd "$TMP" || exit 1
awk '/^>/{n++} n>60{exit} {print}' "$TDATA/16s-200.fa" > s60.fa
awk '/^>/{n++} n>120{exit} {print}' "$TDATA/16s-200.fa" > s120.fa
printf 'the victim: outside OUTDIR, must stay as it is\n' > victim
cp victim victim.orig
ALL=(--cigar --outputs "pairs,dist,phylip,paf")

# snap DIR : each entry's name, type, size and links, and each regular file's checksum
snap() {
    find "$1" -mindepth 1 -maxdepth 1 -printf '%f %y %s %n\n' | sort
    find "$1" -mindepth 1 -maxdepth 1 -type f -exec cksum {} + | sed "s#$1/##" | sort
}
# plant KIND PATH : a symbolic link to the victim, a FIFO, a directory, a hard link to the victim
plant() {
    rm -f "$2"
    case $1 in
    symlink) ln -s "$TMP/victim" "$2" ;;
    fifo) mkfifo "$2" ;;
    dir) mkdir "$2" ;;
    hardlink) ln "$TMP/victim" "$2" ;;
    esac
}
KINDS=(symlink fifo dir hardlink)
said='(is not a regular file \(a (symbolic link|FIFO|directory)\)|has [0-9]+ hard links|(a symbolic link|a FIFO|a directory|has [0-9]+ hard links).*not mnw.s lock file|a symbolic link; mnw keeps its lock)'

# an unfinished run (stopped by SIGTERM after its first bookmark), and a finished one
"$MNW" -i s120.fa -o U -q -t 1 --worklist-size 200 --bookmark-every 0.2 "${ALL[@]}" >u.log 2>&1 &
pid=$!
for _ in $(seq 1 200); do grep -qs '^watermark [1-9]' U/mnw.bookmark && break; sleep 0.05; done
kill -TERM "$pid"
wait "$pid"
rc=$?
check "an unfinished run to resume (exit $rc after SIGTERM)" '[ $rc -ne 0 ] && [ -f U/mnw.bookmark ] && ! grep -q "^watermark 7140$" U/mnw.bookmark'
timeout -k 2 60 "$MNW" -i s60.fa -o F -q -t 1 "${ALL[@]}" >f.log 2>&1
check "a finished run" '[ $? -eq 0 ] && [ -f F/pairs.tsv.gz ]'

# --- --resume: each kind at each name, refused before anything changes ---
# refused SRC NAME KIND MNW-ARGS... : OUTDIR C, a copy of SRC with KIND
# planted at NAME, given to mnw MNW-ARGS: refused (exit 1, the message
# names C/NAME), the victim and C unchanged; else a word added to $bad
refused() {
    local src=$1 name=$2 kind=$3 rc
    shift 3
    rm -rf C && cp -a "$src" C && plant "$kind" "C/$name" && snap C > before
    timeout -k 2 10 "$MNW" "$@" >out 2>&1
    rc=$?
    snap C > after
    if [ $rc -ne 1 ] || ! grep -Eq "C/$name: $said" out || ! cmp -s victim victim.orig || ! cmp -s before after; then
        bad+=" $name:$kind(rc $rc: $(head -c 300 out))"
        cp victim.orig victim
    fi
}
names=(pairs.tsv.gz dist.column.gz dist.phylip alignments.paf.gz dist.column mnw.bookmark .mnw.bookmark.tmp progress.json
       .progress.json.tmp progress.log progress.log.tmp mnw.log mnw.token mnw.lock)
bad=""
for name in "${names[@]}"; do
    for kind in "${KINDS[@]}"; do
        refused U "$name" "$kind" --resume C -q -t 1
    done
done
check "--resume: each of 4 kinds at each of ${#names[@]} names refused (exit 1, the message names it, victim and OUTDIR unchanged)${bad:+:$bad}" '[ -z "$bad" ]'

# a killed run's regular temporaries (one link) do not block a resume
rm -rf C && cp -a U C
for t in .mnw.bookmark.tmp .progress.json.tmp progress.log.tmp mnw.token; do echo stale > "C/$t"; done
timeout -k 2 60 "$MNW" --resume C -q -t 1 >out 2>&1
rc=$?
check "stale regular temporaries: --resume runs to the end (exit $rc), those of the bookmark and progress.json replaced" '[ $rc -eq 0 ] && grep -q "^watermark 7140$" C/mnw.bookmark && [ ! -e C/.mnw.bookmark.tmp ] && [ ! -e C/.progress.json.tmp ]' || head -5 out

# --- --force: what is at the names it replaces is removed, never written through; the rest refused ---
rm -rf C && cp -a F C
plant symlink C/pairs.tsv.gz; plant hardlink C/dist.column.gz; plant fifo C/dist.phylip; plant symlink C/mnw.bookmark
plant hardlink C/progress.json; plant fifo C/progress.log; plant symlink C/mnw.log; plant hardlink C/alignments.paf.gz
timeout -k 2 60 "$MNW" -i s60.fa -o C --force -q -t 1 "${ALL[@]}" >out 2>&1
rc=$?
check "--force over links and FIFOs at the names it replaces: runs (exit $rc), victim unchanged, its files regular" \
    '[ $rc -eq 0 ] && cmp -s victim victim.orig && [ "$(find C -mindepth 1 ! -type f | wc -l)" -eq 0 ] && [ "$(find C -type f -links +1 | wc -l)" -eq 0 ] && same_bytes C F' || head -5 out
bad=""
for name in pairs.tsv.gz mnw.log .mnw.bookmark.tmp .progress.json.tmp progress.log.tmp mnw.token mnw.lock; do
    for kind in "${KINDS[@]}"; do
        case $name:$kind in .*.tmp:*|progress.log.tmp:*|mnw.token:*|mnw.lock:*|*:dir) ;; *) continue ;; esac
        refused F "$name" "$kind" -i s60.fa -o C --force -q -t 1 "${ALL[@]}"
    done
done
check "--force: a directory at a replaced name, and each kind at a temporary, the token, the lock: refused, nothing changed${bad:+:$bad}" '[ -z "$bad" ]'

# --- during a run: a link planted at the bookmark's temporary fails the next write, not the victim ---
rm -rf C && cp -a U C
"$MNW" --resume C -q -t 1 --bookmark-every 0.2 >out 2>&1 &
pid=$!
for _ in $(seq 1 200); do grep -qs "^pid $pid\$" C/mnw.lock && [ -f C/progress.json ] && break; sleep 0.05; done
kill -STOP "$pid"
plant symlink C/.mnw.bookmark.tmp
plant hardlink C/.progress.json.tmp
kill -CONT "$pid"
wait "$pid"
rc=$?
check "a link planted during the run: the bookmark write fails naming it (exit $rc), victim unchanged" \
    '[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -Eq "C/.mnw.bookmark.tmp: $said" out && cmp -s victim victim.orig' || head -5 out
cp victim.orig victim

# --- under mpirun -np 2 (the outputs through MPI-IO, rank 0 writes mnw.token) ---
bad=""
for kind in "${KINDS[@]}"; do
    rm -rf C && cp -a U C && plant "$kind" C/mnw.token && snap C > before
    timeout -k 2 60 "${MPIRUN[@]}" -np 2 "$MNW" --resume C -q -t 1 >out 2>&1
    rc=$?
    snap C > after
    if [ $rc -eq 0 ] || [ $rc -eq 124 ] || ! grep -Eq "C/mnw.token: $said" out || ! cmp -s victim victim.orig || ! cmp -s before after; then
        bad+=" $kind(rc $rc: $(head -c 300 out))"
        cp victim.orig victim
    fi
done
check "mpirun -np 2: each kind at mnw.token refused, nothing changed${bad:+:$bad}" '[ -z "$bad" ]'

# --- mnw report: report.html and its temporary; -o FILE's temporary ---
bad=""
for name in report.html report.html.tmp; do
    for kind in "${KINDS[@]}"; do
        refused F "$name" "$kind" report C
    done
done
rm -rf C && mkdir -p R && plant symlink R/page.html.tmp
timeout -k 2 10 "$MNW" report F -o R/page.html >out 2>&1
rc=$?
[ $rc -eq 1 ] && grep -Eq "R/page.html.tmp: $said" out && cmp -s victim victim.orig && [ ! -e R/page.html ] || bad+=" -o(rc $rc: $(head -c 300 out))"
check "mnw report: each kind at report.html and report.html.tmp, a link at -o FILE.tmp: refused${bad:+:$bad}" '[ -z "$bad" ]'
timeout -k 2 10 "$MNW" report F >out 2>&1
check "mnw report still writes report.html (exit $?)" '[ -f F/report.html ] && [ ! -e F/report.html.tmp ]'

# --- mnw merge: OUTDIR must be empty but for mnw.lock; each kind at mnw.lock refused ---
for i in 1 2; do timeout -k 2 60 "$MNW" -i s60.fa -o "S$i" -q -t 1 --shard "$i/2" >/dev/null 2>&1; done
bad=""
for kind in "${KINDS[@]}"; do
    rm -rf M && mkdir M && plant "$kind" M/mnw.lock && snap M > before
    timeout -k 2 10 "$MNW" merge M S1 S2 >out 2>&1
    rc=$?
    snap M > after
    if [ $rc -ne 1 ] || ! grep -Eq "M/mnw.lock: $said" out || ! cmp -s victim victim.orig || ! cmp -s before after; then
        bad+=" $kind(rc $rc: $(head -c 300 out))"
        cp victim.orig victim
    fi
done
rm -rf M
timeout -k 2 10 "$MNW" merge M S1 S2 >out 2>&1
rc=$?
check "mnw merge: each kind at mnw.lock refused, nothing changed; into an empty OUTDIR it merges (exit $rc)${bad:+:$bad}" '[ -z "$bad" ] && [ $rc -eq 0 ] && [ "$(find M -mindepth 1 ! -type f | wc -l)" -eq 0 ]'
finish
