#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Counts the results of one scripts/test run across build directories.

Each meson test counts once, except GoogleTest programs (protocol 'gtest'),
whose XML report counts every test case. Prints failures by name (with the end
of a failed non-GoogleTest program's output, which says why: CI shows only the
end of the run) and ends with the line 'N passed, N failed, N skipped'; exits 1
on any failure.
"""
import json
import re
import os
import sys
import xml.etree.ElementTree as ET


# One frame of winedbg's backtrace: "=>0 0x... in module (+0x...)", "  1 0x... in ...".
BACKTRACE_FRAME = re.compile(r'^\s*(=>)?\s*\d+ 0x[0-9a-fA-F]+')


def gtest_cases(xml_path):
    """Yields (name, outcome) for each test case of a GoogleTest XML report."""
    root = ET.parse(xml_path).getroot()
    for case in root.iter('testcase'):
        name = f"{case.get('classname')}.{case.get('name')}"
        if case.find('failure') is not None or case.find('error') is not None:
            yield name, 'failed'
        elif case.get('result') == 'skipped' or case.get('status') == 'notrun' \
                or case.find('skipped') is not None:
            yield name, 'skipped'
        else:
            yield name, 'passed'


def meson_results(build_dir, since):
    log = os.path.join(build_dir, 'meson-logs', 'testlog.json')
    if not os.path.exists(log):
        return
    with open(log, encoding='utf-8') as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def output_tail(test, lines=25):
    """The last lines of a test's output, indented, for a failure's line.

    A program that crashed ends with Wine's debugger dump (registers, modules,
    threads), which says nothing about where: lead with the test case that was
    running and the debugger's exception line and backtrace instead.
    """
    output = (test.get('stdout') or '').rstrip('\n').split('\n')
    return ''.join('\n    | ' + line
                   for line in crash_summary(output) + output[-lines:] if line.strip())


def crash_summary(output, frames=12):
    """The unfinished GoogleTest case and the debugger's account of a crash, if any."""
    summary = []
    running = None
    for line in output:
        if line.startswith('[ RUN      ]'):
            running = line
        elif line.startswith(('[       OK ]', '[  FAILED  ]', '[  SKIPPED ]')):
            running = None
    if running:
        summary.append(f'unfinished test case: {running[len("[ RUN      ]"):].strip()}')
    in_backtrace = False
    for line in output:
        if 'Unhandled exception' in line or line.startswith('Backtrace:'):
            summary.append(line)
            in_backtrace = line.startswith('Backtrace:')
        elif in_backtrace and BACKTRACE_FRAME.match(line) and frames > 0:
            summary.append(line)
            frames -= 1
        else:
            in_backtrace = False
    return summary


def summarize(build_dirs, since):
    counts = {'passed': 0, 'failed': 0, 'skipped': 0}
    failures = []
    for build_dir in build_dirs:
        label = os.path.basename(os.path.normpath(build_dir))
        for test in meson_results(build_dir, since):
            name, result = test['name'], test['result']
            # Meson names the report after the test's own name, without the
            # 'project:suite / ' prefix of the log, in the build directory.
            xml_path = os.path.join(build_dir, name.split(' / ')[-1] + '.xml')
            fresh_xml = os.path.exists(xml_path) and os.path.getmtime(xml_path) >= since
            case_failures = 0
            if fresh_xml:
                try:
                    for case, outcome in gtest_cases(xml_path):
                        counts[outcome] += 1
                        if outcome == 'failed':
                            case_failures += 1
                            failures.append(f'{label}: {name}: {case}')
                except ET.ParseError:
                    fresh_xml = False
            if not fresh_xml:
                if result in ('OK', 'EXPECTEDFAIL'):
                    counts['passed'] += 1
                elif result == 'SKIP':
                    counts['skipped'] += 1
                else:
                    counts['failed'] += 1
                    failures.append(f'{label}: {name}: {result}' + output_tail(test))
            elif result not in ('OK', 'EXPECTEDFAIL', 'SKIP') and case_failures == 0:
                # The program failed outside any test case (crash at exit, timeout...).
                counts['failed'] += 1
                failures.append(f'{label}: {name}: {result} outside its test cases')
    return counts, failures


def main():
    since = float(sys.argv[1])
    counts, failures = summarize(sys.argv[2:], since)
    for failure in failures:
        print(f'FAILED {failure}')
    print(f"{counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped")
    return 1 if counts['failed'] or not counts['passed'] else 0


if __name__ == '__main__':
    sys.exit(main())
