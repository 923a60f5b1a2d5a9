# SPDX-License-Identifier: MIT
"""Registry + overlay + pinned ids -> a resolved model the emitters walk.

Everything the wire format needs to know about a parameter or a field is
decided here, once; the emitters only print.  Anything the rules cannot
classify is an error: the overlay must say what it means.
"""
import json
import re

# Builtin scalar types: name -> (win64 size, dxvk-native size, wire kind)
SCALARS = {
    'UINT': (4, 4, 'u32'), 'INT': (4, 4, 'i32'), 'BOOL': (4, 4, 'i32'), 'LONG': (4, 4, 'i32'),
    'ULONG': (4, 4, 'u32'), 'DWORD': (4, 4, 'u32'), 'FLOAT': (4, 4, 'f32'), 'float': (4, 4, 'f32'),
    'HRESULT': (4, 4, 'i32'), 'int': (4, 4, 'i32'), 'unsigned int': (4, 4, 'u32'),
    'UINT8': (1, 1, 'u8'), 'BYTE': (1, 1, 'u8'), 'char': (1, 1, 'u8'), 'unsigned char': (1, 1, 'u8'),
    'WORD': (2, 2, 'u16'), 'UINT16': (2, 2, 'u16'), 'USHORT': (2, 2, 'u16'),
    'WCHAR': (2, 4, 'wchar'),
    'UINT64': (8, 8, 'u64'), 'INT64': (8, 8, 'i64'), 'SIZE_T': (8, 8, 'u64'), 'double': (8, 8, 'f64'),
    'LARGE_INTEGER': (8, 8, 'i64'),
    'HANDLE': (8, 8, 'handle'), 'HWND': (8, 8, 'handle'), 'HMODULE': (8, 8, 'handle'),
    'HMONITOR': (8, 8, 'handle'), 'HDC': (8, 8, 'handle'),
}
# Builtin records, same layout in both ABIs.
BUILTIN_RECORDS = {
    'GUID': [('Data1', 'DWORD', []), ('Data2', 'WORD', []), ('Data3', 'WORD', []), ('Data4', 'BYTE', [8])],
    'LUID': [('LowPart', 'DWORD', []), ('HighPart', 'LONG', [])],
    'RECT': [('left', 'LONG', []), ('top', 'LONG', []), ('right', 'LONG', []), ('bottom', 'LONG', [])],
    'POINT': [('x', 'LONG', []), ('y', 'LONG', [])],
    'SIZE': [('cx', 'LONG', []), ('cy', 'LONG', [])],
}
STRINGS = {'LPCSTR': 'u8', 'LPSTR': 'u8', 'LPCWSTR': 'wchar', 'LPWSTR': 'wchar'}


class ModelError(Exception):
    pass


def load_json(path):
    with open(path, encoding='utf-8') as f:
        return json.load(f)


