#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs the frame benchmark's one-loop ratio (BM_RatioToMemcpy) several times and prints,
# per run, the load average and the figures the targets ask for (README.md here).
#   bench/protocol/run.sh [--runs N] [--build DIR] [--min-time SECONDS]
set -euo pipefail
runs=5 build=build/native min_time=2
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --min-time) min_time=$2; shift 2 ;;
    *) echo "usage: $0 [--runs N] [--build DIR] [--min-time SECONDS]" >&2; exit 2 ;;
  esac
done
cd "$(dirname "$0")/../.."
bench="$build/bench/protocol/protocol_frame_bench"
[ -x "$bench" ] || { echo "$bench not built (ninja -C $build bench/protocol/protocol_frame_bench)" >&2; exit 1; }
printf '%-6s %8s %8s %9s %8s %8s %8s\n' load encode decode privdec memcpy ratio privratio
for _ in $(seq "$runs"); do
  load=$(cut -d' ' -f1 /proc/loadavg)
  "$bench" --benchmark_filter='BM_RatioToMemcpy$' --benchmark_min_time="$min_time" 2>/dev/null | grep '^BM_RatioToMemcpy' |
    /usr/bin/python3 -c '
import re, sys
d = dict(re.findall(r"(\w+)=([0-9.]+)", sys.stdin.read()))
keys = ["encode_ns_per_command", "decode_ns_per_command", "decode_private_ns_per_command",
        "memcpy_ns_per_command", "ratio_copying", "ratio_private"]
print("%-6s %8.2f %8.2f %9.2f %8.2f %7.2fx %8.2fx" % ((sys.argv[1],) + tuple(float(d[k]) for k in keys)))' "$load"
done
