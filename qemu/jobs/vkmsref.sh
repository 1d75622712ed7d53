#!/bin/sh
# IGT_SETUP of make compare-vkms (test/compare-vkms.sh): load upstream
# vkms, built as vkmsref.ko from the running kernel's linux-source
# (bench/build-vkms.sh), with its defaults, in place of atomkms.
# Env: VKMSREF  the module, relative to /host
set -eu
ko=/host/$VKMSREF
deps=$(modinfo -F depends "$ko" | tr ',' ' ')
[ -z "$deps" ] || modprobe -a $deps
insmod "$ko"
echo "vkmsref loaded: $(cat /sys/kernel/debug/dri/0/name 2>/dev/null)"
