#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Puts Neptune's d3d11.dll/dxgi.dll into a Wine prefix and takes them out again,
# like DXVK's setup_dxvk.sh.
#
#   neptune_setup.sh install   [--dlls DIR]   copy the DLLs into system32, override native,builtin
#   neptune_setup.sh uninstall                restore Wine's builtins, remove the overrides
#
# WINEPREFIX names the prefix (required: a prefix is never guessed). DIR holds the
# built d3d11.dll and dxgi.dll (default: ${NPT_BUILD_DIR:-<repo>/build}/win/guest).
# Both commands are idempotent. The prefix's own DLLs are kept as <name>.dll.old
# (only when they are Wine's builtins, so a second install never backs up our copy).
# Only 64-bit system32 is touched: the guest DLLs are x86_64 builds.
set -euo pipefail

readonly dll_names=(d3d11 dxgi)
readonly override_key='HKEY_CURRENT_USER\Software\Wine\DllOverrides'
readonly override_value='native,builtin'

die() { echo "neptune_setup: $*" >&2; exit 1; }
say() { echo "neptune_setup: $*"; }

usage() {
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
}

# Wine writes this marker into every builtin PE it installs in a prefix.
is_wine_builtin() {
  [ -f "$1" ] && head -c 256 "$1" | grep -qa 'Wine builtin DLL'
}

# Writes through a temporary name and a rename: never into the existing inode, so a
# prefix cloned with hard links (tests) cannot change the prefix it was cloned from.
copy_into_place() {
  local src=$1 dst=$2
  cp -f "$src" "$dst.neptune-tmp"
  mv -f "$dst.neptune-tmp" "$dst"
}

wine_reg() {
  # wine's own chatter (fixme lines) is noise here; the exit status is what counts.
  WINEDEBUG=-all wine reg "$@" >/dev/null 2>&1
}

set_override() {
  wine_reg add "$override_key" /v "$1" /t REG_SZ /d "$override_value" /f ||
    die "could not set the DLL override for $1 (wine reg add failed)"
}

remove_override() {
  # Deleting a value that is not there fails; that state is what uninstall wants.
  if wine_reg query "$override_key" /v "$1"; then
    wine_reg delete "$override_key" /v "$1" /f ||
      die "could not remove the DLL override for $1 (wine reg delete failed)"
  fi
}

install_dll() {
  local name=$1 src=$2 dst=$system32/$1.dll
  if [ -f "$dst" ] && cmp -s "$src" "$dst"; then
    say "$name.dll: already installed"
  else
    if is_wine_builtin "$dst" && [ ! -f "$dst.old" ]; then
      mv -f "$dst" "$dst.old"
      say "$name.dll: Wine's builtin kept as $name.dll.old"
    fi
    copy_into_place "$src" "$dst"
    say "$name.dll: installed from $src"
  fi
  set_override "$name"
}

uninstall_dll() {
  local name=$1 dst=$system32/$1.dll
  remove_override "$name"
  if [ -f "$dst.old" ]; then
    mv -f "$dst.old" "$dst"
    say "$name.dll: Wine's builtin restored"
  elif is_wine_builtin "$dst"; then
    say "$name.dll: Wine's builtin already in place"
  else
    # No backup (the prefix was made before the backup existed, or someone removed
    # it): let wineboot put Wine's builtin back.
    rm -f "$dst"
    need_wineboot=1
    say "$name.dll: removed; wineboot will restore Wine's builtin"
  fi
}

command=${1:-}
[ -n "$command" ] || usage
shift
dll_dir=
while [ $# -gt 0 ]; do
  case $1 in
    --dlls) [ $# -ge 2 ] || die "--dlls needs a directory"; dll_dir=$2; shift 2 ;;
    -h|--help) usage ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done

[ -n "${WINEPREFIX:-}" ] || die "WINEPREFIX is not set; name the Wine prefix to change (nothing done)"
[ -f "$WINEPREFIX/system.reg" ] ||
  die "WINEPREFIX=$WINEPREFIX is not an initialised Wine prefix (no system.reg; run wineboot first)"
system32=$WINEPREFIX/drive_c/windows/system32
[ -d "$system32" ] || die "$system32 does not exist"
command -v wine >/dev/null || die "wine is not on PATH"
# The prefix's reg.exe must reach the prefix's own wineserver, never another one.
unset WINESERVERSOCKET 2>/dev/null || true

case $command in
  install)
    if [ -z "$dll_dir" ]; then
      repo_root=$(cd "$(dirname "$0")/../.." && pwd)
      dll_dir=${NPT_BUILD_DIR:-$repo_root/build}/win/guest
    fi
    for name in "${dll_names[@]}"; do
      [ -f "$dll_dir/$name.dll" ] ||
        die "$dll_dir/$name.dll not found: build the Windows target first (nothing done)"
    done
    for name in "${dll_names[@]}"; do
      install_dll "$name" "$dll_dir/$name.dll"
    done
    ;;
  uninstall)
    need_wineboot=0
    for name in "${dll_names[@]}"; do
      uninstall_dll "$name"
    done
    if [ "$need_wineboot" = 1 ]; then
      WINEDEBUG=-all wineboot -u >/dev/null 2>&1 || die "wineboot -u failed"
      for name in "${dll_names[@]}"; do
        is_wine_builtin "$system32/$name.dll" ||
          die "$name.dll: wineboot did not restore Wine's builtin"
      done
    fi
    ;;
  *) die "unknown command '$command' (install or uninstall)" ;;
esac
