#!/bin/sh
# Build the kernel's sw_sync (drivers/dma-buf/sw_sync.c and sync_debug.c,
# CONFIG_SW_SYNC, which Debian's kernels leave out) from linux-source
# as the module atomkms_sw_sync.ko in build/sw_sync/KVER. igt's fence tests
# (kms_atomic's fence subtests, kms_atomic_interruptible, kms_explicit_fence,
# kms_atomic_transition's *-fencing, sw_sync) need its debugfs timeline
# file; qemu/jobs/igt.sh loads it in the guest. Test-only: it is not part
# of atomkms and none of its code is kept in this repository.
#
# Usage: qemu/build-sw-sync.sh [KERNEL]   6.12 (default) or 7.3, from
#        that kernel's linux-source into build/sw_sync/KVER/ (does nothing
#        if the module is up to date)
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/qemu/kernels.sh"
kernel_select "${1:-6.12}"
kernel_need
src=$k_src
[ -n "$src" ] || { echo "build-sw-sync: the debug kernel has sw_sync; 7.2 is not booted" >&2; exit 2; }
dir=$top/build/sw_sync/$k_kver

[ -r "$src" ] || { echo "build-sw-sync: no $src: run make setup" >&2; exit 1; }
if [ -f "$dir/atomkms_sw_sync.ko" ] && [ "$dir/atomkms_sw_sync.ko" -nt "$src" ] &&
   [ "$dir/atomkms_sw_sync.ko" -nt "$0" ]; then
	exit 0
fi

rm -rf "$dir"
mkdir -p "$dir"
d=linux-source-$k_name/drivers/dma-buf
tar -xJf "$src" -C "$dir" --strip-components=3 \
	$d/sw_sync.c $d/sync_debug.c $d/sync_debug.h $d/sync_trace.h
# The trace header is found next to the sources, not in the kernel tree.
sed -i 's|^#define TRACE_INCLUDE_PATH .*|#define TRACE_INCLUDE_PATH .|' \
	"$dir/sync_trace.h"
# sync_file_get_name() is not exported; the debugfs listing that names
# sync files does without the name.
sed -i 's|sync_file_get_name(sync_file, buf, sizeof(buf))|"sync_file"|' \
	"$dir/sync_debug.c"
cat > "$dir/atomkms_sw_sync_mod.c" <<'EOC'
// SPDX-License-Identifier: GPL-2.0-only
#include <linux/module.h>
MODULE_DESCRIPTION("sw_sync from linux-source, for igt's fence tests");
MODULE_LICENSE("GPL");
EOC
cat > "$dir/Kbuild" <<'EOK'
obj-m += atomkms_sw_sync.o
atomkms_sw_sync-y := sw_sync.o sync_debug.o atomkms_sw_sync_mod.o
ccflags-y += -I$(src) -include linux/module.h
EOK
kernel_kbuild "$dir" -s modules > "$dir/build.log" 2>&1 ||
	{ tail -n 30 "$dir/build.log" >&2; exit 1; }
[ -f "$dir/atomkms_sw_sync.ko" ]
echo "build-sw-sync: built $dir/atomkms_sw_sync.ko"
