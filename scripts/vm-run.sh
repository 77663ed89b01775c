#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-run.sh [options] SCRIPT [ARG...]
#
# Boot the test kernel (build/kobj/vmlinux, PVH; with DEBUG=1 the bzImage
# of build/kobj-debug, see KIMAGE in lib.sh) in QEMU with the host's
# root file system shared read-only over virtio-9p and a writable results
# share, run SCRIPT inside the guest as root (tests/guest/init.sh is PID 1),
# power off, and print what SCRIPT wrote to standard output.
#
# Fails (exit 1) when SCRIPT fails, when the guest does not power off
# within the timeout, and when the kernel log shows a panic, an oops, a
# WARN, a BUG, a lockdep splat or a KASAN/UBSAN report, whatever SCRIPT
# said.
#
# Options:
#   --name NAME       results directory build/results/vm-NAME (default: script name)
#   --smp N           vCPUs (default 4)
#   --mem MB          guest memory (default 2048)
#   --timeout S       wall-clock limit for the whole run (default 600)
#   --icount SHIFT    QEMU -icount virtual time (deterministic; benchmarks)
#   --kvm             use KVM instead of TCG (real test machines; hangs here)
#   --append ARGS     extra kernel command line
#   --hybrid          fake the project's 2P+4E part (fake_hybrid=$FAKE_HYBRID
#                     from lib.sh; needs --smp 6)
#   --hybrid-smt      fake its shape with SMT P-cores ($FAKE_HYBRID_SMT from
#                     lib.sh): sets the QEMU topology (instead of --smp) and
#                     has the guest take the E-cores' second threads offline
#   --quiet           do not copy the guest's output to standard output
#
# vm-run.sh --check-log DIR: only the verdict on a finished run's results
# directory (DIR/console.log, DIR/dmesg, DIR/rc), booting nothing; for
# tests/host/vm-log.sh, which feeds it hand-made kernel logs.

. "$(dirname "$0")/lib.sh"

# A splat anywhere in the kernel log fails the run.
splat='Kernel panic|Oops|WARNING:|BUG:|general protection fault|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|KASAN:|UBSAN:|Call Trace:'

# verdict DIR QEMU_RC TIMEOUT: exit status 1, with the reasons on standard
# error, when QEMU failed or timed out, the kernel log (the serial console
# and the dmesg the guest saved) shows a splat, or the guest script did
# not exit 0 (or left no exit status); else 0.
verdict() {
	local out=$1 qemu_rc=$2 timeout=$3 fail=0 guest_rc
	if [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]; then
		echo "# vm-run: guest did not finish within ${timeout}s (see $out/console.log)" >&2
		fail=1
	elif [ "$qemu_rc" != 0 ]; then
		echo "# vm-run: qemu failed ($qemu_rc): $(tail -3 "$out/qemu.log")" >&2
		fail=1
	fi
	if grep -Eq "$splat" "$out/console.log" "$out/dmesg" 2>/dev/null; then
		echo "# vm-run: kernel log shows a problem:" >&2
		{ grep -Eh -m5 "$splat" "$out/console.log" "$out/dmesg" 2>/dev/null || true; } |
			sed 's/^/#   /' >&2
		fail=1
	fi
	guest_rc=$(cat "$out/rc" 2>/dev/null || echo missing)
	if [ "$guest_rc" != 0 ]; then
		echo "# vm-run: guest script exit status: $guest_rc" >&2
		fail=1
	fi
	return $fail
}

if [ "${1:-}" = --check-log ]; then
	[ -d "${2:-}" ] || die "usage: vm-run.sh --check-log DIR"
	verdict "$2" 0 0
	exit
fi

name= smp=4 smp_fixed= mem=2048 timeout=600 icount= accel=tcg append= quiet=0
while [ $# -gt 0 ]; do
	case "$1" in
	--name) name=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--icount) icount=$2; shift 2 ;;
	--kvm) accel=kvm; shift ;;
	--append) append=$2; shift 2 ;;
	--hybrid) append+=" fake_hybrid=$FAKE_HYBRID"; shift ;;
	--hybrid-smt)
		append+=" fake_hybrid=$FAKE_HYBRID_SMT CB_OFFLINE=$FAKE_HYBRID_SMT_OFFLINE"
		smp_fixed=$FAKE_HYBRID_SMT_QEMU
		shift ;;
	--quiet) quiet=1; shift ;;
	--) shift; break ;;
	-*) die "vm-run.sh: unknown option $1" ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || die "usage: vm-run.sh [options] SCRIPT [ARG...]"
smp=${smp_fixed:-$smp}
script=$(realpath "$1")
shift
[ -x "$script" ] || die "$script is not an executable file"
[ -f "$KIMAGE" ] || die "no test kernel: $KIMAGE (make kernel)"
[ -d "$STAGE/lib/modules" ] || die "no staged modules in $STAGE (make modules)"
name=${name:-$(basename "$script" .sh)}
out=$RESULTS/vm-$name
rm -rf "$out"
mkdir -p "$out"

# Guest arguments travel as one base64 word on the command line.
args_b64=$(printf '%s\0' "$@" | base64 -w0)

case $accel in
kvm)	accel_opts=(-accel kvm -cpu host) ;;
*)	accel_opts=(-accel tcg,thread=multi -cpu max)
	[ -n "$icount" ] && accel_opts=(-accel tcg -cpu max -icount "shift=$icount,sleep=off") ;;
esac

cmdline="console=ttyS0 root=/dev/root rootfstype=9p ro"
cmdline+=" rootflags=trans=virtio,version=9p2000.L,msize=524288,cache=loose"
cmdline+=" init=$TOP/tests/guest/init.sh panic=-1 sysrq_always_enabled"
cmdline+=" CB_TOP=$TOP CB_STAGE=$STAGE CB_SCRIPT=$script CB_ARGS=$args_b64"
cmdline+=" $append"

start=$(date +%s)
set +e
timeout -k 10 "$timeout" qemu-system-x86_64 "${accel_opts[@]}" \
	-M pc -smp "$smp" -m "$mem" -nodefaults -no-reboot \
	-display none -monitor none -serial "file:$out/console.log" \
	-kernel "$KIMAGE" -append "$cmdline" \
	-fsdev local,id=rootfs,path=/,security_model=none,readonly=on,multidevs=remap \
	-device virtio-9p-pci,fsdev=rootfs,mount_tag=/dev/root \
	-fsdev local,id=results,path="$out",security_model=none \
	-device virtio-9p-pci,fsdev=results,mount_tag=results \
	</dev/null >"$out/qemu.log" 2>&1
qemu_rc=$?
set -e
echo "$(( $(date +%s) - start ))" >"$out/host-seconds"

[ $quiet = 1 ] || cat "$out/output" 2>/dev/null || true

verdict "$out" "$qemu_rc" "$timeout"