class Model:
    def __init__(self, registry_path, overlay_path, ids_path):
        self.reg = load_json(registry_path)
        self.ov = load_json(overlay_path)
        self.ids = load_json(ids_path)
        self.errors = []
        self.typedefs = self.reg['typedefs']
        self.enums = self.reg['enums']
        self.records = self.reg['records']
        self.interfaces = {i['name']: i for i in self.reg['interfaces']}
        self.records = dict(self.records)
        self.records.update(self.ov.get('wire_records', {}))
        self.iface_order = [i['name'] for i in self.reg['interfaces']]

    # --- type resolution ----------------------------------------------------
    def resolve(self, name, ptr=0):
        """Follows typedefs; returns (base name, category, extra pointer depth)."""
        seen = 0
        while name in self.typedefs and seen < 16:
            t = self.typedefs[name]
            ptr += t.get('ptr', 0)
            name = t['type']
            seen += 1
        if name == 'IUnknown' or name in self.interfaces:
            return name, 'interface', ptr
        if name in ('REFIID', 'REFGUID'):
            return 'GUID', 'guid', ptr
        if name in ('GUID', 'IID'):
            return 'GUID', 'record', ptr
        if name in STRINGS:
            return name, 'string', ptr
        if name in SCALARS:
            return name, 'scalar', ptr
        if name in self.enums:
            return name, 'enum', ptr
        if name in self.records or name in BUILTIN_RECORDS:
            return name, 'record', ptr
        if name == 'void':
            return name, 'void', ptr
        if name == 'SECURITY_ATTRIBUTES':
            return name, 'opaque', ptr
        raise ModelError('unknown type %s' % name)

    # --- pins -----------------------------------------------------------------
    def check_pins(self):
        """The committed ids must agree with the registry, or nothing is generated."""
        problems = []
        pinned = self.ids['interfaces']
        used_ids = {}
        for name, pin in pinned.items():
            if pin['id'] in used_ids:
                problems.append('interface id %d used by both %s and %s' % (pin['id'], used_ids[pin['id']], name))
            used_ids[pin['id']] = name
            if pin['id'] in self.ids.get('retired_interface_ids', []):
                problems.append('%s uses retired interface id %d' % (name, pin['id']))
        for name in self.iface_order:
            itf = self.interfaces[name]
            if name not in pinned:
                problems.append('interface %s has no pinned id' % name)
                continue
            pin = pinned[name]
            if pin.get('iid') != itf['iid']:
                problems.append('%s: pinned IID %s != registry IID %s' % (name, pin.get('iid'), itf['iid']))
            names = [m['name'] for m in itf['methods']]
            pm = pin['methods']
            if sorted(pm.values()) != list(range(len(pm))):
                problems.append('%s: method ids are not 0..n-1 (%s)' % (name, sorted(pm.values())))
            if list(pm.keys()) != names or any(pm[n] != i for i, n in enumerate(names)):
                problems.append('%s: pinned methods %s != registry vtable order %s' % (name, list(pm.items()), names))
        for name in pinned:
            if name not in self.interfaces:
                problems.append('pinned interface %s is not in the registry (retire its id instead)' % name)
        fn_pins = self.ids['functions']
        fnames = [f['name'] for f in self.reg['functions']]
        for f in fnames:
            if f not in fn_pins:
                problems.append('function %s has no pinned id' % f)
        if sorted(fn_pins.values()) != sorted(set(fn_pins.values())):
            problems.append('function ids are reused')
        for f in fn_pins:
            if f not in fnames:
                problems.append('pinned function %s is not in the registry' % f)
        return problems

    def iface_id(self, name):
        return self.ids['interfaces'][name]['id']

    # --- interface hierarchy -------------------------------------------------
    def ancestors(self, name):
        out = []
        while name and name in self.interfaces:
            out.append(name)
            name = self.interfaces[name]['parent']
        return out

    def family_root(self, name):
        """Versioned interfaces (ID3D11Device5 : ... : ID3D11Device) share a family."""
        while True:
            parent = self.interfaces[name]['parent']
            strip = lambda n: re.sub(r'\d+$', '', n)
            versioned = parent in self.interfaces and (
                (name.startswith(parent) and name[len(parent):].isdigit()) or
                (name[-1].isdigit() and parent[-1].isdigit() and strip(name) == strip(parent)))
            if versioned:
                name = parent
            else:
                return name

    def accepted_by(self, created_as):
        """Interfaces a handle registered as `created_as` may be used as."""
        root = self.family_root(created_as)
        fam = [n for n in self.iface_order if self.family_root(n) == root]
        extra = self.ov.get('implements', {}).get(root, [])
        for e in list(extra):
            extra_root = self.family_root(e)
            fam += [n for n in self.iface_order if self.family_root(n) == extra_root]
        out = set()
        for n in fam:
            out.update(self.ancestors(n))
        return out


class Param:
    """One parameter as the wire sees it."""
    def __init__(self, **kw):
        self.__dict__.update(kw)

    def __repr__(self):
        return 'Param(%s)' % ', '.join('%s=%r' % kv for kv in sorted(self.__dict__.items()))


class Method:
    def __init__(self, **kw):
        self.__dict__.update(kw)


def method_key(iface, name):
    return '%s::%s' % (iface, name) if iface else name


