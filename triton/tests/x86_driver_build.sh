#!/bin/bash
# SPDX-License-Identifier: MIT
# Builds the Triton driver DLL for 32-bit Windows (i686 mingw, the x86 DDI ABI:
# __stdcall entries, 4-byte pointers) and checks that it exports OpenAdapter10_2
# undecorated and imports only system DLLs.
# Usage: x86_driver_build.sh CXX OBJDUMP SOURCE_ROOT OUT_DIR
set -euo pipefail
cxx=$1 objdump=$2 root=$3 out=$4
mkdir -p "$out"
"$cxx" -std=c++20 -O0 -shared -static -static-libgcc -static-libstdc++ \
  -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -Werror \
  -DWIN32_LEAN_AND_MEAN -DNOMINMAX -D_WIN32_WINNT=0x0A00 -Wl,--enable-stdcall-fixup \
  -I"$root/triton/include" -I"$root/dxbc/include" -I"$root/dxbc/asm/include" -I"$root/guest/core" -I"$root/transport/include" -I"$root/triton/kernel/include" \
  "$root"/triton/driver/src/*.cpp "$root"/dxbc/src/*.cpp "$root"/dxbc/asm/src/*.cpp "$root/triton/driver/triton.def" \
  -o "$out/triton_umd_x86.dll" -ldxguid
headers=$("$objdump" -p "$out/triton_umd_x86.dll")
grep -q "file format pei-i386" <<<"$headers" || { echo "not a 32-bit PE"; exit 1; }
grep -Eq '\[ *0\] OpenAdapter10_2$' <<<"$headers" || { echo "OpenAdapter10_2 is not exported undecorated"; exit 1; }
imports=$(grep "DLL Name:" <<<"$headers" | awk '{print tolower($3)}' | sort -u | tr '\n' ' ')
for dll in $imports; do
  case $dll in
    kernel32.dll|msvcrt.dll|user32.dll|advapi32.dll) ;;
    *) echo "unexpected import: $dll"; exit 1 ;;
  esac
done
echo "x86 driver DLL built; exports OpenAdapter10_2; imports: $imports"
