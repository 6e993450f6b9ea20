#!/usr/bin/env bash
# scripts/fresh-check.sh - the README's quick start on a bare Debian root, as a
# new user would run it: debootstraps a minbase Debian 12 (bookworm) or 13
# (trixie) with only git and make (and sudo for --user), clones the working
# tree into it (HEAD plus uncommitted changes and untracked, not ignored,
# files, as one commit of a real git clone) and runs `make demo` then
# `make test` in the clone, as root or as a user, printing each command's wall
# time and exit status. Exits 0 when every command exits 0 (and make test ends
# "N passed, 0 failed"); 1 when a check fails; 2 on a bad command line; 3 when
# the bare root could not be made.
#
# The mirror comes from this machine's apt configuration (the Debian archive
# and security entries of /etc/apt/sources.list, sources.list.d/*.list and
# *.sources), or from MNW_FRESH_MIRROR / MNW_FRESH_SECURITY_MIRROR (none: no
# security entry); it is written only into the bare root, never the repo.
# The bare root is cached as a tarball (${XDG_CACHE_HOME:-~/.cache}/mnw-fresh-check/)
# and unpacked afresh for every check, so nothing an earlier check installed
# lingers. Runs in a private mount namespace (unshare), with a trap that stops
# what still runs in the root and unmounts it, so no mount outlives the check.
# Needs root, debootstrap (apt-get install debootstrap), git, tar, chroot.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: scripts/fresh-check.sh [options]
  --suite bookworm|trixie  Debian 12 or 13 (default bookworm)
  --user                   run the commands as a non-root user with passwordless sudo
  --user-nosudo            as a plain user without sudo: `make demo` must refuse
                           (exit non-zero) and name the packages to install
  --demo-only              run only `make demo`
  --cmd 'COMMAND'          run COMMAND in the clone instead of the README's two
                           (repeatable; in order; e.g. --cmd 'make -s demo')
  --fail-fast              stop after the first command that fails
  --no-cache               debootstrap again (replaces the cached tarball)
  --keep                   keep the work directory (bare root, clone, logs)
  --shell                  after the commands, an interactive login shell in the root
  --workdir DIR            where the work directory is made (default /var/tmp)
  --cache-dir DIR          tarball cache (default ${XDG_CACHE_HOME:-$HOME/.cache}/mnw-fresh-check)
  --mirror URL             Debian archive mirror (default: from this machine's apt sources)
  -h, --help
environment: MNW_FRESH_MIRROR, MNW_FRESH_SECURITY_MIRROR (URL or "none"),
             MNW_FRESH_WORKDIR, MNW_FRESH_CACHE
EOF
}

say() { echo "fresh-check: $*"; }
die() { echo "fresh-check: error: $1" >&2; exit "${2:-3}"; }

suite=bookworm mode=root demo_only=0 fail_fast=0 no_cache=0 keep=0 shell=0
cmds=()
workparent=${MNW_FRESH_WORKDIR:-/var/tmp}
cachedir=${MNW_FRESH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mnw-fresh-check}
mirror=${MNW_FRESH_MIRROR:-}
args=("$@")
while [ $# -gt 0 ]; do
    case $1 in
    --suite) [ $# -ge 2 ] || die "--suite needs a value" 2; suite=$2; shift ;;
    --suite=*) suite=${1#*=} ;;
    --user) mode=user ;;
    --user-nosudo) mode=nosudo ;;
    --demo-only) demo_only=1 ;;
    --cmd) [ $# -ge 2 ] || die "--cmd needs a value" 2; cmds+=("$2"); shift ;;
    --cmd=*) cmds+=("${1#*=}") ;;
    --fail-fast) fail_fast=1 ;;
    --no-cache) no_cache=1 ;;
    --keep) keep=1 ;;
    --shell) shell=1 ;;
    --workdir) [ $# -ge 2 ] || die "--workdir needs a value" 2; workparent=$2; shift ;;
    --workdir=*) workparent=${1#*=} ;;
    --cache-dir) [ $# -ge 2 ] || die "--cache-dir needs a value" 2; cachedir=$2; shift ;;
    --cache-dir=*) cachedir=${1#*=} ;;
    --mirror) [ $# -ge 2 ] || die "--mirror needs a value" 2; mirror=$2; shift ;;
    --mirror=*) mirror=${1#*=} ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown option: $1" 2 ;;
    esac
    shift
done
case $suite in
bookworm | trixie) ;;
*) die "--suite must be bookworm or trixie, not '$suite'" 2 ;;
esac
if [ ${#cmds[@]} -eq 0 ]; then
    if [ "$demo_only" -eq 1 ] || [ "$mode" = nosudo ]; then cmds=("make demo"); else cmds=("make demo" "make test"); fi
fi

PATH=$PATH:/usr/sbin:/sbin # debootstrap, chroot: root's tools even from a PATH without them
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot, mounts): run it as root, e.g. sudo bash $0 ${args[*]}"
command -v debootstrap >/dev/null || die "debootstrap not found: install it with  apt-get install debootstrap"
for t in git tar chroot mount umount; do
    command -v "$t" >/dev/null || die "$t not found"
done
repo=$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel 2>/dev/null) || die "not inside a git work tree"

