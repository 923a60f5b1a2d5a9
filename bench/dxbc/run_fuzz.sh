#!/bin/bash
# SPDX-License-Identifier: MIT
# Fuzz the dxbc reader and rebuild with libFuzzer for SECONDS (default 60), seeded with
# the corpus. usage: bench/dxbc/run_fuzz.sh [SECONDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-60}
work=${TMPDIR:-/tmp}/dxbc-fuzz
mkdir -p "$work/corpus"
clang++ -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -I"$root/dxbc/include" -I"$root/dxbc/src" \
  "$root/bench/dxbc/fuzz_container.cpp" "$root"/dxbc/src/*.cpp -o "$work/fuzz_container"
seeds=$root/../shared/corpus/dxbc
[ -d "$seeds" ] && find "$seeds" -name '*.dxbc' -exec cp {} "$work/corpus/" \;
"$work/fuzz_container" -max_total_time="$seconds" -max_len=8192 -print_final_stats=1 "$work/corpus"
