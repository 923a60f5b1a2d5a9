#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Every source file of the project says its licence in its first lines, and no comment
cites an issue number (history lives in git; a comment says why, for the code as it is).

  source_headers.py SOURCE_ROOT            check; lists each offending file and line
  source_headers.py SOURCE_ROOT --add      adds the SPDX line where it is missing

Source files: C/C++ (.c .cpp .h .hlsl), Python, shell, meson.build, module definitions
(.def) and extension-less scripts that start with #!. Data (test inputs, seeds, expectation
lists, JSON) and Markdown are not sources.
"""
import os
import re
import subprocess
import sys

SPDX = "SPDX-License-Identifier: MIT"
COMMENT = {".c": "//", ".cpp": "//", ".h": "//", ".hlsl": "//", ".py": "#", ".sh": "#", ".def": ";"}
ISSUE_CITATION = re.compile(r"\b[Ii]ssues? ?#?\d+|\bissue's\b")


def tracked_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True, capture_output=True).stdout
        return [f for f in out.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for top, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith(".") and not d.startswith("build")]
            files += [os.path.relpath(os.path.join(top, n), root) for n in names]
        return files


def comment_marker(root, path):
    """The line-comment marker of a source file, or None for anything else."""
    name = os.path.basename(path)
    if path.startswith(".ci/"):
        return None   # the CI's own entry point, not the project's source
    if name == "meson.build":
        return "#"
    ext = os.path.splitext(name)[1]
    if ext in COMMENT:
        return COMMENT[ext]
    if ext:
        return None
    try:
        with open(os.path.join(root, path), "rb") as f:
            return "#" if f.read(2) == b"#!" else None
    except OSError:
        return None


def add_spdx(text, marker):
    lines = text.split("\n")
    at = 1 if lines and lines[0].startswith("#!") else 0
    lines.insert(at, "%s %s" % (marker, SPDX))
    return "\n".join(lines)


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    root, add = argv[1], "--add" in argv[2:]
    problems = []
    for path in sorted(tracked_files(root)):
        marker = comment_marker(root, path)
        if marker is None:
            continue
        full = os.path.join(root, path)
        with open(full, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if SPDX not in "\n".join(text.split("\n")[:3]):
            if add:
                with open(full, "w", encoding="utf-8") as f:
                    f.write(add_spdx(text, marker))
            else:
                problems.append("%s: no '%s %s' in its first 3 lines" % (path, marker, SPDX))
        for number, line in enumerate(text.split("\n"), 1):
            if ISSUE_CITATION.search(line):
                problems.append("%s:%d: cites an issue: %s" % (path, number, line.strip()[:100]))
    for problem in problems:
        print(problem)
    if problems:
        print("%d problems (LICENSE: MIT; tests/style/source_headers.py ROOT --add fixes the SPDX lines)"
              % len(problems))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
