#!/bin/sh
# Runs inside the test VM (vm_render_test.py starts it through vm_run.py): renders a frame
# through the shared-memory device, kills a second guest program in the middle of its
# frames, and renders again once the host has taken the killed program's slot back.
# Markers in the results directory (shared with the host over 9p) pace the two sides.
#
#   vm_render_guest.sh RESULTS_DIR GUEST_PROGRAM
set -u
results=$1
guest=$2
export NPT_TRANSPORT=ivshmem

wait_for() {  # FILE SECONDS
  tenths=$(($2 * 10))
  while [ ! -e "$1" ]; do
    tenths=$((tenths - 1))
    [ "$tenths" -gt 0 ] || { echo "no $1 from the host in $2 s"; return 1; }
    sleep 0.1
  done
}

"$guest" --out "$results/frame-vm-first.bin" >"$results/guest-first.log" 2>&1 || {
  echo "the first guest program failed"; exit 10; }

# The second program renders until it is killed; two finished frames say it is running.
"$guest" --endless >"$results/guest-endless.log" 2>&1 &
endless=$!
tenths=1200
until [ "$(grep -c '^frame ' "$results/guest-endless.log")" -ge 2 ]; do
  kill -0 "$endless" 2>/dev/null || { echo "the endless guest program ended by itself"; exit 12; }
  tenths=$((tenths - 1))
  [ "$tenths" -gt 0 ] || { echo "the endless guest program rendered no frames in 120 s"; exit 12; }
  sleep 0.1
done
: >"$results/endless-running"
wait_for "$results/slot-noted" 60 || exit 13
kill -KILL "$endless"
wait "$endless" 2>/dev/null
: >"$results/killed"
wait_for "$results/reclaim-checked" 60 || exit 13

"$guest" --out "$results/frame-vm-second.bin" >"$results/guest-second.log" 2>&1 || {
  echo "the guest program after the kill failed"; exit 11; }
echo "guest: all three programs ran"
