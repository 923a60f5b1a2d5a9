# SPDX-License-Identifier: MIT
# Configures (once) and builds the two build directories from one source tree.
# Sourced by scripts/test and scripts/demo; NPT_BUILD_DIR overrides the default build/.

npt_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
npt_build=${NPT_BUILD_DIR:-$npt_root/build}
npt_build_native=$npt_build/native
npt_build_win=$npt_build/win

npt_configure() {
  local dir=$1; shift
  if [ -f "$dir/build.ninja" ]; then
    return 0
  fi
  meson setup "$@" "$dir" "$npt_root" >"$dir.setup.log" 2>&1 || {
    cat "$dir.setup.log" >&2
    return 1
  }
}

# Line tables and function names (enough for Wine's and gdb's backtraces) instead of full
# debug info: a third less compile time for the same code. NPT_DEBUG_INFO=full keeps -g.
npt_debug_args() {
  if [ "${NPT_DEBUG_INFO:-lines}" = full ]; then
    return 0
  fi
  echo "-Dc_args=-g1 -Dcpp_args=-g1"
}

npt_configure_native() {
  # shellcheck disable=SC2046
  npt_configure "$npt_build_native" $(npt_debug_args)
}

npt_configure_win() {
  # shellcheck disable=SC2046
  npt_configure "$npt_build_win" --cross-file "$npt_root/cross/x86_64-w64-mingw32.txt" $(npt_debug_args)
}

npt_build_all() {
  mkdir -p "$npt_build"
  npt_configure_native
  npt_configure_win
  ninja -C "$npt_build_native"
  ninja -C "$npt_build_win"
}

# Only the Windows build's named targets (paths relative to its directory): what the
# demo runs, without every test program of both builds.
npt_build_win_targets() {
  mkdir -p "$npt_build"
  npt_configure_win
  ninja -C "$npt_build_win" "$@"
}
