#!/usr/bin/env bash
# A flake hunt on a real Slurm cluster: the test starts a one-node cluster
# from Debian's packages (munged, slurmctld, slurmd; a generated
# slurm.conf, this host the only node, ports on localhost, all state
# under $TMP), submits the array job that scripts/slurm-replay writes (4
# shards of toyc's seeded flaky crash under GDB), merges the shards, and
# stops the cluster. The merged hunt must find what one replay of the same
# attempts finds.
. "$(dirname "$0")/../lib.sh"
. "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers gdb
. "$IRSNAP_ROOT/tests/replay/replay_lib.sh"

missing=
for cmd in munged slurmctld slurmd sbatch sinfo squeue; do
	command -v $cmd >/dev/null 2>&1 || PATH=$PATH:/usr/sbin
	command -v $cmd >/dev/null 2>&1 || missing="$missing $cmd"
done
if [ -n "$missing" ]; then
	not_ok "Slurm and munge are installed" "missing:$missing; install them: scripts/install-deps (Debian: apt-get install slurmctld slurmd slurm-client munge)"
	done_testing
	exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
	not_ok "the Slurm test runs as root" "slurmd must start jobs as their user; run make test as root (CI does)"
	done_testing
	exit 1
fi

S=$TMP/slurm
mkdir -p "$S/state" "$S/spool" "$S/munge"
chmod 700 "$S/munge"

# Two free TCP ports on localhost for slurmctld and slurmd.
read -r CTLD_PORT SLURMD_PORT < <(python3 -c '
import socket
ps = []
for _ in range(2):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); ps.append(s)
print(*[s.getsockname()[1] for s in ps])')
NODE=irsnap-node
cat >"$S/slurm.conf" <<CONF
ClusterName=irsnaptest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$S/munge/socket
CredType=cred/munge
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/slurmctld.log
SlurmdLogFile=$S/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$NODE NodeHostname=$(hostname) NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=irsnap Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$S/slurm.conf

