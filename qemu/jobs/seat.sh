# Sourced by guest jobs that run a compositor (qemu/jobs/clients.sh,
# weston-tests.sh): compositors hear about outputs through udev (start
# systemd-udevd) and open the card through libseat (start seatd), in an
# XDG_RUNTIME_DIR of root's. seatd's log goes to $out, the job's output
# directory (dash's "." takes no arguments).
/usr/lib/systemd/systemd-udevd --daemon > /dev/null
udevadm trigger
udevadm settle
export XDG_RUNTIME_DIR=/run/user/0
mkdir -p -m 0700 "$XDG_RUNTIME_DIR"
seatd -g root > "$out/seatd.log" 2>&1 &
export LIBSEAT_BACKEND=seatd
seat_t=0
while [ ! -S /run/seatd.sock ] && [ $seat_t -lt 10 ]; do
	sleep 1
	seat_t=$((seat_t + 1))
done
