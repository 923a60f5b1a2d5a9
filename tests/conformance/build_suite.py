#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Builds d3d11_suite.exe: fetches Wine's d3d11 test through fetch-wine-tests.sh
(cached outside the clone), generates the table of its test functions and compiles
d3d11_suite.c, which includes the fetched d3d11.c, with the given C compiler.

Usage: build_suite.py --fetch SCRIPT --generator GEN --driver d3d11_suite.c
                      --out EXE -- CC [CC ARGS...]
"""
import argparse
import os
import subprocess
import sys

# mingw-w64's headers lack two attribute macros of Wine's own headers that
# wine/heap.h uses; they only annotate allocators.
WINE_HEADER_COMPAT = ["-D__WINE_ALLOC_SIZE(...)=", "-D__WINE_MALLOC="]
LIBRARIES = ["-ld3d11", "-ldxgi", "-lgdi32", "-luuid"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fetch", required=True)
    parser.add_argument("--generator", required=True)
    parser.add_argument("--driver", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("cc", nargs="+")
    options = parser.parse_args()

    fetched = subprocess.run(["bash", options.fetch], stdout=subprocess.PIPE, text=True)
    if fetched.returncode != 0:
        sys.exit("build_suite: fetching Wine's d3d11 tests failed (see above)")
    tree = fetched.stdout.strip().splitlines()[-1]
    out_dir = os.path.dirname(os.path.abspath(options.out))
    table_dir = os.path.join(out_dir, "d3d11_suite.gen")
    os.makedirs(table_dir, exist_ok=True)
    subprocess.run([sys.executable, options.generator, os.path.join(tree, "dlls/d3d11/tests/d3d11.c"),
                    os.path.join(table_dir, "d3d11_functions.h")], check=True)
    # Warnings are Wine's code's, not ours: -w keeps the build log about our code.
    command = options.cc + ["-O1", "-g", "-w", "-static"] + WINE_HEADER_COMPAT + [
        "-I" + table_dir, "-I" + tree, "-I" + os.path.join(tree, "include"),
        "-o", options.out, options.driver] + LIBRARIES
    sys.exit(subprocess.run(command).returncode)


if __name__ == "__main__":
    main()