stop_cluster() {
	for f in "$S/slurmd.pid" "$S/slurmctld.pid"; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	munged -S "$S/munge/socket" --stop >/dev/null 2>&1
	sleep 0.5
	for f in "$S/slurmd.pid" "$S/slurmctld.pid" "$S/munge/pid"; do
		[ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null
	done
	rm -rf "$TMP"
}
trap stop_cluster EXIT

dd if=/dev/urandom of="$S/munge/key" bs=1024 count=1 2>/dev/null
chmod 600 "$S/munge/key"
check "munged starts" munged --force -S "$S/munge/socket" --key-file="$S/munge/key" \
	--log-file="$S/munge/log" --pid-file="$S/munge/pid" --seed-file="$S/munge/seed"
check "slurmctld starts" slurmctld -f "$SLURM_CONF"
check "slurmd starts" slurmd -f "$SLURM_CONF" -N "$NODE"
up=
for _ in $(seq 1 100); do
	if sinfo -h -o '%T' 2>/dev/null | grep -q idle; then up=1; break; fi
	sleep 0.2
done
if [ -n "$up" ]; then ok "the one-node cluster is up: $(sinfo -h -o '%P %D %T')"
else
	not_ok "the one-node cluster comes up" "$(sinfo 2>&1 | tail -2)" "$(tail -3 "$S/slurmctld.log" "$S/slurmd.log" 2>&1)"
	done_testing; exit 1
fi

# ---- hostile names: refused, or quoted as sbatch reads them --------------
# A line break in --dir made the rest of the name a line of the batch
# script (and ended sbatch's #SBATCH lines there).
(cd "$TMP" && "$IRSNAP_ROOT/scripts/slurm-replay" -N 2 \
	--dir $'hunt\ntouch INJECTED #' -- --runs 1 --layout "$LAYOUT" \
	-- "${PROG[@]}") >"$TMP/nl.out" 2>"$TMP/nl.err"
check_eq "slurm-replay refuses a --dir with a line break (exit 2)" 2 $?
check_eq "... in one line naming it" \
	"slurm-replay: --dir holds a line break, which cannot go into a line of the batch file: \$'hunt\\ntouch INJECTED #'" \
	"$(cat "$TMP/nl.err")"
check "... and writes no batch file and no directory" \
	test ! -e "$TMP/hunt"$'\n'"touch INJECTED #" -a ! -e "$TMP/INJECTED"
"$IRSNAP_ROOT/scripts/slurm-replay" -N 2 --dir "$TMP/h" \
	--sbatch $'--time=5\nexit 0' -- --runs 1 --layout "$LAYOUT" \
	-- "${PROG[@]}" >/dev/null 2>&1
check_eq "... nor an --sbatch option with one" 2 $?
"$IRSNAP_ROOT/scripts/slurm-replay" -N 2 --dir "$TMP/back\\slash" \
	-- --runs 1 --layout "$LAYOUT" -- "${PROG[@]}" >/dev/null 2>"$TMP/bs.err"
check_eq "... nor a --dir with a backslash (sbatch's escape in paths)" \
	"slurm-replay: --dir holds a backslash, which sbatch reads as an escape in an #SBATCH path: $TMP/back\\\\slash" \
	"$(cat "$TMP/bs.err")"
# Blanks, quotes and % in the directory: one word each time, as a job
# shows (a stand-in irsnap prints where it ran and its words).
odd="$TMP/odd dir 100% \"q\""
printf '#!/bin/sh\npwd\nfor a in "$@"; do printf "[%%s]\\n" "$a"; done\n' \
	>"$TMP/show-args"
chmod +x "$TMP/show-args"
batch=$(cd "$TMP" && "$IRSNAP_ROOT/scripts/slurm-replay" -N 1 --dir "$odd" \
	--irsnap "$TMP/show-args" -- --runs 1 --layout "$LAYOUT" -- "${PROG[@]}")
if timeout 120 sbatch --wait "$batch" >"$TMP/odd.out" 2>&1; then
	ok "sbatch runs the batch file of an odd --dir"
else not_ok "sbatch runs the batch file of an odd --dir" "$(cat "$TMP/odd.out")" "$(cat "$batch")"; fi
out=$(ls "$odd"/slurm-*_0.out 2>/dev/null | head -1)
check "... writing its output into that very directory (% kept, quotes read)" \
	test -n "$out"
check_eq "... running where slurm-replay ran, with --dir one word" \
	"$TMP|[--dir]|[$odd]" \
	"$(sed -n '1p;/^\[--dir\]$/{p;n;p}' "$out" 2>/dev/null | paste -sd'|')"

# ---- the hunt: scripts/slurm-replay writes the array job ------------------
batch=$(scripts/slurm-replay -N 4 --dir "$TMP/hunt" -- --runs $RUNS --all \
	--layout "$LAYOUT" -- "${PROG[@]}")
check_eq "slurm-replay writes the batch file" "$TMP/hunt/hunt.sbatch" "$batch"
grep -q '^#SBATCH --array=0-3$' "$batch" && ok "the batch file is an array of 4" ||
	not_ok "the batch file is an array of 4" "$(cat "$batch")"
if timeout 600 sbatch --wait "$batch" >"$TMP/sbatch.out" 2>&1; then
	ok "sbatch --wait: the array job ran ($(head -1 "$TMP/sbatch.out"))"
else
	not_ok "the array job runs" "$(cat "$TMP/sbatch.out")" "$(tail -5 "$S/slurmd.log")" \
		"$(cat "$TMP"/hunt/slurm-*.out 2>/dev/null | tail -5)"
fi
check_eq "each array task wrote its shard" 4 "$(ls -d "$TMP"/hunt/replay-*-s?-of-4 2>/dev/null | wc -l)"
"$IRSNAP" merge -o "$TMP/merged" "$TMP/hunt" >"$TMP/merge.out" 2>"$TMP/merge.err"
check_eq "irsnap merge of the 4 Slurm shards finds failures (exit 1)" 1 $?
check_eq "no problem line" "" "$(cat "$TMP/merge.err")"

# The same attempts in one replay here.
"$IRSNAP" replay --runs $RUNS --all -j 2 --dir "$TMP/one" --layout "$LAYOUT" \
	-- "${PROG[@]}" >/dev/null 2>&1
check_files_eq "the Slurm hunt finds one replay's signatures and counts" \
	<(hunt_summary "$(ls -d "$TMP"/one/replay-*)/replay.json") <(hunt_summary "$TMP/merged/replay.json")
grep -q 'SIGSEGV in dce' "$TMP/merge.out" && ok "the flake's signature: $(sed -n 3p "$TMP/merge.out" | cut -c1-60)" ||
	not_ok "the merged table names the flake" "$(cat "$TMP/merge.out")"
check "irsnap validate accepts the merged Slurm hunt" "$IRSNAP" validate "$TMP/merged/replay.json"
done_testing