# A private mount namespace: every mount below is gone when the check ends,
# however it ends; the trap unmounts them too.
if [ -z "${MNW_FRESH_NS:-}" ] && command -v unshare >/dev/null && unshare --mount --propagation private true 2>/dev/null; then
    exec env MNW_FRESH_NS=1 unshare --mount --propagation private -- bash "${BASH_SOURCE[0]}" "${args[@]}"
fi
[ -n "${MNW_FRESH_NS:-}" ] || say "note: no private mount namespace (unshare failed); mounts are made private and unmounted by the trap"

fmt_time() { # seconds -> 2m13s / 1h02m03s
    local s=$1
    if [ "$s" -ge 3600 ]; then
        printf '%dh%02dm%02ds' $((s / 3600)) $((s % 3600 / 60)) $((s % 60))
    else printf '%dm%02ds' $((s / 60)) $((s % 60)); fi
}

# --- the mirror, from this machine's apt configuration ----------------------
# prints "URI SUITE COMPONENTS... FILE" for each deb entry (one-line and deb822)
apt_entries() {
    local f
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        awk -v f="$f" '{ sub(/#.*/, "") }
            $1 == "deb" { i = 2
                if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
                if (i + 1 > NF) next
                line = $i " " $(i + 1); for (j = i + 2; j <= NF; j++) line = line " " $j
                print line, f }' "$f"
    done
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk -v f="$f" '
            function flush(   n, m, a, b, i, j) {
                if ((" " types " ") ~ / deb / && enabled != "no") {
                    n = split(uris, a, " "); m = split(suites, b, " ")
                    for (i = 1; i <= n; i++) for (j = 1; j <= m; j++) print a[i], b[j], comps, f
                }
                types = uris = suites = comps = enabled = key = ""
            }
            /^#/ { next }
            /^[ \t]*$/ { flush(); next }
            /^[^ \t]/ { key = tolower($0); sub(/:.*/, "", key); val = $0; sub(/^[^:]*:/, "", val) }
            /^[ \t]/ { val = $0 }
            { gsub(/[ \t]+/, " ", val)
              if (key == "types") types = types " " val
              else if (key == "uris") uris = uris " " val
              else if (key == "suites") suites = suites " " val
              else if (key == "components") comps = comps " " val
              else if (key == "enabled") { split(val, e, " "); enabled = tolower(e[1]) } }
            END { flush() }' "$f"
    done
}
# the first lines of URI/dists/SUITE/InRelease (or Release), for the Origin and Label
release_head() {
    local u=$1/dists/$2 f
    case $u in
    file:*)
        for f in "${u#file:}/InRelease" "${u#file:}/Release"; do
            [ -f "$f" ] && { sed -n 1,25p "$f"; return 0; }
        done
        return 1 ;;
    esac
    local out=""
    if command -v wget >/dev/null; then
        out=$(wget -q -T 20 -O- "$u/InRelease" 2>/dev/null || wget -q -T 20 -O- "$u/Release" 2>/dev/null) || true
    elif command -v curl >/dev/null; then
        out=$(curl -fsS -m 20 "$u/InRelease" 2>/dev/null || curl -fsS -m 20 "$u/Release" 2>/dev/null) || true
    else
        return 2
    fi
    [ -n "$out" ] || return 1
    sed -n 1,25p <<<"$out"
}
codenames='bullseye|bookworm|trixie|forky|duke|sid|stable|oldstable|oldoldstable|testing|unstable|buster|stretch'
arch_cands=() sec_cands=()
while read -r uri s rest; do
    uri=${uri%/}
    case $uri in http://* | https://* | ftp://* | file:/*) ;; *) continue ;; esac
    case " $rest " in *" main "*) ;; *) continue ;; esac
    src=${rest##* }
    if [[ $s =~ ^($codenames)(-security|/updates)$ ]]; then
        sec_cands+=("$uri $src")
    elif [[ $s =~ ^($codenames)(-updates|-backports|-proposed-updates)?$ ]]; then
        arch_cands+=("$uri $src")
    fi
done < <(apt_entries)
pick() { # pick LABEL CANDIDATE...: the first candidate whose InRelease says Origin Debian, Label LABEL
    local label=$1 c u
    shift
    for c in "$@"; do
        u=${c%% *}
        if release_head "$u" "$suite$([ "$label" = Debian-Security ] && echo -security)" | grep -q "^Label: $label\$"; then
            echo "$c"; return 0
        fi
    done
    [ $# -gt 0 ] && { echo "$1"; return 0; } # none answered: the first one
    return 1
}
mirror_from="MNW_FRESH_MIRROR/--mirror"
if [ -z "$mirror" ]; then
    c=$(pick Debian "${arch_cands[@]}") || die "no Debian archive entry (deb URI SUITE main) in /etc/apt/sources.list, sources.list.d/*.list or *.sources: set MNW_FRESH_MIRROR=http://deb.debian.org/debian (or a mirror near you)"
    mirror=${c%% *} mirror_from=${c#* }
fi
mirror=${mirror%/}
security=${MNW_FRESH_SECURITY_MIRROR:-}
security_from="MNW_FRESH_SECURITY_MIRROR"
if [ -z "$security" ]; then
    if c=$(pick Debian-Security "${sec_cands[@]}"); then security=${c%% *} security_from=${c#* }; else security=none; fi
fi
security=${security%/}
# the mirror must carry the suite
rel=$(release_head "$mirror" "$suite" || true)
if [ -n "$rel" ] && ! grep -q "^Codename: $suite\$" <<<"$rel"; then
    die "$mirror has no $suite (its dists/$suite/InRelease names another codename): set MNW_FRESH_MIRROR"
fi

# --- the working tree as one commit ------------------------------------------
# HEAD, or a commit on top of it holding the uncommitted changes to tracked
# files and the untracked files git does not ignore (a temporary index; the
# repository's own index, refs and work tree are not touched).
head=$(git -C "$repo" rev-parse HEAD)
branch=$(git -C "$repo" symbolic-ref -q --short HEAD || echo fresh-check)
tmpidx=$(mktemp)
cp "$(git -C "$repo" rev-parse --path-format=absolute --git-path index)" "$tmpidx" 2>/dev/null || rm -f "$tmpidx"
GIT_INDEX_FILE=$tmpidx git -C "$repo" add -A . >/dev/null
tree=$(GIT_INDEX_FILE=$tmpidx git -C "$repo" write-tree)
rm -f "$tmpidx"
if [ "$tree" = "$(git -C "$repo" rev-parse 'HEAD^{tree}')" ]; then
    commit=$head
    commit_desc="$(git -C "$repo" rev-parse --short HEAD) (clean)"
else
    nchanged=$(git -C "$repo" diff-tree -r --name-only "$head" "$tree" | wc -l)
    commit=$(GIT_AUTHOR_NAME=fresh-check GIT_AUTHOR_EMAIL=fresh-check@localhost \
        GIT_COMMITTER_NAME=fresh-check GIT_COMMITTER_EMAIL=fresh-check@localhost \
        git -C "$repo" commit-tree -p "$head" -m "fresh-check: the working tree on top of $(git -C "$repo" rev-parse --short HEAD)" "$tree")
    commit_desc="$(git -C "$repo" rev-parse --short HEAD) + uncommitted changes in $nchanged files (as commit $(git -C "$repo" rev-parse --short "$commit"))"
fi

# --- the bare root (cached tarball) ------------------------------------------
case $mode in
user) include=git,make,sudo tarname=$suite-minbase-git-make-sudo ;;
*) include=git,make tarname=$suite-minbase-git-make ;;
esac
case $mirror in https://*) include=$include,ca-certificates tarname=$tarname-ca ;; esac
tarball=$cachedir/$tarname.tar
mkdir -p "$workparent"
work=$(mktemp -d "$workparent/mnw-fresh-check.$suite.XXXXXX")
chmod 755 "$work"
root=$(cd "$work" && pwd -P)/root

mounted_under() { # mount points at or below $1, deepest first
    awk -v r="$1" '{ m = $5; gsub(/\\040/, " ", m) } m == r || index(m, r "/") == 1 { print m }' /proc/self/mountinfo | sort -r
}
# shellcheck disable=SC2317 # called from the trap
stop_root_procs() { # ends the processes still running with $root as their root (ours: started in the chroot)
    local sig p pids
    for sig in TERM KILL; do
        pids=()
        for p in /proc/[0-9]*; do
            [ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && pids+=("${p#/proc/}")
        done
        [ ${#pids[@]} -eq 0 ] && return 0
        say "stopping ${#pids[@]} process(es) left in the root (SIG$sig): ${pids[*]}"
        kill -s "$sig" "${pids[@]}" 2>/dev/null || true
        sleep 2
    done
}
unmount_all() { # everything mounted under the work directory, deepest first
    local m tries
    for tries in 1 2 3; do
        [ -n "$(mounted_under "$work")" ] || return 0
        while read -r m; do
            [ -n "$m" ] && { umount "$m" 2>/dev/null || { [ "$tries" -eq 3 ] && umount -l "$m"; } || true; }
        done < <(mounted_under "$work")
        sleep 1
    done
    [ -z "$(mounted_under "$work")" ]
}
cleaned=0
# shellcheck disable=SC2317 # called from the trap
cleanup() {
    [ "$cleaned" -eq 1 ] && return 0
    cleaned=1
    [ -d "$root" ] && stop_root_procs
    if ! unmount_all; then
        echo "fresh-check: error: still mounted, $work left in place:" >&2
        mounted_under "$work" >&2
        return 0
    fi
    if [ "$keep" -eq 1 ]; then
        say "kept: $work (root: $root)"
    else
        rm -rf --one-file-system "$work"
    fi
    return 0
}
trap cleanup EXIT
trap 'echo; say "interrupted"; cleanup; exit 130' INT
trap 'say "terminated"; cleanup; exit 143' TERM HUP

if [ "$no_cache" -eq 1 ] || [ ! -s "$tarball" ]; then
    mkdir -p "$cachedir"
    deb_tmp=$work/debootstrap
    say "debootstrap --variant=minbase --include=$include $suite from $mirror (cached afterwards as $tarball)"
    t0=$(date +%s)
    if ! debootstrap --variant=minbase --include="$include" --components=main "$suite" "$deb_tmp" "$mirror" >"$work/debootstrap.out" 2>&1; then
        tail -n 20 "$work/debootstrap.out" >&2
        [ -f "$deb_tmp/debootstrap/debootstrap.log" ] && tail -n 20 "$deb_tmp/debootstrap/debootstrap.log" >&2
        unmount_all || true
        die "debootstrap of $suite failed (its output above)"
    fi
    unmount_all || die "debootstrap left mounts behind under $work"
    # no package lists or .debs: a check starts with nothing apt downloaded
    chroot "$deb_tmp" apt-get clean >/dev/null 2>&1 || true
    find "$deb_tmp/var/lib/apt/lists" -mindepth 1 -maxdepth 1 -type f -delete 2>/dev/null || true
    rm -f "$deb_tmp/etc/apt/sources.list"
    tar -C "$deb_tmp" --numeric-owner -cf "$tarball.tmp" . || die "could not write $tarball.tmp"
    mv -f "$tarball.tmp" "$tarball"
    rm -rf --one-file-system "$deb_tmp"
    deb_tmp=
    say "bare root made in $(fmt_time $(($(date +%s) - t0))): $tarball ($(du -h "$tarball" | cut -f1))"
fi
mkdir "$root"
tar -C "$root" --numeric-owner -xpf "$tarball" || die "could not unpack $tarball"

# --- the root's setup: apt sources, network files, mounts, the user --------
{
    echo "deb $mirror $suite main"
    echo "deb $mirror $suite-updates main"
    [ "$security" = none ] || echo "deb $security $suite-security main"
} >"$root/etc/apt/sources.list"
# this machine's proxy and release-date settings, if it has any (network, not packages)
aptconf=$(apt-config dump 2>/dev/null | grep -E '^Acquire::([a-z]+::Proxy|Check-Valid-Until|Check-Date) ' || true)
[ -n "$aptconf" ] && printf '%s\n' "$aptconf" >"$root/etc/apt/apt.conf.d/99fresh-check-host"
rm -f "$root/etc/resolv.conf" "$root/etc/hosts"
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || say "note: no /etc/resolv.conf here"
cp -L /etc/hosts "$root/etc/hosts"
# the root a mount point of its own, as a booted system's / is (make
# test-slurm's node namespaces run mount --make-rslave /)
mount --bind "$root" "$root"
[ -n "${MNW_FRESH_NS:-}" ] || mount --make-private "$root"
mount -t proc proc "$root/proc"
mount -t sysfs sysfs "$root/sys"
# the host's cgroups, as a booted Debian has them (a fresh sysfs has none;
# slurmd in make test-slurm needs them)
if grep -q ' /sys/fs/cgroup ' /proc/self/mountinfo && [ -d "$root/sys/fs/cgroup" ]; then
    mount --rbind /sys/fs/cgroup "$root/sys/fs/cgroup"
    [ -n "${MNW_FRESH_NS:-}" ] || mount --make-rprivate "$root/sys/fs/cgroup"
fi
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
mount -t tmpfs -o mode=1777,nosuid,nodev shm "$root/dev/shm"
[ -n "${MNW_FRESH_NS:-}" ] || for m in "$root/proc" "$root/sys" "$root/dev" "$root/dev/pts" "$root/dev/shm"; do mount --make-private "$m"; done

user=root home=/root
case $mode in
user | nosudo)
    user=newuser home=/home/newuser
    chroot "$root" useradd -m -s /bin/bash "$user"
    if [ "$mode" = user ]; then
        echo "$user ALL=(ALL) NOPASSWD:ALL" >"$root/etc/sudoers.d/$user"
        chmod 0440 "$root/etc/sudoers.d/$user"
    fi ;;
esac
case $mode in
root) mode_desc="root" ;;
user) mode_desc="user $user with passwordless sudo" ;;
nosudo) mode_desc="user $user without sudo (sudo installed: $([ -x "$root/usr/bin/sudo" ] && echo yes || echo no))" ;;
esac

# the project as a bare repository in the root, cloned by the check's user
git init -q --bare "$root/srv/mnw.git"
git -C "$repo" push -q --no-verify "$root/srv/mnw.git" "$commit:refs/heads/$branch"
if git -C "$repo" tag | grep -q .; then
    git -C "$repo" push -q --no-verify "$root/srv/mnw.git" 'refs/tags/*:refs/tags/*'
fi
git -C "$root/srv/mnw.git" symbolic-ref HEAD "refs/heads/$branch"
[ "$user" = root ] || chroot "$root" chown -R "$user:" /srv/mnw.git

in_root() { # COMMAND: a login shell of the check's user in the root runs COMMAND
    chroot "$root" /usr/bin/env -i TERM="${TERM:-dumb}" /bin/su -l "$user" -c "$1"
}

say "suite $suite (Debian $(cat "$root/etc/debian_version")), $mode_desc"
say "commit $commit_desc"
say "mirror $mirror (from $mirror_from); security ${security} ${security_from:+(from $security_from)}"
say "work directory $work"
in_root "git clone -q /srv/mnw.git mnw" || die "git clone in the root failed"
say "cloned into $home/mnw: $(in_root 'git -C mnw log -1 --format="%h %s"')"

names=() statuses=() times=() lasts=() tallies=()
failed=0
for cmd in "${cmds[@]}"; do
    i=${#names[@]}
    log=$work/cmd$i.log
    echo
    say "=== $cmd   (as $user in $home/mnw)"
    t0=$(date +%s)
    # in the background and waited for, so that a signal to this script runs
    # its trap at once (it stops what runs in the root), not after the command
    set +e
    (in_root "cd mnw && $cmd" </dev/null 2>&1 | tee "$log"; exit "${PIPESTATUS[0]}") &
    wait $!
    rc=$?
    set -e
    dt=$(($(date +%s) - t0))
    last=$(tr -d '\r' <"$log" | sed 's/\x1b\[[0-9;]*[A-Za-z]//g' | awk 'NF { l = $0 } END { print l }')
    tally=$(tr -d '\r' <"$log" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1 || true)
    names+=("$cmd") statuses+=("$rc") times+=("$dt") lasts+=("$last") tallies+=("$tally")
    ok=1
    if [ "$mode" = nosudo ]; then
        # the refusal: non-zero, and what to install named
        if [ "$rc" -eq 0 ] || ! grep -qE 'apt(-get)? install [a-z0-9]' "$log"; then ok=0; fi
    else
        [ "$rc" -eq 0 ] || ok=0
        if [ "$cmd" = "make test" ] && ! [[ $last =~ ^[0-9]+\ passed,\ 0\ failed$ ]]; then ok=0; fi
    fi
    say "$cmd: $rc ($(fmt_time "$dt"))$([ "$ok" -eq 1 ] || echo "  FAILED")"
    [ "$ok" -eq 1 ] || failed=1
    [ "$ok" -eq 1 ] || [ "$fail_fast" -eq 0 ] || break
done

echo
toolchain=$(in_root '{ command -v gcc >/dev/null && gcc --version | head -1 || echo "no gcc"; } ; { command -v mpirun >/dev/null && mpirun --version 2>&1 | head -1 || echo "no mpirun"; }' 2>/dev/null | paste -sd ';' - || true)
say "in the root now: ${toolchain//;/, }"
say "suite $suite, $mode_desc, commit $commit_desc"
summary=""
for i in "${!names[@]}"; do
    echo "${names[$i]}: ${statuses[$i]} ($(fmt_time "${times[$i]}"))"
    echo "    last line: ${lasts[$i]}"
    [ -z "${tallies[$i]}" ] || [ "${tallies[$i]}" = "${lasts[$i]}" ] || echo "    tests: ${tallies[$i]}"
    summary+="${summary:+, }${names[$i]} ${statuses[$i]} ($(fmt_time "${times[$i]}")${tallies[$i]:+; ${tallies[$i]}})"
done
if [ "$mode" = nosudo ]; then
    what="refusal as a user without sudo"
    [ "$failed" -eq 0 ] && verdict="OK (exit non-zero, packages named)" || verdict="NOT OK (expected a non-zero exit naming the packages to install)"
else
    what="quick start"
    [ "$failed" -eq 0 ] && verdict=PASS || verdict=FAIL
fi
if [ "$shell" -eq 1 ] && [ -t 0 ]; then
    say "a login shell as $user in the root; exit it to end the check"
    chroot "$root" /usr/bin/env -i TERM="${TERM:-dumb}" /bin/su -l "$user" || true
fi
say "$what $verdict: $suite, $mode_desc, $(git -C "$repo" rev-parse --short "$commit"): $summary"
exit "$failed"
