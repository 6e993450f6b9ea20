#!/bin/bash
# tests/slurm/cluster.sh - a real Slurm cluster of three nodes on this one
# host, for the Slurm tests (see shared/design/SLURM-ON-ONE-HOST.md).
#
#   bash tests/slurm/cluster.sh up DIR     start it; DIR: absolute, empty or new
#   bash tests/slurm/cluster.sh down DIR   stop it and undo everything up did
#
# up  puts every file under DIR (configs in DIR/etc, munge in DIR/munge,
#     slurmctld in DIR/ctld, each node in DIR/nodes/NODE), writes DIR/env (to
#     `source`: SLURM_CONF and friends, so sbatch/srun/squeue/scontrol/sinfo/
#     scancel in the root namespace reach the controller) and returns 0 only
#     when every node is idle in sinfo. On failure it prints the tail of the
#     daemon logs, tears down what it started and exits non-zero. It refuses
#     while a cluster of this script is up (its bridge exists).
# down stops every daemon it started, by PID file (TERM, KILL after a few
#     seconds), and every process left in the nodes' namespaces (job steps),
#     deletes the network namespaces, veth links and bridge, unmounts what it
#     mounted, restores /etc/hosts byte for byte. Idempotent; safe after a
#     partial up. It leaves DIR (logs) in place.
#
# The cluster: slurmctld in the root namespace on bridge mnwsl0 (10.201.0.1,
# port 16817); nodes cpu1, cpu2 (partition cpu, CPUs=4 each) and gpu1
# (partition gpu, CPUs=2, Gres=gpu:1 backed by /dev/null); partition all =
# all three, the default. Each slurmd runs in its own network, UTS and mount
# namespace (hostname = node name, address 10.201.0.1x), so Slurm's PMIx
# plugin sees three real hosts and `srun --het-group=0,1 --mpi=pmix` works.
# Jobs run as root, see the host's filesystem (only SlurmdSpoolDir differs
# per node), share CPUs (OverSubscribe=FORCE:4) and requeue quickly: a
# requeued job may start again cred_expire + 1 s after it ended (10 s here,
# MNW_SLURM_CRED_EXPIRE=5..120 changes it; see write_slurm_conf).
#
# Needs: root; slurm-wlm, slurm-wlm-basic-plugins, munge (slurmctld, slurmd,
# clients, munged); iproute2 (ip); util-linux (unshare, nsenter, mount,
# findmnt); hostname; cgroups mounted on /sys/fs/cgroup (slurmd insists),
# bridge and veth support in the kernel. Checked with Debian 12's slurm-wlm
# 22.05.8, munge 0.5.15, Open MPI 4.1.4 with PMIx 4.2.
set -u

NODES=(cpu1 cpu2 gpu1)
declare -A NODE_ADDR=([cpu1]=10.201.0.11 [cpu2]=10.201.0.12 [gpu1]=10.201.0.13)
declare -A NODE_PORT=([cpu1]=16818 [cpu2]=16819 [gpu1]=16820)
CTLD_ADDR=10.201.0.1
CTLD_PORT=16817
PREFIX_LEN=24
BRIDGE=mnwsl0           # its alias holds the DIR of the cluster using it
NS_PREFIX=mnwsl-        # network namespaces mnwsl-cpu1 ...
VETH_PREFIX=mnwv-       # root-side veth ends mnwv-cpu1 ...
NS_IF=mnw0              # the node-side veth end, inside each namespace
HOSTS_TAG="# mnw-slurm-cluster"
NETNS_DIR=/run/netns    # where `ip netns` keeps its namespaces
STOP_WAIT=5             # seconds between TERM and KILL
UP_WAIT=120             # seconds for the nodes to come up (slow CI hosts)
CRED_EXPIRE=${MNW_SLURM_CRED_EXPIRE:-10}  # seconds; see write_slurm_conf

say() { echo "cluster: $*"; }
warn() { echo "cluster: WARNING: $*" >&2; }

# paths of one cluster folder; every path is absolute (daemons chdir to /)
set_paths() {
    D=$1
    ETC=$D/etc CONF=$D/etc/slurm.conf
    MUNGE=$D/munge SOCK=$D/munge/munge.socket.2
    CTLD=$D/ctld STATE=$D/state
    SPOOL=$D/spool      # the shared SlurmdSpoolDir; each node binds its own here
}

