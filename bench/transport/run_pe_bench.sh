#!/bin/bash
# SPDX-License-Identifier: MIT
# PE-guest-to-native-server round trips: starts neptune-server (native build) and runs
# transport_pe_guest.exe (Windows build) under Wine against it, next to the native
# guest's figures from transport_bench.
# Usage: bench/transport/run_pe_bench.sh NATIVE_BUILD_DIR WIN_BUILD_DIR [CALLS]
set -euo pipefail
native=$(realpath "$1")
win=$(realpath "$2")
calls=${3:-20000}
dir=$(mktemp -d /tmp/npt-pe-bench-XXXXXX)
server=
trap '[ -n "$server" ] && kill $server 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"' EXIT
export WINEDEBUG=${WINEDEBUG:--all}

# spin: the worker polls (as while a frame streams in); block: it sleeps at once, so every
# call pays the doorbell and the reply wakeup.
for worker_spin_us in 1000000 0; do
  rm -f "$dir/neptune.sock.tcp"
  "$native/host/server/neptune-server" --socket "$dir/neptune.sock" --dispatch diag --spin-us $worker_spin_us 2>/dev/null &
  server=$!
  for _ in $(seq 100); do [ -f "$dir/neptune.sock.tcp" ] && break; sleep 0.05; done
  echo "worker spin ${worker_spin_us} us:"
  wine "$win/host/server/tests/transport_pe_guest.exe" "Z:$dir/neptune.sock.tcp" --bench "$calls"
  NPT_TRANSPORT_NO_RAW_FUTEX=1 wine "$win/host/server/tests/transport_pe_guest.exe" "Z:$dir/neptune.sock.tcp" --bench "$((calls / 20))" | sed 's/^/  socket fallback: /'
  kill $server; wait $server 2>/dev/null || true
  server=
done
