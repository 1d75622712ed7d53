#!/bin/sh
# Guest side of test/run-igt.sh: run an igt list through igt_runner and
# leave igt_results' results.json in the output directory.
# Usage (in the guest): qemu/jobs/igt.sh LIST OUTDIR
set -u
list=$1
out=$2
root=/usr/libexec/igt-gpu-tools
res=/tmp/igt-results

# igt's per-test dmesg verdict counts err and worse (level 3): under TCG
# the kernel's one-off "hrtimer: interrupt took N ns" warning is emulation
# stall, not a driver fault. run-guest.sh still fails the whole run on any
# WARNING, BUG, oops, lockdep report or new taint.
. /host/qemu/jobs/sw-sync.sh
# igt watches uevents (kms_lease's lease-uevent, hotplug) through udev's
# netlink group, which only udevd feeds. No coldplug: only new events.
udevd=/usr/lib/systemd/systemd-udevd
if [ -x "$udevd" ]; then
	"$udevd" --daemon || echo "igt.sh: $udevd failed"
fi

# kms_content_protection@srm writes an SRM into /lib/firmware, which the
# guest image lacks (a snapshot: nothing written stays).
mkdir -p /lib/firmware

# An optional setup before igt runs (test/run-igt.sh's IGT_SETUP), e.g. a
# second atomkms card made through configfs: without it, igt would run on
# a topology other than the one asked for, so its failure stops the job.
if [ -n "${IGT_SETUP:-}" ]; then
	sh "/host/$IGT_SETUP" > "$out/setup.log" 2>&1
	rc=$?
	cat "$out/setup.log"
	if [ $rc != 0 ]; then
		echo "igt.sh: setup $IGT_SETUP failed (exit $rc): igt not run"
		exit 1
	fi
fi

# igt_runner wants bare names, one a line; our lists carry comments.
sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$list" > /tmp/igt.list
igt_runner --test-list /tmp/igt.list --per-test-timeout "${IGT_TIMEOUT:-240}" \
	--inactivity-timeout "${IGT_TIMEOUT:-240}" \
	--dmesg-warn-level 3 --overwrite "$root" "$res" > "$out/igt_runner.log" 2>&1
echo "igt_runner exit $?"
igt_results "$res" > "$out/igt_results.log" 2>&1
cp "$res/results.json" "$out/results.json"