class Classifier:
    """Turns IDL parameters + overlay notes into wire Params."""

    def __init__(self, model):
        self.m = model
        self.ov_methods = model.ov.get('methods', {})
        self.ov_ifaces = model.ov.get('interfaces', {})

    def policy(self, iface, meth):
        key = method_key(iface, meth['name'])
        note = self.ov_methods.get(key, {})
        if 'policy' in note:
            return note['policy']
        if iface and iface in self.ov_ifaces and 'policy' in self.ov_ifaces[iface]:
            return self.ov_ifaces[iface]['policy']
        if iface == 'IUnknown':
            return 'local'
        params = meth['params']
        outs = [p for p in params if self.is_out(p)]
        name = meth['name']
        if not outs and meth['ret'] == 'void':
            return 'async'
        if name.startswith('Create') and outs and all(self.is_object_out(p) for p in outs):
            return 'create'
        if re.match(r'^(IA|VS|HS|DS|GS|PS|CS|SO|RS|OM)?(Get|Check|Is)', name):
            return 'local'
        return None

    def is_out(self, p):
        attrs = p.get('attrs', [])
        base, cat, ptr = self.m.resolve(p['type'], p.get('ptr', 0))
        if cat == 'interface' or cat == 'void':
            if ptr >= 2 and not p.get('const_ptr'):
                return True  # T** without const is always an out (Wine marks some [in, out])
            if cat == 'interface':
                return False
        if 'out' in attrs:
            return True
        # Wine's d3d11_1+ IDL omits [in]/[out]; a non-const pointer is an out
        return not attrs and ptr >= 1 and not p.get('const') and not p.get('const_ptr') and base != 'WCHAR'

    def is_object_out(self, p):
        base, cat, ptr = self.m.resolve(p['type'], p.get('ptr', 0))
        return (cat == 'interface' and ptr == 2) or (cat == 'void' and ptr == 2)

    def classify(self, iface, meth, policy):
        key = method_key(iface, meth['name'])
        note = self.ov_methods.get(key, {})
        pnotes = note.get('params', {})
        params = note.get('wire_params') or meth['params']
        names = []
        for i, p in enumerate(params):
            names.append(p['name'] or note.get('param_names', [None] * len(params))[i])
        out = []
        counts = {}
        for p, name in zip(params, names):
            for a in p.get('attrs', []):
                mm = re.match(r'size_is\((\w+)\)', a)
                if mm and name not in pnotes:
                    pnotes = dict(pnotes)
                    pnotes[name] = {'count': mm.group(1)}
        for p, name in zip(params, names):
            pn = pnotes.get(name, {})
            if 'count' in pn:
                counts.setdefault(pn['count'], []).append(name)
        for p, name in zip(params, names):
            pn = dict(pnotes.get(name, {}))
            pn.update({k: v for k, v in p.items() if k in ('wire_kind', 'max')})
            out.append(self.param(key, policy, p, name, pn, counts, meth['name']))
        return out

    def param(self, key, policy, p, name, pn, counts, mname):
        direction = 'out' if self.is_out(p) and not pn.get('count') and not pn.get('payload') \
            and not p.get('wire_kind') else 'in'
        if 'direction' in pn:
            direction = pn['direction']
        base, cat, ptr = self.m.resolve(p['type'], p.get('ptr', 0))
        const = p.get('const', False)
        P = lambda kind, **kw: Param(name=name, kind=kind, type=base, cat=cat, ptr=ptr, const=const,
                                     direction=direction, idl=p, **kw)
        setter = bool(re.search(r'Set|Clear|Discard', mname))
        nullable = pn.get('optional', setter)
        if p.get('wire_kind'):
            return P(p['wire_kind'], max=pn.get('max', 1 << 30), optional=pn.get('optional', False))
        if policy == 'sync' and 'count' in pn and self.is_out(p) and ptr == 1 and name not in counts:
            # An out array of a sync method: n elements in the reply, n = the in count.
            if cat in ('scalar', 'enum') or (cat == 'record' and self.m.record_is_flat(base)):
                return Param(name=name, kind='out_array', type=base, cat=cat, ptr=ptr, const=const,
                             direction='out', idl=p, count=pn['count'],
                             elem='record' if cat == 'record' else 'scalar', optional=pn.get('optional', False))
            raise ModelError('%s: sync out array %s is not of scalars or flat structs' % (key, name))
        if name in counts and pn.get('inout'):
            # In/out count (GetDisplayModeList's pNumModes): on entry how many elements
            # the caller's array holds, on return how many there are / were written.
            if policy != 'sync' or cat != 'scalar' or ptr != 1:
                raise ModelError('%s: in/out count %s must be a UINT* of a sync method' % (key, name))
            if 'max' not in pn:
                raise ModelError('%s: count %s needs a max in the overlay' % (key, name))
            return Param(name=name, kind='inout_count', type=base, cat=cat, ptr=ptr, const=const,
                         direction='inout', idl=p, max=pn['max'], arrays=counts[name])
        if name in counts:
            if cat not in ('scalar', 'enum') or ptr != 0:
                raise ModelError('%s: count %s is not a scalar' % (key, name))
            if 'max' not in pn:
                raise ModelError('%s: count %s needs a max in the overlay' % (key, name))
            return P('count', max=pn['max'], arrays=counts[name])
        if direction == 'out':
            if policy in ('create', 'sync') and (self.is_object_out(p)):
                if cat == 'interface' and ptr == 2:
                    return P('new_object', iface=base)
                if cat == 'void' and ptr == 2:
                    if 'iid' not in pn:
                        raise ModelError('%s: %s needs "iid" (the REFIID parameter naming its type)' % (key, name))
                    return P('new_object', iface=None, iid=pn['iid'])
                if pn.get('ignore_out'):
                    return P('local_out')
                raise ModelError('%s: create method with non-object out %s' % (key, name))
            if policy == 'sync':
                if 'size' in pn:
                    return P('out_blob', size=pn['size'], max=pn.get('max', 65536))
                if cat in ('scalar', 'enum') and ptr == 1:
                    return P('out_scalar')
                if cat == 'record' and ptr == 1 and self.m.record_is_flat(base):
                    return P('out_struct')
                raise ModelError('%s: sync out %s is not a scalar/flat struct/sized blob' % (key, name))
            return P('local_out')
        # in parameters
        if p.get('array'):
            return P('array', elem='scalar', fixed=p['array'][0], count=None, optional=pn.get('optional', setter))
        if 'count' in pn:
            if ptr == 0:
                raise ModelError('%s: array %s is not a pointer' % (key, name))
            if cat == 'interface' and ptr == 2:
                return P('array', elem='object', iface=base, count=pn['count'], optional=pn.get('optional', False),
                         nullable_elems=pn.get('nullable_elems', setter))
            if cat in ('scalar', 'enum') and ptr == 1:
                return P('array', elem='scalar', count=pn['count'], optional=pn.get('optional', False))
            if cat == 'record' and ptr == 1:
                self.m.need_record(base)
                return P('array', elem='record', count=pn['count'], optional=pn.get('optional', False))
            raise ModelError('%s: unsupported array %s' % (key, name))
        if 'payload' in pn or (cat == 'void' and ptr == 1):
            if 'payload' not in pn:
                raise ModelError('%s: void* %s needs "payload": <size param> in the overlay' % (key, name))
            return P('payload', size=pn['payload'], max=pn.get('max', 1 << 30), optional=pn.get('optional', False))
        if cat == 'interface' and ptr == 1:
            return P('object', iface=base, optional=nullable)
        if cat in ('scalar', 'enum') and ptr == 0:
            return P('scalar')
        if cat == 'guid' and ptr == 0:
            return P('guid')
        if cat == 'string' and ptr == 0:
            return P('string', max=pn.get('max', 1024), optional=pn.get('optional', False))
        if cat == 'record' and ptr == 0:
            self.m.need_record(base)
            return P('struct_value')
        if cat == 'record' and ptr == 1:
            self.m.need_record(base)
            return P('struct_in', optional=pn.get('optional', False))
        if cat in ('scalar', 'enum') and ptr == 1:
            return P('scalar_in', optional=pn.get('optional', False))
        raise ModelError('%s: cannot classify parameter %s (%s, ptr %d, %s)' % (key, name, base, ptr, direction))


