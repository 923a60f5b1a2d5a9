#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Test of neptune_setup.sh against a real Wine prefix: a hard-link clone of the test
# run's prefix (seconds, no disk; the registry files are real copies and the script
# never writes into an existing inode), with its own wineserver, killed at the end.
#
#   setup_test.sh SETUP_SCRIPT DLL_DIR [WHICH_DLLS_EXE]
#
# WINEPREFIX: the prefix to clone (scripts/test provides one); exit 77 (skip) without it.
# WHICH_DLLS_EXE (which_dlls.c): run inside the clone, it tells whether a program there
# really loads our DLLs after install and Wine's after uninstall.
set -uo pipefail

setup=$1
dlls=$2
which_dlls=${3:-}
failures=0
checks=0

check() {  # check DESCRIPTION COMMAND...
  local what=$1; shift
  checks=$((checks + 1))
  if "$@"; then
    echo "ok   $what"
  else
    echo "FAIL $what"
    failures=$((failures + 1))
  fi
}
fails() { ! "$@"; }

if [ -z "${WINEPREFIX:-}" ] || [ ! -f "$WINEPREFIX/system.reg" ]; then
  echo "skip: no initialised WINEPREFIX to clone"
  exit 77
fi
base_prefix=$WINEPREFIX
for name in d3d11 dxgi; do
  # The DLL targets belong to guest/meson.build; without them there is nothing to install.
  [ -f "$dlls/$name.dll" ] || { echo "skip: $dlls/$name.dll was not built"; exit 77; }
done

clone=$(mktemp -d "$base_prefix.setup-test.XXXXXX")
cleanup() {
  WINEPREFIX=$clone wineserver -k >/dev/null 2>&1
  rm -rf "$clone"
}
trap cleanup EXIT
cp -al "$base_prefix/." "$clone/"
for reg in "$base_prefix"/*.reg; do
  rm -f "$clone/$(basename "$reg")"
  cp "$reg" "$clone/"
done
export WINEPREFIX=$clone
unset WINESERVERSOCKET
sys32=$clone/drive_c/windows/system32
base_sys32=$base_prefix/drive_c/windows/system32

override_of() {  # prints the override value of $1, or nothing
  WINEDEBUG=-all wine reg query 'HKEY_CURRENT_USER\Software\Wine\DllOverrides' /v "$1" 2>/dev/null |
    tr -d '\r' | awk -v n="$1" 'tolower($1) == n { print $3 }'
}
is_builtin() { head -c 256 "$1" | grep -qa 'Wine builtin DLL'; }
loaded_dlls() {  # what a program in the clone loads, e.g. "d3d11=neptune dxgi=neptune"
  WINEDEBUG=-all wine "$which_dlls" 2>/dev/null | tr -d '\r'
}
same() { cmp -s "$1" "$2"; }
equals() { [ "$1" = "$2" ]; }

# Refusals: nothing happens without a prefix or without built DLLs.
check "refuses without WINEPREFIX" fails env -u WINEPREFIX "$setup" install --dlls "$dlls"
msg=$(env -u WINEPREFIX "$setup" install --dlls "$dlls" 2>&1)
check "the refusal names WINEPREFIX" grep -q WINEPREFIX <<<"$msg"
empty=$(mktemp -d)
check "refuses without built DLLs" fails "$setup" install --dlls "$empty"
msg=$("$setup" install --dlls "$empty" 2>&1)
check "the refusal names the missing DLL" grep -q 'd3d11.dll not found' <<<"$msg"
rmdir "$empty"
check "refusal left d3d11.dll alone" is_builtin "$sys32/d3d11.dll"
check "refuses a directory that is not a prefix" fails env WINEPREFIX=/nonexistent "$setup" install --dlls "$dlls"

# Install, twice.
for round in 1 2; do
  check "install #$round succeeds" "$setup" install --dlls "$dlls"
  for name in d3d11 dxgi; do
    check "install #$round: $name.dll is ours" same "$dlls/$name.dll" "$sys32/$name.dll"
    check "install #$round: $name.dll.old is Wine's builtin" same "$base_sys32/$name.dll" "$sys32/$name.dll.old"
    check "install #$round: override $name=native,builtin" equals "$(override_of $name)" native,builtin
  done
done
check "the cloned-from prefix is untouched" is_builtin "$base_sys32/d3d11.dll"
if [ -n "$which_dlls" ]; then
  loaded=$(loaded_dlls)
  check "a program in the prefix loads our DLLs ($loaded)" equals "$loaded" "d3d11=neptune dxgi=neptune"
fi

# Uninstall, twice.
for round in 1 2; do
  check "uninstall #$round succeeds" "$setup" uninstall
  for name in d3d11 dxgi; do
    check "uninstall #$round: $name.dll is Wine's builtin again" same "$base_sys32/$name.dll" "$sys32/$name.dll"
    check "uninstall #$round: no $name.dll.old left" fails test -e "$sys32/$name.dll.old"
    check "uninstall #$round: override $name removed" equals "$(override_of $name)" ""
  done
done

if [ -n "$which_dlls" ]; then
  loaded=$(loaded_dlls)
  check "after uninstall a program loads Wine's DLLs ($loaded)" equals "$loaded" "d3d11=builtin dxgi=builtin"
fi

# Uninstall without a backup: wineboot puts Wine's builtin back.
check "reinstall succeeds" "$setup" install --dlls "$dlls"
rm -f "$sys32/d3d11.dll.old" "$sys32/dxgi.dll.old"
check "uninstall without backups succeeds" "$setup" uninstall
for name in d3d11 dxgi; do
  check "no backup: $name.dll is a Wine builtin again" is_builtin "$sys32/$name.dll"
  check "no backup: override $name removed" equals "$(override_of $name)" ""
done

echo "$checks checks, $failures failed"
[ "$failures" = 0 ]
