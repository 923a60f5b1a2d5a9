#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Extends protocol/registry/ids.json with ids for registry entries that have none.

Existing ids are never changed or reused; run by hand after a bootstrap that
added interfaces, then review and commit ids.json.
    /usr/bin/python3 protocol/generator/pins.py protocol/registry/registry.json protocol/registry/ids.json
"""
import json
import os
import sys


def main():
    reg_path, ids_path = sys.argv[1], sys.argv[2]
    reg = json.load(open(reg_path))
    if os.path.exists(ids_path):
        ids = json.load(open(ids_path))
    else:
        ids = {'comment': 'Pinned wire ids. Never change or reuse an id; retire it instead.',
               'entry_interface_id': 1, 'retired_interface_ids': [], 'interfaces': {}, 'functions': {}}
    used = {v['id'] for v in ids['interfaces'].values()} | set(ids['retired_interface_ids']) | {0, ids['entry_interface_id']}
    nxt = max(used) + 1
    for itf in reg['interfaces']:
        if itf['name'] in ids['interfaces']:
            continue
        ids['interfaces'][itf['name']] = {'id': nxt, 'iid': itf['iid'],
                                          'methods': {m['name']: i for i, m in enumerate(itf['methods'])}}
        nxt += 1
    fn_next = max(ids['functions'].values(), default=-1) + 1
    for fn in reg['functions']:
        if fn['name'] not in ids['functions']:
            ids['functions'][fn['name']] = fn_next
            fn_next += 1
    lines = ['{', ' "comment": %s,' % json.dumps(ids['comment']),
             ' "entry_interface_id": %d,' % ids['entry_interface_id'],
             ' "retired_interface_ids": %s,' % json.dumps(ids['retired_interface_ids']),
             ' "functions": %s,' % json.dumps(ids['functions']), ' "interfaces": {']
    items = []
    for name, pin in ids['interfaces'].items():
        items.append('  %s: {"id": %d, "iid": %s, "methods": %s}' % (
            json.dumps(name), pin['id'], json.dumps(pin['iid']), json.dumps(pin['methods'])))
    lines.append(',\n'.join(items))
    lines += [' }', '}']
    open(ids_path, 'w').write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
