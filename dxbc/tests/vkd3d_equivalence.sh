#!/bin/bash
# SPDX-License-Identifier: MIT
# Consumer equivalence with vkd3d-shader: every corpus shader and its rebuild (from what
# the DDI delivers, given stride) must compile to byte-identical SPIR-V that spirv-val
# accepts; a container with one flipped checksum byte must be refused (negative control).
# usage: vkd3d_equivalence.sh DXBC_TOOL CORPUS_DIR [11.1|11.0]
# Exit 77 (meson: skipped) when vkd3d-compiler/spirv-val or the corpus are missing.

set -u
tool=$1
corpus=$2
stride=${3:-11.1}

command -v vkd3d-compiler >/dev/null || { echo "vkd3d-compiler not installed: skipped"; exit 77; }
command -v spirv-val >/dev/null || { echo "spirv-val not installed: skipped"; exit 77; }
[ -d "$corpus" ] || { echo "corpus $corpus absent: skipped"; exit 77; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

total=0 identical=0 invalid_both=0 failures=0 refused_by_vkd3d=0 negative_ok=0
while IFS= read -r -d '' file; do
  # Root signatures and other non-shader containers are not vkd3d-compiler input.
  "$tool" rebuild "$file" --stride "$stride" -o "$work/rebuilt.dxbc" >"$work/rebuild.log" 2>&1
  rc=$?
  if grep -q "MissingChunk" "$work/rebuild.log"; then
    continue
  fi
  total=$((total + 1))
  if [ ! -s "$work/rebuilt.dxbc" ]; then
    echo "FAIL rebuild: $file"; cat "$work/rebuild.log"; failures=$((failures + 1)); continue
  fi
  rm -f "$work/original.spv" "$work/rebuilt.spv"
  vkd3d-compiler -x dxbc-tpf -b spirv-binary -o "$work/original.spv" "$file" >"$work/o.log" 2>&1
  orc=$?
  vkd3d-compiler -x dxbc-tpf -b spirv-binary -o "$work/rebuilt.spv" "$work/rebuilt.dxbc" >"$work/r.log" 2>&1
  rrc=$?
  if [ $orc -ne $rrc ]; then
    echo "FAIL exit status differs ($orc vs $rrc): $file"; cat "$work/o.log" "$work/r.log"
    failures=$((failures + 1)); continue
  fi
  if [ $orc -ne 0 ]; then
    # vkd3d-shader cannot translate the original either (unsupported feature): both
    # refuse alike, which is the equivalence we can ask for.
    refused_by_vkd3d=$((refused_by_vkd3d + 1)); continue
  fi
  if ! cmp -s "$work/original.spv" "$work/rebuilt.spv"; then
    echo "FAIL SPIR-V differs: $file"; failures=$((failures + 1)); continue
  fi
  identical=$((identical + 1))
  if ! spirv-val "$work/rebuilt.spv" >"$work/val.log" 2>&1; then
    # Identical bytes: the original's SPIR-V is just as invalid (a vkd3d-shader bug,
    # listed so that it stays visible).
    echo "note: spirv-val rejects vkd3d's SPIR-V of the original too: $(basename "$file"): $(head -1 "$work/val.log")"
    invalid_both=$((invalid_both + 1))
  fi

  # Negative control: flip one checksum byte of the rebuilt container.
  cp "$work/rebuilt.dxbc" "$work/flipped.dxbc"
  printf '\xff' | dd of="$work/flipped.dxbc" bs=1 seek=7 conv=notrunc status=none
  if cmp -s "$work/rebuilt.dxbc" "$work/flipped.dxbc"; then
    printf '\x00' | dd of="$work/flipped.dxbc" bs=1 seek=7 conv=notrunc status=none
  fi
  if vkd3d-compiler -x dxbc-tpf -b spirv-binary -o "$work/flipped.spv" "$work/flipped.dxbc" \
       >"$work/f.log" 2>&1; then
    echo "FAIL flipped checksum accepted: $file"; failures=$((failures + 1))
  elif grep -qi "checksum" "$work/f.log"; then
    negative_ok=$((negative_ok + 1))
  else
    echo "FAIL flipped checksum refused for another reason: $file"; cat "$work/f.log"
    failures=$((failures + 1))
  fi
done < <(find "$corpus" -name '*.dxbc' -print0 | sort -z)

echo "stride $stride: $total shaders, $identical identical SPIR-V ($((identical - invalid_both)) spirv-val clean," \
     "$invalid_both invalid for original and rebuild alike)," \
     "$refused_by_vkd3d refused by vkd3d for original and rebuild alike," \
     "$negative_ok flipped checksums refused, $failures failures"
[ $total -gt 0 ] || exit 77
[ $failures -eq 0 ]
