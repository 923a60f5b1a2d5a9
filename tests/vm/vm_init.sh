#!/bin/busybox sh
# SPDX-License-Identifier: MIT
# The VM's init (in the initramfs vm_assets.py builds): loads the virtio/9p modules,
# mounts the host's root filesystem read-only at /host and the writable results share
# over its own path inside it, runs the job vm_run.py wrote there in a chroot of the
# host's root, records its exit status and output in the results share, and powers off.
# Progress lines start with "neptune-vm:" on the serial console (vm_run.py reads them).

/bin/busybox --install -s /bin
export PATH=/bin

say() { echo "neptune-vm: $*"; }
halt_vm() {
  sync
  # QEMU runs with -no-reboot: a reboot ends it.
  reboot -f
  sleep 5
}
fail() { say "error: $*"; halt_vm; }

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
say "kernel up $(cut -d' ' -f1 /proc/uptime)"

results_path=
for arg in $(cat /proc/cmdline); do
  case "$arg" in
    neptune_results=*) results_path=${arg#neptune_results=} ;;
  esac
done
[ -n "$results_path" ] || fail "no neptune_results= on the kernel command line"

for module in /modules/*; do
  insmod "$module" || fail "insmod $module"
done

nine_p_options=trans=virtio,version=9p2000.L,msize=512000
mount -t 9p -o "ro,$nine_p_options" hostroot /host || fail "mounting the host's root (9p tag hostroot)"
mount -t 9p -o "$nine_p_options" results /results || fail "mounting the results share (9p tag results)"
[ -d "/host$results_path" ] || fail "the results directory $results_path is not in the host's root"
mount --bind /results "/host$results_path" || fail "binding the results share over $results_path"
mount -t proc proc /host/proc || fail "mounting /proc in the host's root"
mount -t sysfs sysfs /host/sys || fail "mounting /sys in the host's root"
mount -t devtmpfs devtmpfs /host/dev || fail "mounting /dev in the host's root"
mkdir -p /host/dev/shm /host/dev/pts
mount -t tmpfs tmpfs /host/dev/shm
mount -t devpts devpts /host/dev/pts

say "booted $(cut -d' ' -f1 /proc/uptime)"
chroot /host /bin/sh "$results_path/job.sh" >/results/stdout 2>/results/stderr </dev/null
status=$?
echo "$status" >/results/status.new && mv /results/status.new /results/status
say "job exited $status at $(cut -d' ' -f1 /proc/uptime)"
halt_vm
