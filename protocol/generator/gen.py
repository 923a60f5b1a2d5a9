#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Neptune protocol generator: registry + overlay + pinned ids -> C++.

    gen.py REGISTRY OVERLAY IDS OUTDIR [--check]

Refuses to run (exit 2) when the pinned ids disagree with the registry, and
(exit 3) when the overlay leaves a method or field unclassified.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model as M  # noqa: E402


def main(argv):
    if len(argv) < 5:
        print(__doc__)
        return 1
    mdl = M.Model(argv[1], argv[2], argv[3])
    problems = mdl.check_pins()
    if problems:
        sys.stderr.write('gen.py: pinned ids disagree with the registry; refusing to generate:\n')
        for p in problems:
            sys.stderr.write('  ' + p + '\n')
        return 2
    methods, errors = M.build_methods(mdl)
    if errors:
        sys.stderr.write('gen.py: overlay incomplete:\n')
        for e in errors:
            sys.stderr.write('  ' + e + '\n')
        return 3
    if '--check' in argv:
        from collections import Counter
        print(Counter(m.policy for m in methods))
        return 0
    import emit
    emit.write_all(mdl, methods, argv[4])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
