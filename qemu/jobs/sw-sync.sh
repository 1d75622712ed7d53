#!/bin/sh
# Sourced by guest jobs whose tests need fences: sw_sync's debugfs
# timeline (qemu/build-sw-sync.sh builds it for the running kernel:
# Debian's kernels have no CONFIG_SW_SYNC).
sws=/host/build/sw_sync/$(uname -r)/atomkms_sw_sync.ko
# The debug kernel has SW_SYNC built in.
if [ ! -e /sys/kernel/debug/sync/sw_sync ] && [ -f "$sws" ] && ! grep -q '^atomkms_sw_sync ' /proc/modules; then
	insmod "$sws" || echo "$0: insmod $sws failed"
fi
