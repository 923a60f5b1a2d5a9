#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The generator must refuse to run when the pinned ids disagree with the registry."""
import json
import os
import subprocess
import sys
import tempfile

root = sys.argv[1]
reg = os.path.join(root, 'registry', 'registry.json')
ovl = os.path.join(root, 'registry', 'overlay.json')
ids_path = os.path.join(root, 'registry', 'ids.json')
gen = os.path.join(root, 'generator', 'gen.py')
ids = json.load(open(ids_path))


def run(pins):
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, 'ids.json')
        json.dump(pins, open(p, 'w'))
        r = subprocess.run([sys.executable, gen, reg, ovl, p, d, '--check'], capture_output=True, text=True)
        return r.returncode, r.stderr


def tampered(fn):
    pins = json.loads(json.dumps(ids))
    fn(pins)
    return pins


def swap_methods(p):
    m = p['interfaces']['ID3D11DeviceContext']['methods']
    m['DrawIndexed'], m['Draw'] = m['Draw'], m['DrawIndexed']


def reuse_iface_id(p):
    p['interfaces']['ID3D11Device5']['id'] = p['interfaces']['ID3D11Device']['id']


def change_iid(p):
    p['interfaces']['ID3D11Buffer']['iid'] = '00000000-0000-0000-0000-000000000000'


def drop_iface(p):
    del p['interfaces']['IDXGIFactory7']


def rename_method(p):
    m = p['interfaces']['ID3D11Device']['methods']
    m['CreateBufferX'] = m.pop('CreateBuffer')


def reuse_function_id(p):
    p['functions']['CreateDXGIFactory2'] = p['functions']['CreateDXGIFactory']


def retired(p):
    p['retired_interface_ids'].append(p['interfaces']['ID3D11Query']['id'])


failures = 0
code, err = run(ids)
if code != 0:
    print('committed ids rejected:', err)
    failures += 1
for fn in (swap_methods, reuse_iface_id, change_iid, drop_iface, rename_method, reuse_function_id, retired):
    code, err = run(tampered(fn))
    if code != 2 or 'refusing' not in err:
        print('%s: expected refusal (exit 2), got %d: %s' % (fn.__name__, code, err[-300:]))
        failures += 1
    else:
        print('%s: refused: %s' % (fn.__name__, err.strip().splitlines()[-1].strip()))
sys.exit(1 if failures else 0)