class Field:
    def __init__(self, **kw):
        self.__dict__.update(kw)


def _flat(dims):
    n = 1
    for d in dims:
        n *= d
    return n


def _records_methods(model):
    pass


def record_fields(model, name):
    if name in BUILTIN_RECORDS:
        return [{'name': n, 'type': t, 'array': a} if a else {'name': n, 'type': t}
                for n, t, a in BUILTIN_RECORDS[name]]
    return model.records[name]['fields']


def install_record_logic(Model):
    def record_kind(self, name):
        return 'struct' if name in BUILTIN_RECORDS else self.records[name]['kind']

    def wire_fields(self, name):
        """Wire view of a record: list of Field (kind scalar/record/union/string/array/struct_in)."""
        if name in self._wire_cache:
            return self._wire_cache[name]
        if self.record_kind(name) != 'struct':
            raise ModelError('union type %s used directly on the wire' % name)
        notes = self.ov.get('records', {}).get(name, {})
        fnotes = notes.get('fields', {})
        counts = {v['count']: k for k, v in fnotes.items() if 'count' in v}
        out = []
        for f in record_fields(self, name):
            out.append(self.wire_field(name, f, fnotes, counts, notes))
        self._wire_cache[name] = out
        return out

    def wire_field(self, rname, f, fnotes, counts, notes):
        if 'fields' in f:
            members = f['fields']
            if f['kind'] == 'union':
                types = {(m.get('type'), m.get('ptr', 0), tuple(m.get('array', []))) for m in members}
                if len(types) == 1 and 'fields' not in members[0]:
                    # Aliases of one scalar (FirstElement/ElementOffset): one value on the wire.
                    m0 = members[0]
                    base, cat, ptr = self.resolve(m0['type'], m0.get('ptr', 0))
                    if cat in ('scalar', 'enum') and ptr == 0:
                        return Field(kind='scalar', name=m0['name'], type=base, dims=m0.get('array', []),
                                     alias=[m['name'] for m in members])
                u = notes.get('union')
                if not u:
                    raise ModelError('%s: anonymous union needs a discriminator in overlay records' % rname)
                arms = []
                for value_name, member in u['arms'].items():
                    mem = [m for m in members if m['name'] == member]
                    if not mem:
                        raise ModelError('%s: union arm %s missing' % (rname, member))
                    base, cat, ptr = self.resolve(mem[0]['type'])
                    if cat != 'record':
                        raise ModelError('%s: union arm %s is not a struct' % (rname, member))
                    self.need_record(base)
                    arms.append((value_name, member, base))
                return Field(kind='union', name=None, discriminator=u['discriminator'], arms=arms,
                             empty=u.get('empty', []))
            raise ModelError('%s: anonymous struct member not supported' % rname)
        name = f['name']
        fn = fnotes.get(name, {})
        base, cat, ptr = self.resolve(f['type'], f.get('ptr', 0))
        dims = f.get('array', [])
        if 'bits' in f:
            raise ModelError('%s.%s: bitfield on the wire' % (rname, name))
        if name in counts:
            if 'max' not in fn:
                raise ModelError('%s.%s: count needs max' % (rname, name))
            return Field(kind='count', name=name, type=base, max=fn['max'], dims=[])
        if 'count' in fn:
            if cat == 'record' and ptr == 1:
                self.need_record(base)
                return Field(kind='array', name=name, type=base, elem='record', count=fn['count'])
            if cat in ('scalar', 'enum') and ptr == 1:
                return Field(kind='array', name=name, type=base, elem='scalar', count=fn['count'])
            raise ModelError('%s.%s: unsupported counted field' % (rname, name))
        if cat in ('scalar', 'enum') and ptr == 0:
            return Field(kind='scalar', name=name, type=base, dims=dims)
        if cat == 'record' and ptr == 0:
            self.need_record(base)
            return Field(kind='record', name=name, type=base, dims=dims)
        if cat == 'string' and ptr == 0:
            return Field(kind='string', name=name, type=base, max=fn.get('max', 256),
                         optional=fn.get('optional', False))
        if cat == 'record' and ptr == 1 and fn.get('optional'):
            self.need_record(base)
            return Field(kind='struct_in', name=name, type=base)
        raise ModelError('%s.%s: cannot put %s (ptr %d) on the wire' % (rname, name, base, ptr))

    def need_record(self, name):
        if name in self.needed_records:
            return
        self.needed_records[name] = None
        self.wire_fields(name)
        # keep dependency order: nested records first
        del self.needed_records[name]
        self.needed_records[name] = None

    def record_is_flat(self, name):
        for f in self.wire_fields(name):
            if f.kind in ('string', 'array', 'struct_in'):
                return False
            if f.kind == 'record' and not self.record_is_flat(f.type):
                return False
            if f.kind == 'union' and not all(self.record_is_flat(a[2]) for a in f.arms):
                return False
        self.need_record(name)
        return True

    # --- ABI layout (for static_asserts; computed for both ABIs) -------------
    def layout(self, name, abi):
        key = (name, abi)
        if key in self._layout_cache:
            return self._layout_cache[key]
        kind = self.record_kind(name)
        offsets, size, align = self._layout_members(record_fields(self, name), kind, abi)
        self._layout_cache[key] = (size, align, offsets)
        return self._layout_cache[key]

    def type_layout(self, tname, ptr, abi):
        if ptr:
            return 8, 8
        base, cat, p = self.resolve(tname)
        if p:
            return 8, 8
        if cat in ('scalar',):
            s = SCALARS[base][0 if abi == 'win64' else 1]
            return s, s
        if cat == 'enum':
            return 4, 4
        if cat == 'string' or cat == 'interface':
            return 8, 8
        if cat == 'record':
            s, a, _ = self.layout(base, abi)
            return s, a
        raise ModelError('no layout for %s' % tname)

    def _layout_members(self, members, kind, abi):
        off = 0
        align = 1
        offsets = {}
        size = 0
        bit_unit = None  # (offset, size, bits used)
        for f in members:
            if 'fields' in f:
                sub_off, s, a = self._layout_members(f['fields'], f['kind'], abi)
                fs, fa = s, a
                pos = 0 if kind == 'union' else (off + fa - 1) // fa * fa
                if not f['name']:
                    for k in sub_off:
                        offsets[k] = pos + sub_off[k]
                if f['name']:
                    offsets[f['name']] = pos
            else:
                fs, fa = self.type_layout(f['type'], f.get('ptr', 0), abi)
                n = _flat(f.get('array', []))
                if 'bits' in f:
                    if kind == 'struct' and bit_unit and bit_unit[1] == fs and bit_unit[2] + f['bits'] <= fs * 8:
                        bit_unit = (bit_unit[0], fs, bit_unit[2] + f['bits'])
                        continue
                    pos = (off + fa - 1) // fa * fa
                    bit_unit = (pos, fs, f['bits'])
                    off = pos + fs
                    align = max(align, fa)
                    size = max(size, off)
                    continue
                bit_unit = None
                fs = fs * n
                pos = 0 if kind == 'union' else (off + fa - 1) // fa * fa
                offsets[f['name']] = pos
            align = max(align, fa)
            if kind == 'union':
                size = max(size, fs)
            else:
                off = pos + fs
                size = off
        size = (size + align - 1) // align * align
        return offsets, size, align

    Model.record_kind = record_kind
    Model.wire_fields = wire_fields
    Model.wire_field = wire_field
    Model.need_record = need_record
    Model.record_is_flat = record_is_flat
    Model.layout = layout
    Model.type_layout = type_layout
    Model._layout_members = _layout_members


