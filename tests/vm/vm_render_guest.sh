#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs inside the test VM (vm_render_test.py starts it through vm_run.py): renders a frame
# through the shared-memory device, kills a second guest program in the middle of its
# frame, and renders again once the host has taken the killed program's slot back.
# Markers in the results directory (shared with the host over 9p) pace the two sides.
#
#   vm_render_guest.sh RESULTS_DIR GUEST_PROGRAM   (GUEST_PROGRAM: neptune-vm-frame)
set -u
results=$1
guest=$2

wait_for() {  # FILE SECONDS
  tenths=$(($2 * 10))
  while [ ! -e "$1" ]; do
    tenths=$((tenths - 1))
    [ "$tenths" -gt 0 ] || { echo "no $1 from the host in $2 s"; return 1; }
    sleep 0.1
  done
}

"$guest" --transport ivshmem --output "$results/frame-vm-first.bin" >"$results/guest-first.log" 2>&1 || {
  echo "the first guest program failed"; exit 10; }

# The second program submits half of its frame and stops there until it is killed.
"$guest" --transport ivshmem --output "$results/frame-vm-victim.bin" --pause-mid-frame \
  >"$results/guest-victim.log" 2>&1 &
victim=$!
tenths=1200
until grep -q 'paused mid-frame' "$results/guest-victim.log"; do
  kill -0 "$victim" 2>/dev/null || { echo "the mid-frame guest program ended by itself"; exit 12; }
  tenths=$((tenths - 1))
  [ "$tenths" -gt 0 ] || { echo "the mid-frame guest program did not reach the middle of its frame in 120 s"; exit 12; }
  sleep 0.1
done
: >"$results/victim-paused"
wait_for "$results/slot-noted" 60 || exit 13
kill -KILL "$victim"
wait "$victim" 2>/dev/null
: >"$results/killed"
wait_for "$results/reclaim-checked" 60 || exit 13

"$guest" --transport ivshmem --output "$results/frame-vm-second.bin" >"$results/guest-second.log" 2>&1 || {
  echo "the guest program after the kill failed"; exit 11; }
echo "guest: the first and the third program rendered, the second was killed mid-frame"
