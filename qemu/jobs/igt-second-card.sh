#!/bin/sh
# An igt setup (test/run-igt.sh's IGT_SETUP): a second atomkms card, made
# through configfs beside the default device, for the igt subtests that
# open two KMS devices (kms_prime's *-hybrid: __drm_open_driver_another(1,
# DRIVER_ANY) is igt's second card). One CRTC with a primary and a cursor
# plane, an encoder and a connected Virtual monitor (1920x1080@60):
# atomkms-shape's "virtual" shape.
set -u
before=$(ls /dev/dri | grep -c '^card')
/host/userspace/atomkms-shape virtual second 1 || exit 1
# The card node comes from devtmpfs as the device registers; udevd (if
# running) only renames nothing here. Wait for it, at most 5 s.
i=0
while [ "$(ls /dev/dri | grep -c '^card')" -le "$before" ]; do
	i=$((i + 1))
	[ $i -le 50 ] || { echo "igt-second-card: no new card node"; exit 1; }
	sleep 0.1
done
for c in /sys/class/drm/card[0-9]; do
	echo "igt-second-card: $(basename "$c"): $(basename "$(readlink -f "$c/device/driver")") $(basename "$(readlink -f "$c/device")")"
done
