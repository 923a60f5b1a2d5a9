# SPDX-License-Identifier: MIT
# apt with a private sources list, lists and cache under one directory: fetches source
# and binary packages of any Debian suite without touching /etc/apt or the machine's
# apt state. Sourced by tests/conformance/fetch-wine-tests.sh and scripts/setup-dxvk.
#
#   npt_apt_init DIR "deb-src ... SUITE COMPONENTS" ["deb ..."]   (a line per source;
#       the signed-by keyring is added) then: npt_apt update; npt_apt source ...; ...
# NPT_DEBIAN_MIRROR overrides the mirror npt_debian_mirror finds.

npt_apt_keyring=/usr/share/keyrings/debian-archive-keyring.gpg
npt_apt_options=()

npt_apt_fail() {
  echo "${npt_apt_caller:-apt}: $*" >&2
  exit 1
}

# The Debian suite this machine runs (bookworm on Debian 12).
npt_debian_codename() {
  # shellcheck disable=SC1091
  (. /etc/os-release && echo "${VERSION_CODENAME:-}")
}

# The mirror this machine's apt already uses for its own suite (deb822 .sources or the
# one-line sources.list), so fetches go where the machine's packages come from.
npt_debian_mirror() {
  if [ -n "${NPT_DEBIAN_MIRROR:-}" ]; then
    echo "$NPT_DEBIAN_MIRROR"
    return 0
  fi
  local codename file found
  codename=$(npt_debian_codename)
  [ -n "$codename" ] || npt_apt_fail "cannot tell this machine's Debian suite from /etc/os-release"
  found=$(
    for file in /etc/apt/sources.list.d/*.sources; do
      [ -r "$file" ] || continue
      awk -v suite="$codename" '
        /^[[:space:]]*$/ { if (uri != "" && has) { print uri; exit } uri = ""; has = 0; next }
        $1 == "URIs:" { uri = $2 }
        $1 == "Suites:" { for (i = 2; i <= NF; i++) if ($i == suite) has = 1 }
        END { if (uri != "" && has) print uri }' "$file"
    done
    if [ -r /etc/apt/sources.list ]; then
      awk -v suite="$codename" '$1 == "deb" && $0 !~ /\[/ && $3 == suite { print $2; exit }' /etc/apt/sources.list
    fi
  )
  found=${found%%$'\n'*}
  [ -n "$found" ] ||
    npt_apt_fail "no apt source for suite $codename in /etc/apt (set NPT_DEBIAN_MIRROR to a Debian mirror)"
  echo "$found"
}

npt_apt_init() {
  local dir=$1 line
  shift
  [ -r "$npt_apt_keyring" ] || npt_apt_fail "$npt_apt_keyring is missing (package debian-archive-keyring)"
  mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/sources.list.d"
  : >"$dir/sources.list"
  for line in "$@"; do
    # "deb URI SUITE COMPONENT..." -> "deb [signed-by=KEYRING] URI SUITE COMPONENT..."
    echo "${line%% *} [signed-by=$npt_apt_keyring] ${line#* }" >>"$dir/sources.list"
  done
  npt_apt_options=(
    -o "Dir::Etc::SourceList=$dir/sources.list"
    -o "Dir::Etc::SourceParts=$dir/sources.list.d"
    -o "Dir::State::Lists=$dir/lists"
    -o "Dir::Cache=$dir/cache"
    -o "Debug::NoLocking=1"
    # Files land in directories the _apt user cannot write; download as the caller.
    -o "APT::Sandbox::User=$(id -un)"
  )
}

npt_apt() {
  apt-get "${npt_apt_options[@]}" "$@"
}

npt_apt_cache() {
  apt-cache "${npt_apt_options[@]}" "$@"
}
