#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of the test guest (see scripts/vm-run.sh). The root file system is the
# host's, read-only over 9p: mount scratch tmpfs where programs write, the
# writable results share, and the staged modules over /lib/modules so that
# modprobe finds the test kernel's modules by name. Then run the script,
# record its exit status and the kernel log, and power off.

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export LANG=C LC_ALL=C TERM=dumb

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm 2>/dev/null
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
# Scratch space is /run, not /tmp: a tmpfs on /tmp would hide the project
# itself when it was cloned under /tmp.
mount -t tmpfs tmpfs /run
mkdir -p /run/scratch /run/results
export HOME=/run/scratch TMPDIR=/run/scratch
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t 9p -o trans=virtio,version=9p2000.L results /run/results
ln -s /proc/self/fd /dev/fd
ln -s /proc/self/fd/0 /dev/stdin
ln -s /proc/self/fd/1 /dev/stdout
ln -s /proc/self/fd/2 /dev/stderr

# The test kernel's modules are in the staged tree, and /lib/modules may
# not even exist on the read-only root. A modprobe wrapper that points at
# the staged tree serves both the shell and the kernel's request_module().
mkdir -p /run/cb/bin
cat >/run/cb/bin/modprobe <<EOT
#!/bin/sh
exec /sbin/modprobe -d "$CB_STAGE" "\$@"
EOT
chmod +x /run/cb/bin/modprobe
echo /run/cb/bin/modprobe >/proc/sys/kernel/modprobe
export PATH=/run/cb/bin:$PATH

# The selftests as scripts/selftests-stage.sh staged them (helpers built).
export RESULTS_DIR=/run/results CB_TOP CB_SELFTESTS=$CB_TOP/build/kselftest/tools/testing/selftests
mapfile -d '' -t args < <(echo "$CB_ARGS" | base64 -d)

# CPUs to take offline first (CB_OFFLINE, a comma-separated list; see
# scripts/vm-run.sh --hybrid-smt). A CPU that will not go is the script's
# problem to see: it runs all the same.
for cpu in ${CB_OFFLINE//,/ }; do
	echo 0 >/sys/devices/system/cpu/cpu"$cpu"/online ||
		echo "# init: cannot take CPU $cpu offline" >/dev/console
done

cd /run/scratch
echo "# guest: $(uname -r), $(nproc) CPUs, running $CB_SCRIPT" >/dev/console
"$CB_SCRIPT" "${args[@]}" >/run/results/output 2>/run/results/stderr </dev/null
echo $? >/run/results/rc
dmesg >/run/results/dmesg
sync
umount /run/results
# Reboot, which needs no ACPI power-off support: QEMU runs with
# -no-reboot, so a reboot ends it.
echo b >/proc/sysrq-trigger
sleep 60