install_record_logic(Model)

_orig_init = Model.__init__


def _init(self, *a):
    _orig_init(self, *a)
    self._wire_cache = {}
    self._layout_cache = {}
    self.needed_records = {}


Model.__init__ = _init


def build_methods(model):
    """All methods in pinned-id order, classified.  Errors are collected, not raised one by one."""
    cls = Classifier(model)
    methods = []
    errors = []
    for iname in model.iface_order:
        itf = model.interfaces[iname]
        for idx, meth in enumerate(itf['methods']):
            pol = cls.policy(iname, meth)
            key = method_key(iname, meth['name'])
            if pol is None:
                errors.append('%s: no sync policy (add one to overlay.json)' % key)
                continue
            params = []
            if pol in ('async', 'create', 'sync'):
                try:
                    params = cls.classify(iname, meth, pol)
                except ModelError as e:
                    errors.append(str(e))
                    continue
            methods.append(Method(iface=iname, name=meth['name'], key=key, index=idx, policy=pol,
                                  ret=meth['ret'], params=params, idl=meth,
                                  opcode=(model.iface_id(iname) << 8) | model.ids['interfaces'][iname]['methods'][meth['name']]))
    for fn in model.reg['functions']:
        pol = cls.policy(None, fn)
        key = fn['name']
        note = model.ov.get('methods', {}).get(key, {})
        if pol is None:
            errors.append('%s: no sync policy' % key)
            continue
        params = []
        if pol in ('async', 'create', 'sync'):
            try:
                params = cls.classify(None, fn, pol)
            except ModelError as e:
                errors.append(str(e))
                continue
        methods.append(Method(iface=None, name=fn['name'], key=key, index=model.ids['functions'][key], policy=pol,
                              ret=fn['ret'], params=params, idl=fn,
                              opcode=(model.ids['entry_interface_id'] << 8) | model.ids['functions'][key]))
    return methods, errors
