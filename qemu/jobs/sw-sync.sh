#!/bin/sh
# Sourced by guest jobs whose tests need fences: sw_sync's debugfs
# timeline (qemu/build-sw-sync.sh builds it: the Debian kernel has no
# CONFIG_SW_SYNC).
sws=/host/build/sw_sync/atomkms_sw_sync.ko
if [ -f "$sws" ] && ! grep -q '^atomkms_sw_sync ' /proc/modules; then
	insmod "$sws" || echo "$0: insmod $sws failed"
fi
