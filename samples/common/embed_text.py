#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turns a shader source file into a C++ header holding it as a NUL-terminated
char array, so the samples carry their HLSL and stay single-file programs."""
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: embed_text.py INPUT OUTPUT SYMBOL")
    source, output, symbol = sys.argv[1:]
    with open(source, "rb") as f:
        data = f.read()
    lines = ["// Generated from %s by samples/common/embed_text.py; do not edit." % source.split("/")[-1],
             "#pragma once", "", "inline constexpr char %s[] = {" % symbol]
    for i in range(0, len(data), 16):
        lines.append("  " + ", ".join("0x%02x" % b for b in data[i:i + 16]) + ",")
    lines.append("  0x00,")
    lines.append("};")
    lines.append("inline constexpr const char* %sName = \"%s\";" % (symbol, source.split("/")[-1]))
    with open(output, "w") as f:
        f.write("\n".join(lines) + "\n")


main()
