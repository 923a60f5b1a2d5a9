#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Assembles one sample shader with `dxbc-tool asm` and hands the container to
an independent consumer: vkd3d-shader (vkd3d-compiler, DXBC -> SPIR-V) and
spirv-val, when they are installed. The container is left at OUT for runs
with --shaders DIR."""
import os
import shutil
import subprocess
import sys
import tempfile


def run(command):
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        print("FAILED: %s\n%s" % (" ".join(command), result.stdout))
        sys.exit(1)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: check_asm.py DXBC_TOOL SOURCE.asm OUT.dxbc")
    tool, source, output = sys.argv[1:]
    run([tool, "asm", source, "-o", output])
    run([tool, "verify", output])

    compiler, validator = shutil.which("vkd3d-compiler"), shutil.which("spirv-val")
    if not compiler or not validator:
        print("assembled %s; vkd3d-compiler/spirv-val not installed, SPIR-V check skipped" % output)
        return 0
    with tempfile.TemporaryDirectory() as work:
        spirv = os.path.join(work, "shader.spv")
        run([compiler, "-x", "dxbc-tpf", "-b", "spirv-binary", "-o", spirv, output])
        run([validator, spirv])
    print("assembled %s; vkd3d-shader translated it to valid SPIR-V" % output)
    return 0


sys.exit(main())
