# SPDX-License-Identifier: MIT
# What the Windows sample benchmarks' run.sh scripts share (bench/samples, bench/triton).
# Sourced from the repository root.

# npt_bench_with_priority SCRIPT ARGS...: when ARGS start with --priority (root only), runs
# SCRIPT again without it in a session of its own whose autogroup has nice -20 and does not
# return; otherwise returns. The kernel schedules autogroups (sessions) against each other,
# so plain nice does nothing against other sessions' compilers (bench/samples/README.md).
npt_bench_with_priority() {
  local script=$1
  shift
  [ "${1:-}" = "--priority" ] || return 0
  shift
  exec setsid bash -c 'echo -20 > /proc/$$/autogroup && exec nice -n -20 "$0" "$@"' "$script" "$@"
}

# npt_bench_samples DEFAULT ARGS...: prints the value of --samples (or --samples=) among
# ARGS, or DEFAULT.
npt_bench_samples() {
  local samples=$1 previous= arg
  shift
  for arg in "$@"; do
    case "$arg" in
      --samples=*) samples=${arg#--samples=} ;;
    esac
    [ "$previous" = "--samples" ] && samples=$arg
    previous=$arg
  done
  printf '%s\n' "$samples"
}

# npt_bench_prepare NAME TARGETS...: installs what is missing, builds TARGETS in the Windows
# build (-j2; the log is $npt_build/bench-NAME-build.log, its tail printed on failure) and
# starts a Wine environment that is stopped when the script exits.
npt_bench_prepare() {
  local name=$1
  shift
  source scripts/lib/deps.sh
  source scripts/lib/build.sh
  source scripts/lib/wine-env.sh
  npt_install_deps
  mkdir -p "$npt_build"
  npt_configure "$npt_build_win" --cross-file "$npt_root/cross/x86_64-w64-mingw32.txt"
  ninja -j2 -C "$npt_build_win" "$@" >"$npt_build/bench-$name-build.log" 2>&1 ||
    { tail -n 40 "$npt_build/bench-$name-build.log" >&2; exit 1; }
  trap npt_wine_stop EXIT
  npt_wine_start "$npt_build_win"
}
