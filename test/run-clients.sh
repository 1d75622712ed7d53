#!/bin/sh
# The clients stage: real clients (weston, sway, kmscube, modetest, and
# weston on a hotplugged configfs device) on atomkms in the clients image.
# The guest side is qemu/jobs/clients.sh; its screenshots, dumps and logs
# stay in build/guest/clients.
#
# Usage: test/run-clients.sh
# Prints the guest's "ok"/"not ok" lines and "clients: N passed, N failed".
exec "$(dirname "$0")/run-guest-stage.sh" clients 600 qemu/jobs/clients.sh
