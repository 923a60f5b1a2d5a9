# SPDX-License-Identifier: MIT
# Debian packages the build, the tests and the demo need; installed only when missing.
# Sourced by scripts/test and scripts/demo.

NPT_DEBIAN_PACKAGES=(
  meson ninja-build pkg-config g++ python3 ccache dpkg-dev
  mingw-w64 g++-mingw-w64-x86-64-posix gcc-mingw-w64-x86-64-posix g++-mingw-w64-i686-posix
  wine wine64 wine64-tools libwine-dev
  xvfb xauth libgl1-mesa-dri mesa-vulkan-drivers
  vkd3d-compiler spirv-tools glslang-tools
  libgtest-dev googletest libbenchmark-dev libpng-dev libsdl2-dev
  clang libclang-rt-14-dev
  valgrind
  qemu-system-x86 busybox-static
)

npt_missing_packages() {
  local pkg missing=()
  for pkg in "${NPT_DEBIAN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  echo "${missing[@]}"
}

npt_install_deps() {
  local missing
  missing=$(npt_missing_packages)
  [ -z "$missing" ] && return 0
  echo "installing Debian packages: $missing"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q >/dev/null
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $missing >/dev/null
}
