#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fetches Wine's d3d11 conformance test (dlls/d3d11/tests/d3d11.c) and the Wine
# headers it includes that mingw-w64 lacks (include/wine/{test,heap,debug}.h) from
# Debian's source package of the Wine installed here, through apt with a private
# sources list: nothing is added to /etc/apt. Only those files are extracted and
# kept, in a cache outside the clone that later runs reuse without the network.
# Usage: fetch-wine-tests.sh   (prints the directory holding dlls/ and include/)
# NPT_WINE_SOURCE_CACHE overrides the cache directory, NPT_DEBIAN_MIRROR the mirror.
set -euo pipefail

cache=${NPT_WINE_SOURCE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/neptune/wine-source}
wanted=(dlls/d3d11/tests/d3d11.c include/wine/test.h include/wine/heap.h include/wine/debug.h)

fail() {
  echo "fetch-wine-tests: $*" >&2
  exit 1
}

# The tests must match the Wine they run on: the source version of the installed wine.
version=$(dpkg-query -W -f='${source:Version}' wine 2>/dev/null) ||
  fail "the Debian package 'wine' is not installed (scripts/lib/deps.sh installs it)"
upstream=${version#*:}
upstream=${upstream%-*}
tree=$cache/wine-$version

have_all() {
  local file
  for file in "${wanted[@]}"; do
    [ -s "$tree/$file" ] || return 1
  done
}

if have_all; then
  echo "$tree"
  exit 0
fi

# shellcheck source=../../scripts/lib/debian-apt.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib/debian-apt.sh"
npt_apt_caller=fetch-wine-tests
codename=$(npt_debian_codename)
mirror=$(npt_debian_mirror)
mkdir -p "$cache/download"
npt_apt_init "$cache/apt" "deb-src $mirror $codename main"
log=$cache/fetch.log
: >"$log"

echo "fetching Wine $version's source package (deb-src $mirror $codename) into $cache" >&2
npt_apt update >>"$log" 2>&1 ||
  fail "apt-get update with the private sources list failed (network or mirror?); log: $log"
(cd "$cache/download" && npt_apt source --download-only "wine=$version") >>"$log" 2>&1 ||
  fail "apt-get source wine=$version failed; log: $log"

orig=$(ls "$cache/download"/wine_"$upstream".orig.tar.* 2>/dev/null | head -n1)
debian=$(ls "$cache/download"/wine_"${version#*:}".debian.tar.* 2>/dev/null | head -n1)
[ -n "$orig" ] && [ -n "$debian" ] || fail "apt-get source left no wine_$upstream.orig.tar.* and .debian.tar.* in $cache/download; log: $log"
staging=$(mktemp -d "$cache/extract.XXXXXX")
trap 'rm -rf "$staging"' EXIT
# The files are taken from the upstream tarball as they are: refuse if one of
# Debian's patches changes them, rather than run a test Debian does not ship.
tar -xf "$debian" -C "$staging" debian/patches >>"$log" 2>&1 || fail "cannot read the patches in $debian; log: $log"
patterns=()
for file in "${wanted[@]}"; do patterns+=(-e "$file"); done
patched=$(grep -l -r -F "${patterns[@]}" "$staging/debian/patches" || true)
[ -z "$patched" ] || fail "Debian patches change the test files (${patched//$staging\//}); apply them before use"
rm -rf "$staging/debian"
tar -xf "$orig" -C "$staging" --wildcards "${wanted[@]/#/*/}" >>"$log" 2>&1 ||
  fail "extracting ${wanted[*]} from $orig failed; log: $log"
top=$(find "$staging" -mindepth 1 -maxdepth 1 -type d)
rm -rf "$tree"
mv "$top" "$tree"
have_all || fail "the extracted tree $tree lacks one of: ${wanted[*]}"
# The extracted files are the cache; the package and apt's lists are not needed again.
rm -rf "$cache/download" "$cache/apt"
echo "$tree"
