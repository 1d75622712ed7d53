#!/bin/sh
# What `make run` shows: the topology atomkms exposes, then a mode set and
# page flips with events.
set -e
echo "== atomkms topology"
build/bin/atomkms-info
echo
echo "== demo: mode set and 120 page flips with events"
build/bin/atomkms-demo -n 120
echo
echo "== capture: a plane stack composed by atomkms, read back through writeback"
build/bin/atomkms-capture -s 1280x720 -o build/capture.png
