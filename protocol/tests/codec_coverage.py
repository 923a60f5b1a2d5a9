#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Which generated encoders and decoders the round-trip tests cover.

On demand, not a test: builds protocol_roundtrip_test (and protocol_malformed_test) in
a coverage build directory (gcc --coverage, -O0 so that every generated function stays
a function of its own), runs them with fresh counters, reads gcov's JSON for the
generated codec (npt_codec.cpp, and npt_encode.h's inline encoders as the tests
instantiate them) and prints, per remoted method, whether its encoder, decoder and
reply decoder ran and how many of their basic blocks did; then the same for the
record (struct) codecs, and a summary. Exit status 1 if a remoted method's encoder or
decoder never ran.

    protocol/tests/codec_coverage.py [--build build/protocol-coverage] [--tests roundtrip|all]
                                     [--list uncovered|all|none]

Needs gcc's gcov (Debian: gcc). Python standard library only.
"""

import argparse
import gzip
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(cmd, **kw):
    print('+ ' + ' '.join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True, **kw)


def configure(build):
    if not os.path.exists(os.path.join(build, 'build.ninja')):
        run(['meson', 'setup', build, '-Db_coverage=true', '-Dbuildtype=debug'], cwd=ROOT)
    run(['nice', '-n', '5', 'ninja', '-j' + os.environ.get('NPT_COVERAGE_JOBS', '2'), '-C', build,
         'protocol/tests/protocol_roundtrip_test', 'protocol/tests/protocol_malformed_test'], cwd=ROOT)


def reset_counters(build):
    for dirpath, _, files in os.walk(build):
        for f in files:
            if f.endswith('.gcda'):
                os.unlink(os.path.join(dirpath, f))


def gcov_json(build, gcda):
    out = subprocess.run(['gcov', '--json-format', '--stdout', gcda], cwd=build, check=True,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode()
    docs = []
    for line in out.splitlines():
        line = line.strip()
        if line.startswith('{'):
            docs.append(json.loads(line))
    return docs


def collect(build, gcdas):
    """name -> {calls, blocks, executed} over the generated files, merged over objects
    (inline encoders appear in every object that instantiates them)."""
    funcs = {}
    for gcda in gcdas:
        if not os.path.exists(os.path.join(build, gcda)):
            continue
        for doc in gcov_json(build, gcda):
            for f in doc['files']:
                base = os.path.basename(f['file'])
                if base not in ('npt_codec.cpp', 'npt_encode.h'):
                    continue
                for fn in f['functions']:
                    m = re.match(r'(?:npt::protocol::)?(?:\(anonymous namespace\)::)?(\w+)\(', fn['demangled_name'])
                    if not m:
                        continue
                    name = m.group(1)
                    # Overloads (encodeRecord/decodeRecord) are told apart by their signature.
                    key = name if name not in ('encodeRecord', 'decodeRecord') else fn['demangled_name']
                    e = funcs.setdefault(key, {'calls': 0, 'blocks': fn['blocks'], 'executed': 0})
                    e['calls'] += fn['execution_count']
                    e['blocks'] = max(e['blocks'], fn['blocks'])
                    e['executed'] = max(e['executed'], fn['blocks_executed'])
    return funcs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--build', default=os.path.join(ROOT, 'build', 'protocol-coverage'))
    ap.add_argument('--tests', choices=('roundtrip', 'all'), default='roundtrip',
                    help='roundtrip: the generated round-trip tests only (the coverage question); '
                         'all: also the hand-written malformed-stream catalogue')
    ap.add_argument('--list', choices=('uncovered', 'all', 'none'), default='uncovered')
    args = ap.parse_args()
    build = os.path.abspath(args.build)

    configure(build)
    reset_counters(build)
    run([os.path.join(build, 'protocol/tests/protocol_roundtrip_test'), '--gtest_brief=1'],
        stdout=subprocess.DEVNULL)
    if args.tests == 'all':
        run([os.path.join(build, 'protocol/tests/protocol_malformed_test'), '--gtest_brief=1'],
            stdout=subprocess.DEVNULL)

    codec_src = open(os.path.join(build, 'protocol', 'npt_codec.cpp')).read()
    methods = re.findall(r'^static ErrorCode decode_(\w+)\(const uint8_t\* p, size_t left', codec_src, re.M)
    replies = set(re.findall(r'^ErrorCode decodeReply_(\w+)\(', codec_src, re.M))
    encode_src = open(os.path.join(build, 'protocol', 'npt_encode.h')).read()
    record_def = re.compile(r'^\s*(?:static\s+)?(?:NPT_INLINE\s+)?(?:void|const uint8_t\*|uint8_t\*)\s+(?:put|get)w?_(\w+)\(', re.M)
    records = sorted(set(record_def.findall(codec_src)) | set(record_def.findall(encode_src)))

    gcdas = ['protocol/libnpt_protocol.a.p/meson-generated_.._npt_codec.cpp.gcda',
             'protocol/tests/protocol_roundtrip_test.p/meson-generated_.._.._npt_roundtrip_test.cpp.gcda',
             'protocol/tests/protocol_malformed_test.p/malformed_test.cpp.gcda',
             'protocol/tests/protocol_malformed_test.p/control_test.cpp.gcda']
    funcs = collect(build, gcdas)

    def cell(name):
        f = funcs.get(name)
        if f is None:
            return None
        return f

    rows, missing = [], []
    totals = {'blocks': 0, 'executed': 0}
    for m in methods:
        enc, dec = cell('encode_' + m), cell('decode_' + m)
        rep = cell('decodeReply_' + m) if m in replies else None
        parts = []
        full = True
        for label, f, required in (('encode', enc, True), ('decode', dec, True), ('reply', rep, m in replies)):
            if not required:
                continue
            if f is None or f['calls'] == 0:
                parts.append('%s: never ran' % label)
                missing.append('%s_%s' % (label, m))
                full = False
                continue
            totals['blocks'] += f['blocks']
            totals['executed'] += f['executed']
            parts.append('%s: %d calls, %d/%d blocks' % (label, f['calls'], f['executed'], f['blocks']))
            if f['executed'] < f['blocks']:
                full = False
        rows.append((m, full, parts))

    rec_rows = []
    for r in records:
        parts, full = [], True
        for prefix in ('put_', 'get_', 'putw_', 'getw_'):
            f = cell(prefix + r)
            if f is None:
                continue
            totals['blocks'] += f['blocks']
            totals['executed'] += f['executed']
            parts.append('%s: %d calls, %d/%d blocks' % (prefix.rstrip('_'), f['calls'], f['executed'], f['blocks']))
            if f['calls'] == 0:
                missing.append(prefix + r)
            if f['executed'] < f['blocks']:
                full = False
        if parts:
            rec_rows.append((r, full, parts))

    if args.list != 'none':
        print('Methods (%d remoted, %d with a reply decoder):' % (len(methods), len(replies)))
        for m, full, parts in rows:
            if args.list == 'all' or not full:
                print('  %-60s %s' % (m, '; '.join(parts)))
        print('Records (%d with codec functions):' % len(rec_rows))
        for r, full, parts in rec_rows:
            if args.list == 'all' or not full:
                print('  %-60s %s' % (r, '; '.join(parts)))

    ran = sum(1 for m in methods
              if funcs.get('encode_' + m, {}).get('calls') and funcs.get('decode_' + m, {}).get('calls'))
    full_methods = sum(1 for _, full, _ in rows if full)
    full_records = sum(1 for _, full, _ in rec_rows if full)
    pct = 100.0 * totals['executed'] / totals['blocks'] if totals['blocks'] else 0.0
    print('Summary (%s tests): %d/%d remoted methods with encoder and decoder run, %d/%d reply decoders run; '
          'every block run in %d/%d methods and %d/%d records; blocks %d/%d (%.1f%%) of the generated codec functions'
          % (args.tests, ran, len(methods),
             sum(1 for m in replies if funcs.get('decodeReply_' + m, {}).get('calls')), len(replies),
             full_methods, len(rows), full_records, len(rec_rows), totals['executed'], totals['blocks'], pct))
    if missing:
        print('Never ran: ' + ', '.join(missing))
    return 1 if any(x.startswith(('encode_', 'decode_')) for x in missing) else 0


if __name__ == '__main__':
    sys.exit(main())
