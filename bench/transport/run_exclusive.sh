#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs a benchmark in its own session (scheduler autogroup) with that group's nice at -20,
# so that on a shared machine its threads run side by side instead of being time-sliced
# against other sessions. Needs root for the negative nice; otherwise runs as is.
# Usage: setsid bench/transport/run_exclusive.sh BUILD/bench/transport/transport_bench [args]
echo -20 > /proc/self/autogroup 2>/dev/null || echo "run_exclusive: cannot raise the autogroup priority" >&2
exec nice -n -20 "$@" 2>/dev/null || exec "$@"