usage() {
    echo "usage: bash $0 up|down DIR   (DIR: an absolute path)" >&2
    exit 2
}

# ---------------------------------------------------------------- checks

need_root_and_tools() {
    local t missing=""
    [ "$(id -u)" = 0 ] || { say "must run as root"; exit 1; }
    for t in ip unshare nsenter mount umount findmnt hostname munged munge unmunge \
             slurmctld slurmd sinfo scontrol; do
        command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
    done
    if [ -n "$missing" ]; then
        say "missing commands:$missing (packages: slurm-wlm slurm-wlm-basic-plugins munge iproute2 util-linux hostname)"
        exit 1
    fi
}

# slurmd 22.05 starts its cgroup plugin whatever ProctrackType and TaskPlugin
# say, and exits when /sys/fs/cgroup holds no cgroup hierarchy it knows
# (cgroup v2, or a tmpfs with a v1 or v2 "systemd" one below it)
check_cgroups() {
    local t
    t=$(stat -f -c %T /sys/fs/cgroup 2>/dev/null)
    [ "$t" = tmpfs ] && t=$(stat -f -c %T /sys/fs/cgroup/systemd 2>/dev/null)
    case $t in cgroupfs | cgroup2fs) return 0 ;; esac
    say "slurmd needs cgroups mounted on /sys/fs/cgroup (found: ${t:-nothing}); in a chroot, bind-mount /sys"
    exit 1
}

# DIR ends up in slurm.conf, AuthInfo (a comma list) and unix socket paths
# (108 bytes at most, and PMIx puts names of its own below DIR/spool)
check_dir_name() {
    case $1 in /*) ;; *) say "DIR must be an absolute path: $1"; exit 2 ;; esac
    if [[ ! $1 =~ ^/[A-Za-z0-9._/+-]+$ ]]; then
        say "DIR may hold only letters, digits and . _ / + - : $1"; exit 2
    fi
    if [ -z "${1//\/}" ]; then say "DIR may not be /"; exit 2; fi
    if [ "${#1}" -gt 60 ]; then
        say "DIR is too long for unix socket paths below it (${#1} > 60 characters): $1"; exit 2
    fi
}

# refuse while a cluster of this script is up: its bridge, namespaces or
# /etc/hosts lines are still there
check_no_cluster() {
    local owner n
    if ip link show "$BRIDGE" >/dev/null 2>&1; then
        owner=$(bridge_owner)
        say "a cluster of this script is still up (bridge $BRIDGE exists, DIR ${owner:-unknown})"
        say "stop it first: bash $0 down ${owner:-DIR}"
        exit 1
    fi
    for n in "${NODES[@]}"; do
        if [ -e "$NETNS_DIR/$NS_PREFIX$n" ] || ip link show "$VETH_PREFIX$n" >/dev/null 2>&1; then
            say "network namespace or link of node $n is left from an earlier cluster; run: bash $0 down DIR (with that cluster's DIR)"
            exit 1
        fi
    done
    if grep -qF "$HOSTS_TAG" /etc/hosts; then
        owner=$(grep -F "$HOSTS_TAG" /etc/hosts | head -1 | sed "s/.*$HOSTS_TAG //")
        say "/etc/hosts still holds node lines of an earlier cluster; run: bash $0 down ${owner:-DIR}"
        exit 1
    fi
}

check_dir_empty() {
    if [ -e "$D" ] && [ ! -d "$D" ]; then say "DIR is not a folder: $D"; exit 2; fi
    if [ -e "$D" ] && [ -n "$(ls -A "$D" 2>/dev/null)" ]; then
        say "DIR is not empty: $D"; exit 2
    fi
}

# --------------------------------------------------------------- configs

make_layout() {
    local n
    mkdir -p "$ETC" "$MUNGE" "$CTLD/state" "$STATE" "$SPOOL" || return 1
    for n in "${NODES[@]}"; do mkdir -p "$D/nodes/$n/spool" || return 1; done
    # munged refuses folders that others may write to, and wants every folder
    # above its socket searchable by all (mktemp -d makes DIR 0700)
    chmod 0755 "$ETC" "$CTLD" "$D/nodes" "$MUNGE" && chmod a+x "$D"
}

write_slurm_conf() {
    local n
    {
        cat <<EOF
# written by tests/slurm/cluster.sh up $D
ClusterName=mnwtest
SlurmctldHost=$(hostname -s)($CTLD_ADDR)
SlurmctldPort=$CTLD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# cred_expire: the job credential lifetime, and also the time a requeued job
# waits before it may start again (begin time = requeue + cred_expire + 1 s,
# job_mgr.c); 120 s by default, 5 s the least Slurm 22.05 accepts. 10 s leaves
# a slow, loaded host time to deliver a launch before its credential expires.
AuthInfo=socket=$SOCK,cred_expire=$CRED_EXPIRE
MailProg=/bin/true
StateSaveLocation=$CTLD/state
SlurmctldPidFile=$CTLD/slurmctld.pid
SlurmctldLogFile=$CTLD/slurmctld.log
SlurmctldDebug=info
SlurmdSpoolDir=$SPOOL
SlurmdPidFile=$D/nodes/%n/slurmd.pid
SlurmdLogFile=$D/nodes/%n/slurmd.log
SlurmdDebug=info
PlugStackConfig=$ETC/plugstack.conf
# no cgroups: the namespaces are not containers, and cgroup v1 is a tmpfs here
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
GresTypes=gpu
# the node lines, not the host (2 cores), say how many CPUs a node has
SlurmdParameters=config_overrides
ReturnToService=2
# quick scheduling: hetjobs are placed by backfill only (bf_interval, 30 s by
# default); the main loop (60 s by default) picks up requeued jobs sooner
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1,sched_interval=2
JobRequeue=1
KillWait=5
MinJobAge=3600
MessageTimeout=20
InactiveLimit=0
Waittime=0
EOF
        for n in "${NODES[@]}"; do
            case $n in
                gpu*) echo "NodeName=$n NodeAddr=${NODE_ADDR[$n]} Port=${NODE_PORT[$n]} CPUs=2 RealMemory=4096 Gres=gpu:1 State=UNKNOWN" ;;
                *)    echo "NodeName=$n NodeAddr=${NODE_ADDR[$n]} Port=${NODE_PORT[$n]} CPUs=4 RealMemory=4096 State=UNKNOWN" ;;
            esac
        done
        # FORCE:4 lets up to four jobs share a CPU, so many small jobs run at once
        local p="MaxTime=UNLIMITED OverSubscribe=FORCE:4 State=UP"
        echo "PartitionName=cpu Nodes=cpu1,cpu2 $p"
        echo "PartitionName=gpu Nodes=gpu1 $p"
        echo "PartitionName=all Nodes=cpu1,cpu2,gpu1 Default=YES $p"
    } >"$CONF"
}

write_configs() {
    write_slurm_conf || return 1
    echo "NodeName=gpu1 Name=gpu File=/dev/null" >"$ETC/gres.conf" || return 1
    # the PMIx plugin keeps client files below this folder; it is the shared
    # spool path, which each node has bound to a folder of its own
    echo "PMIxCliTmpDirBase=$SPOOL" >"$ETC/mpi.conf" || return 1
    # our own (empty) plugstack, not the host's /etc/slurm one
    : >"$ETC/plugstack.conf" || return 1
    write_env
}

write_env() {
    {
        echo "# written by tests/slurm/cluster.sh up: source it to use that cluster"
        printf 'export SLURM_CONF=%q\n' "$CONF"
        printf 'export MNW_SLURM_DIR=%q\n' "$D"
        echo "# jobs run as root; sbatch and srun pass this on, so mpirun in a job accepts root"
        echo "export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"
    } >"$D/env"
}

# ------------------------------------------------------------ processes

# pid_of FILE PROGRAM : the pid in FILE when it is a live PROGRAM (a stale pid
# file, or a pid reused by another program, gives nothing). The process name,
# not the executable: Debian's /usr/sbin/slurmd is a link to slurmd-wlm.
pid_of() {
    local pid comm
    [ -s "$1" ] || return 1
    pid=$(tr -dc 0-9 <"$1")
    [ -n "$pid" ] && alive "$pid" || return 1
    comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
    [ "$comm" = "$2" ] || return 1
    echo "$pid"
}

# alive PID : running, not a zombie (no fork: down polls this on a busy host)
alive() {
    local stat
    read -r stat 2>/dev/null <"/proc/$1/stat" || return 1
    stat=${stat##*) }
    [ -n "$stat" ] && [ "${stat:0:1}" != Z ]
}

# still_alive PID... : sets LEFT to those of them still running
still_alive() {
    local p
    LEFT=()
    for p in "$@"; do alive "$p" && LEFT+=("$p"); done
    [ ${#LEFT[@]} -gt 0 ]
}

# stop_pids PID... : TERM, wait STOP_WAIT s, KILL (slurmstepd ignores TERM),
# wait again
stop_pids() {
    local end
    [ $# -gt 0 ] || return 0
    kill -TERM "$@" 2>/dev/null
    end=$((SECONDS + STOP_WAIT))
    while still_alive "$@" && [ $SECONDS -lt $end ]; do sleep 0.1; done
    still_alive "$@" || return 0
    say "still running after ${STOP_WAIT} s, KILL: ${LEFT[*]}"
    kill -KILL "${LEFT[@]}" 2>/dev/null
    end=$((SECONDS + STOP_WAIT))
    while still_alive "$@" && [ $SECONDS -lt $end ]; do sleep 0.1; done
    still_alive "$@" || return 0
    warn "did not exit even after KILL: ${LEFT[*]}"
    return 1
}

# wait_for SECONDS READY DEAD : poll the command READY until it succeeds
# (0), the command DEAD succeeds (1: a daemon died, no use waiting on) or
# SECONDS pass (1)
wait_for() {
    local end=$((SECONDS + $1))
    while :; do
        if $3; then return 1; fi
        if $2; then return 0; fi
        [ $SECONDS -lt $end ] || { say "gave up after $1 s"; return 1; }
        sleep 0.2
    done
}

# died LOG OUT PIDFILE NAME : that daemon failed: a fatal line in its log or
# in what it printed before it went into the background (OUT), or its pid
# file names a process that is gone
died() {
    grep -qs 'fatal:' "$1" "$2" && return 0
    grep -qs 'Error:' "$2" && return 0
    [ -s "$3" ] && ! pid_of "$3" "$4" >/dev/null
}

# ----------------------------------------------------------------- munge

start_munge() {
    say "munged (key, socket, log in $MUNGE)"
    head -c 1024 /dev/urandom >"$MUNGE/munge.key" && chmod 0400 "$MUNGE/munge.key" || return 1
    munged --key-file="$MUNGE/munge.key" --socket="$SOCK" --pid-file="$MUNGE/munged.pid" \
        --log-file="$MUNGE/munged.log" --seed-file="$MUNGE/munged.seed" \
        </dev/null >>"$MUNGE/munged.out" 2>&1 || return 1
    wait_for 10 munge_works munge_died
}

munge_died() { died "$MUNGE/munged.log" "$MUNGE/munged.out" "$MUNGE/munged.pid" munged; }

munge_works() { munge -n -S "$SOCK" 2>/dev/null | unmunge -S "$SOCK" >/dev/null 2>&1; }

# --------------------------------------------------------------- network

# ip netns add mounts /run/netns on itself when it is not yet a mount point;
# remember that so that down can undo it
note_netns_dir() {
    [ -d "$NETNS_DIR" ] || touch "$STATE/netns-dir-made"
    findmnt -rn "$NETNS_DIR" >/dev/null 2>&1 || touch "$STATE/netns-mount-made"
}

setup_network() {
    local n ns
    say "network: bridge $BRIDGE $CTLD_ADDR/$PREFIX_LEN, one namespace per node"
    note_netns_dir
    touch "$STATE/net" || return 1        # from here on, down removes the network
    ip link add "$BRIDGE" type bridge || return 1
    ip link set "$BRIDGE" alias "$D" || return 1
    ip addr add "$CTLD_ADDR/$PREFIX_LEN" dev "$BRIDGE" || return 1
    ip link set "$BRIDGE" up || return 1
    for n in "${NODES[@]}"; do
        ns=$NS_PREFIX$n
        ip netns add "$ns" || return 1
        ip link add "$VETH_PREFIX$n" type veth peer name "$NS_IF" netns "$ns" || return 1
        ip link set "$VETH_PREFIX$n" master "$BRIDGE" up || return 1
        ip -n "$ns" addr add "${NODE_ADDR[$n]}/$PREFIX_LEN" dev "$NS_IF" || return 1
        ip -n "$ns" link set "$NS_IF" up || return 1
        ip -n "$ns" link set lo up || return 1
    done
}

# bridge_owner : the DIR of the cluster whose bridge is up (its alias)
bridge_owner() { ip -o link show "$BRIDGE" 2>/dev/null | sed -n 's/.* alias \(.*\)$/\1/p'; }

# owns_net : the network is this DIR's to remove (its marker, or, when DIR
# was deleted meanwhile, the bridge's alias)
owns_net() { [ -e "$STATE/net" ] || [ "$(bridge_owner)" = "$D" ]; }

teardown_network() {
    local n owner
    owns_net || return 0
    for n in "${NODES[@]}"; do
        [ -e "$NETNS_DIR/$NS_PREFIX$n" ] && { ip netns delete "$NS_PREFIX$n" || warn "ip netns delete $NS_PREFIX$n failed"; }
        # deleting the namespace takes its veth pair along, a moment later
        ip link delete "$VETH_PREFIX$n" >/dev/null 2>&1
    done
    if ip link show "$BRIDGE" >/dev/null 2>&1; then
        owner=$(bridge_owner)
        if [ -z "$owner" ] || [ "$owner" = "$D" ]; then
            ip link delete "$BRIDGE" || warn "ip link delete $BRIDGE failed"
        else
            warn "bridge $BRIDGE belongs to the cluster in $owner; left alone"
        fi
    fi
    # undo what ip netns add did to /run/netns, when nothing else is in it
    if [ -e "$STATE/netns-mount-made" ] && [ -z "$(ls -A "$NETNS_DIR" 2>/dev/null)" ] &&
        findmnt -rn "$NETNS_DIR" >/dev/null 2>&1; then
        umount "$NETNS_DIR" || warn "umount $NETNS_DIR failed"
    fi
    if [ -e "$STATE/netns-dir-made" ] && [ -d "$NETNS_DIR" ] && [ -z "$(ls -A "$NETNS_DIR")" ] &&
        ! findmnt -rn "$NETNS_DIR" >/dev/null 2>&1; then
        rmdir "$NETNS_DIR"
    fi
    rm -f "$STATE/net" "$STATE/netns-mount-made" "$STATE/netns-dir-made"
}

# ---------------------------------------------------------------- hosts

# the node names in /etc/hosts (Open MPI, PMIx and Slurm resolve them in every
# namespace). Written in place, so a bind-mounted /etc/hosts works too.
add_hosts() {
    local n
    say "/etc/hosts: adding ${NODES[*]} (saved in $STATE/hosts.orig)"
    cp /etc/hosts "$STATE/hosts.orig" || return 1
    {
        cat "$STATE/hosts.orig"
        [ -z "$(tail -c1 "$STATE/hosts.orig")" ] || echo   # original lacked a final newline
        for n in "${NODES[@]}"; do echo "${NODE_ADDR[$n]} $n $HOSTS_TAG $D"; done
    } >"$STATE/hosts.ours" || return 1
    cat "$STATE/hosts.ours" >/etc/hosts
}

restore_hosts() {
    if [ ! -e "$STATE/hosts.orig" ]; then
        # DIR deleted while the cluster was up: take out our lines all the same
        if grep -qF "$HOSTS_TAG $D" /etc/hosts; then
            local kept
            kept=$(grep -vF "$HOSTS_TAG $D" /etc/hosts; echo x)   # x: keep final newlines
            printf '%s' "${kept%x}" >/etc/hosts && say "/etc/hosts: removed the node lines"
        fi
        return 0
    fi
    if cmp -s /etc/hosts "$STATE/hosts.ours"; then
        cat "$STATE/hosts.orig" >/etc/hosts || { warn "could not restore /etc/hosts"; return 1; }
        say "/etc/hosts restored"
    elif grep -qF "$HOSTS_TAG $D" /etc/hosts; then
        # changed by someone else meanwhile: take out only our lines
        grep -vF "$HOSTS_TAG $D" /etc/hosts >"$STATE/hosts.now"
        cat "$STATE/hosts.now" >/etc/hosts
        warn "/etc/hosts changed while the cluster was up: removed only its lines"
    fi
    rm -f "$STATE/hosts.orig" "$STATE/hosts.ours" "$STATE/hosts.now"
}

# ----------------------------------------------------------------- slurm

start_slurmctld() {
    say "slurmctld on $CTLD_ADDR:$CTLD_PORT (log $CTLD/slurmctld.log)"
    slurmctld -f "$CONF" </dev/null >>"$CTLD/slurmctld.out" 2>&1 || return 1
    wait_for 30 ctld_up ctld_died
}

ctld_died() { died "$CTLD/slurmctld.log" "$CTLD/slurmctld.out" "$CTLD/slurmctld.pid" slurmctld; }

# (a bounded ping: a port held by something else would keep it MessageTimeout)
ctld_up() { SLURM_CONF=$CONF timeout 5 scontrol ping 2>/dev/null | grep -q 'is UP'; }

# start_slurmd NODE : in new UTS and mount namespaces, inside the node's
# network namespace (nsenter, not `ip netns exec`: that remounts /sys and so
# hides the cgroup mounts slurmd wants); hostname NODE; the node's own spool
# bound onto the shared SlurmdSpoolDir path (Slurm's PMIx plugin uses that
# path unexpanded). That mount stays in the node (propagation slave: the
# host's mounts still reach the node, the node's do not leak out). Jobs get
# SLURM_CONF from slurmstepd, so scontrol works in them even with
# --export=NONE.
start_slurmd() {
    local n=$1 nd=$D/nodes/$1
    say "slurmd $n at ${NODE_ADDR[$n]}:${NODE_PORT[$n]} (log $nd/slurmd.log)"
    # shellcheck disable=SC2016
    unshare --uts --mount --propagation slave \
        nsenter --net="$NETNS_DIR/$NS_PREFIX$n" \
        /bin/sh -c 'hostname "$1" && mount --bind "$2" "$3" &&
                    exec slurmd -f "$4" -N "$1" ||
                    { echo "fatal: could not set up node $1" >&2; exit 1; }' \
        slurmd-start "$n" "$nd/spool" "$SPOOL" "$CONF" \
        </dev/null >>"$nd/slurmd.out" 2>&1
}

slurmd_pid() { pid_of "$D/nodes/$1/slurmd.pid" slurmd; }

# slurmds_started / slurmd_died : all of them run / one of them failed (its
# log, or its start command: hostname, mount, nsenter)
slurmds_started() {
    local n
    for n in "${NODES[@]}"; do slurmd_pid "$n" >/dev/null || return 1; done
}
slurmd_died() {
    local n nd
    for n in "${NODES[@]}"; do
        nd=$D/nodes/$n
        died "$nd/slurmd.log" "$nd/slurmd.out" "$nd/slurmd.pid" slurmd && return 0
    done
    return 1
}

# all_idle : every node idle (a node shows once per partition)
all_idle() {
    local out n
    out=$(SLURM_CONF=$CONF timeout 10 sinfo -h -N -o '%N %T' 2>/dev/null | sort -u) || return 1
    for n in "${NODES[@]}"; do
        [ "$(grep -c "^$n " <<<"$out")" = 1 ] && grep -qx "$n idle" <<<"$out" || return 1
    done
}

start_slurmds() {
    local n
    for n in "${NODES[@]}"; do start_slurmd "$n" || return 1; done
    wait_for 30 slurmds_started slurmd_died || { say "a slurmd did not start"; return 1; }
    say "waiting for ${NODES[*]} to be idle"
    wait_for "$UP_WAIT" all_idle slurmd_died
}

# ------------------------------------------------------------- failures

show_logs() {
    local f
    for f in "$MUNGE/munged.out" "$MUNGE/munged.log" "$CTLD/slurmctld.out" "$CTLD/slurmctld.log" \
             "$D"/nodes/*/slurmd.out "$D"/nodes/*/slurmd.log; do
        [ -s "$f" ] || continue
        echo "cluster: ---- tail of $f"
        tail -n 15 "$f" | sed 's/^/cluster: | /'
    done
    if pid_of "$CTLD/slurmctld.pid" slurmctld >/dev/null; then
        echo "cluster: ---- sinfo"
        SLURM_CONF=$CONF timeout 10 sinfo -N -l 2>&1 | sed 's/^/cluster: | /'
    fi
}

fail_up() {
    trap - INT TERM
    say "up FAILED: $*"
    show_logs
    say "tearing down what was started"
    do_down
    exit 1
}

# ------------------------------------------------------------------ down

# every process in the nodes' network namespaces: slurmd, slurmstepd, jobs
ns_pids() {
    local n
    for n in "${NODES[@]}"; do
        [ -e "$NETNS_DIR/$NS_PREFIX$n" ] && ip netns pids "$NS_PREFIX$n" 2>/dev/null
    done
}

# pids_by_argv NAME ARG : processes named NAME with the argument ARG (a path
# in DIR), for when DIR, and so the pid file, was deleted under a running
# cluster
pids_by_argv() {
    local f pid comm
    for f in /proc/[0-9]*/cmdline; do
        pid=${f#/proc/} && pid=${pid%/cmdline}
        read -r comm 2>/dev/null <"/proc/$pid/comm" || continue
        [ "$comm" = "$1" ] || continue
        tr '\0' '\n' 2>/dev/null <"$f" | grep -qxF -- "$2" && echo "$pid"
    done
}

# daemon_pids PIDFILE NAME ARG : by its pid file, or, when DIR is gone, by
# the argument naming our DIR
daemon_pids() {
    if [ -d "$D" ]; then pid_of "$1" "$2"; else pids_by_argv "$2" "$3"; fi
}

stop_daemons() {
    local pids=() p n
    for p in $(daemon_pids "$CTLD/slurmctld.pid" slurmctld "$CONF"); do pids+=("$p"); done
    for n in "${NODES[@]}"; do p=$(slurmd_pid "$n") && pids+=("$p"); done
    if owns_net; then
        for p in $(ns_pids); do pids+=("$p"); done
    fi
    if [ ${#pids[@]} -gt 0 ]; then
        mapfile -t pids < <(printf '%s\n' "${pids[@]}" | sort -un)
        say "stopping slurmctld, slurmd and job processes: ${pids[*]}"
        stop_pids "${pids[@]}"
    fi
    # a step may have forked while we stopped the others
    if owns_net; then
        mapfile -t pids < <(ns_pids)
        if [ ${#pids[@]} -gt 0 ]; then
            say "stopping processes left in the nodes' namespaces: ${pids[*]}"
            stop_pids "${pids[@]}"
        fi
    fi
    # munge last: the others may still authenticate while they stop
    mapfile -t pids < <(daemon_pids "$MUNGE/munged.pid" munged "--socket=$SOCK")
    if [ ${#pids[@]} -gt 0 ]; then
        say "stopping munged: ${pids[*]}"
        stop_pids "${pids[@]}"
    fi
}

# bind mounts live in the nodes' mount namespaces and end with their last
# process; this only catches one that leaked into the root namespace
unmount_leftovers() {
    local m
    findmnt -rn -o TARGET | awk -v d="$D" '$0 == d || index($0, d "/") == 1' | sort -r |
    while read -r m; do
        say "unmounting $m"
        umount "$m" || umount -l "$m"
    done
}

do_down() {
    stop_daemons
    teardown_network
    unmount_leftovers
    restore_hosts
}

# ------------------------------------------------------------------- main

cmd_up() {
    local t0=$SECONDS
    if [[ ! $CRED_EXPIRE =~ ^[0-9]+$ ]] || [ "$CRED_EXPIRE" -lt 5 ]; then
        say "MNW_SLURM_CRED_EXPIRE must be a whole number of seconds, 5 or more (Slurm's least)"; exit 2
    fi
    check_no_cluster
    check_dir_empty
    mkdir -p "$D" || exit 1
    make_layout || { say "cannot create folders in $D"; exit 1; }
    trap 'fail_up "interrupted"' INT TERM
    write_configs || fail_up "cannot write configs in $ETC"
    start_munge || fail_up "munged did not start"
    setup_network || fail_up "network setup failed"
    add_hosts || fail_up "cannot edit /etc/hosts"
    start_slurmctld || fail_up "slurmctld did not come up"
    start_slurmds || fail_up "the nodes did not all come up idle"
    trap - INT TERM
    SLURM_CONF=$CONF sinfo | sed 's/^/cluster: | /'
    say "up in $((SECONDS - t0)) s; use: source $D/env"
}

cmd_down() {
    local t0=$SECONDS
    [ -d "$D" ] || say "no folder $D: stopping what its cluster may have left (bridge, namespaces, /etc/hosts lines, daemons run with its paths)"
    do_down
    say "down in $((SECONDS - t0)) s"
}

[ $# -eq 2 ] || usage
check_dir_name "$2"
need_root_and_tools
set_paths "${2%/}"
case $1 in
    up) check_cgroups && cmd_up ;;
    down) cmd_down ;;
    *) usage ;;
esac
