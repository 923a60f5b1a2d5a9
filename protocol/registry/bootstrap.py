#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Bootstrap protocol/registry/registry.json from Wine's IDL files.

Run by hand (never at build time); the output is committed and reviewed.
It records only what the IDL states: interfaces (parent, IID, methods in
vtable order, parameters with type, pointer depth, const and [in]/[out]
attributes), structs, unions, enums, typedefs, constants and entry points.
Semantics the IDL lacks live in overlay.json.

    /usr/bin/python3 protocol/registry/bootstrap.py [IDL_DIR] > protocol/registry/registry.json
"""
import ast
import json
import re
import sys

IDL_FILES = [
    'dxgiformat.idl', 'dxgicommon.idl', 'dxgitype.idl', 'd3dcommon.idl',
    'dxgi.idl', 'dxgi1_2.idl', 'dxgi1_3.idl', 'dxgi1_4.idl', 'dxgi1_5.idl', 'dxgi1_6.idl',
    'd3d11.idl', 'd3d11_1.idl', 'd3d11_2.idl', 'd3d11_3.idl', 'd3d11_4.idl',
]

# Names the IDL imports from oaidl/wtypes; the generator knows their layout.
BUILTIN_TYPES = {'UINT', 'INT', 'BOOL', 'LONG', 'ULONG', 'FLOAT', 'float', 'DWORD', 'WORD', 'BYTE',
                 'UINT8', 'UINT16', 'UINT64', 'INT64', 'SIZE_T', 'HRESULT', 'void', 'char', 'WCHAR',
                 'GUID', 'IID', 'REFIID', 'REFGUID', 'LUID', 'RECT', 'POINT', 'SIZE', 'LARGE_INTEGER',
                 'HANDLE', 'HWND', 'HMODULE', 'HMONITOR', 'HDC', 'LPCSTR', 'LPSTR', 'LPCWSTR', 'LPWSTR',
                 'SECURITY_ATTRIBUTES', 'IUnknown', 'double', 'USHORT', 'SHORT', 'INT8', 'INT16',
                 'INT32', 'UINT32', 'LONGLONG', 'ULONGLONG', 'unsigned int', 'unsigned char',
                 'unsigned short', 'int', 'long'}

TOKEN_RE = re.compile(r'''
    (?P<ws>\s+) |
    (?P<comment>//[^\n]*|/\*.*?\*/) |
    (?P<string>"(?:\\.|[^"\\])*") |
    (?P<number>0[xX][0-9a-fA-F]+[uUlL]*|\d+\.\d*(?:[eE][+-]?\d+)?[fF]?|\d+[eE][+-]?\d+[fF]?|\d+[uUlL]*) |
    (?P<ident>[A-Za-z_][A-Za-z0-9_]*) |
    (?P<op><<|>>|[{}()\[\];,:=*|&~+\-<>.^/])
''', re.VERBOSE | re.DOTALL)


def tokenize(text):
    tokens = []
    pos = 0
    while pos < len(text):
        m = TOKEN_RE.match(text, pos)
        if not m:
            raise SyntaxError('cannot tokenize at %r' % text[pos:pos + 40])
        pos = m.end()
        kind = m.lastgroup
        if kind in ('ws', 'comment'):
            continue
        tokens.append((kind, m.group()))
    return tokens


class Parser:
    def __init__(self, tokens, filename, registry):
        self.t = tokens
        self.i = 0
        self.file = filename
        self.reg = registry
        self.cpp_quotes = []

    def peek(self, k=0):
        return self.t[self.i + k][1] if self.i + k < len(self.t) else None

    def next(self):
        tok = self.t[self.i][1]
        self.i += 1
        return tok

    def expect(self, value):
        tok = self.next()
        if tok != value:
            raise SyntaxError('%s: expected %r got %r near %r' % (self.file, value, tok, self.t[self.i - 5:self.i + 5]))
        return tok

    def attributes(self):
        """[a, b(c), ...] -> list of strings"""
        attrs = []
        if self.peek() != '[':
            return attrs
        self.next()
        cur = []
        depth = 0
        while True:
            tok = self.next()
            if tok == ']' and depth == 0:
                break
            if tok == '(':
                depth += 1
            elif tok == ')':
                depth -= 1
            if tok == ',' and depth == 0:
                attrs.append(''.join(cur))
                cur = []
            else:
                cur.append(tok)
        if cur:
            attrs.append(''.join(cur))
        return attrs

    def parse(self):
        while self.i < len(self.t):
            tok = self.peek()
            if tok == 'import':
                while self.next() != ';':
                    pass
            elif tok == 'cpp_quote':
                self.next(); self.expect('(')
                s = self.next()
                self.expect(')')
                self.cpp_quotes.append(ast.literal_eval(s))
            elif tok == 'const':
                self.constant()
            elif tok == 'typedef':
                self.typedef()
            elif tok == 'interface':
                self.next(); self.next(); self.expect(';')  # forward declaration
            elif tok == '[':
                attrs = self.attributes()
                if self.peek() == 'interface':
                    self.interface(attrs)
                else:
                    self.function(attrs)
            elif tok == ';':
                self.next()
            else:
                raise SyntaxError('%s: unexpected %r' % (self.file, tok))

    # --- expressions -------------------------------------------------------
    def expression(self, stops):
        toks = []
        depth = 0
        while True:
            tok = self.peek()
            if depth == 0 and tok in stops:
                break
            if tok == '(':
                depth += 1
            elif tok == ')':
                depth -= 1
            toks.append(self.next())
        return toks

    def evaluate(self, toks):
        parts = []
        for tok in toks:
            if re.match(r'^[A-Za-z_]', tok):
                if tok in self.reg['_values']:
                    parts.append(str(self.reg['_values'][tok]))
                else:
                    raise SyntaxError('%s: unknown name %s in expression' % (self.file, tok))
            elif re.match(r'^0[0-7]+[uUlL]*$', tok):
                parts.append(str(int(re.sub(r'[uUlL]+$', '', tok), 8)))
            elif re.match(r'^\d', tok):
                parts.append(re.sub(r'[uUlLfF]+$', '', tok) if not tok.lower().startswith('0x')
                             else re.sub(r'[uUlL]+$', '', tok))
            else:
                parts.append(tok)
        expr = ' '.join(parts)
        node = ast.parse(expr, mode='eval')
        for n in ast.walk(node):
            if not isinstance(n, (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.operator,
                                  ast.unaryop)):
                raise SyntaxError('unsupported expression ' + expr)
        return eval(compile(node, '<idl>', 'eval'))

    def constant(self):
        self.expect('const')
        ctype = self.next()
        if ctype == 'unsigned':
            ctype += ' ' + self.next()
        name = self.next()
        self.expect('=')
        value = self.evaluate(self.expression({';'}))
        self.expect(';')
        self.reg['constants'][name] = {'type': ctype, 'value': value, 'file': self.file}
        self.reg['_values'][name] = value

    # --- declarators -------------------------------------------------------
    def type_name(self):
        """Reads qualifiers and a base type name; returns (base, const)."""
        const = False
        words = []
        while True:
            tok = self.peek()
            if tok == 'const':
                const = True
                self.next()
            elif tok in ('struct', 'enum', 'union'):
                self.next()
            elif tok in ('unsigned', 'signed'):
                words.append(self.next())
            else:
                break
        if words and self.peek() not in ('int', 'char', 'short', 'long'):
            words.append('int')
        else:
            words.append(self.next())
        return ' '.join(words), const

    def declarator(self):
        """Pointer stars, const qualifiers between them, name, array dims."""
        ptr = 0
        const_ptr = []
        while self.peek() in ('*', 'const'):
            tok = self.next()
            if tok == '*':
                ptr += 1
            else:
                const_ptr.append(ptr)
        name = None
        if re.match(r'^[A-Za-z_]', self.peek() or ''):
            name = self.next()
        dims = []
        while self.peek() == '[':
            self.next()
            dims.append(self.evaluate(self.expression({']'})))
            self.expect(']')
        return ptr, const_ptr, name, dims

    # --- typedefs ----------------------------------------------------------
    def typedef(self):
        self.expect('typedef')
        self.attributes()
        tok = self.peek()
        if tok in ('struct', 'union') and (self.peek(1) == '{' or self.peek(2) == '{'):
            kind = self.next()
            if self.peek() != '{':
                self.next()
            fields = self.members()
            self.typedef_names({'kind': kind, 'fields': fields, 'file': self.file}, 'records')
        elif tok == 'enum':
            self.next()
            if self.peek() != '{':
                self.next()
            values = self.enum_body()
            self.typedef_names({'values': values, 'file': self.file}, 'enums')
        else:
            base, const = self.type_name()
            if self.peek() == '(':
                # function pointer typedef: keep it opaque
                depth = 0
                while True:
                    t = self.next()
                    if t == '(':
                        depth += 1
                    elif t == ')':
                        depth -= 1
                    elif t == ';' and depth == 0:
                        break
                return
            while True:
                ptr, _, name, dims = self.declarator()
                if name not in BUILTIN_TYPES and name != base:
                    self.reg['typedefs'][name] = {'type': base, 'ptr': ptr, 'file': self.file}
                if self.peek() == ',':
                    self.next()
                    continue
                break
            self.expect(';')

    def typedef_names(self, body, table):
        first = True
        while True:
            ptr, _, name, dims = self.declarator()
            if ptr == 0 and first:
                self.reg[table][name] = body
                first = False
            elif ptr == 0:
                self.reg['typedefs'][name] = {'type': list(self.reg[table])[-1], 'ptr': 0, 'file': self.file}
            if self.peek() == ',':
                self.next()
                continue
            break
        self.expect(';')

    def enum_body(self):
        self.expect('{')
        values = []
        last = -1
        while self.peek() != '}':
            name = self.next()
            if self.peek() == '=':
                self.next()
                value = self.evaluate(self.expression({',', '}'}))
            else:
                value = last + 1
            last = value
            values.append([name, value])
            self.reg['_values'][name] = value
            if self.peek() == ',':
                self.next()
        self.expect('}')
        return values

    def members(self):
        self.expect('{')
        fields = []
        while self.peek() != '}':
            if self.peek() in ('union', 'struct') and self.peek(1) == '{':
                kind = self.next()
                inner = self.members()
                name = None
                if self.peek() != ';':
                    name = self.next()
                self.expect(';')
                fields.append({'name': name, 'kind': kind, 'fields': inner})
                continue
            base, const = self.type_name()
            while True:
                ptr, _, name, dims = self.declarator()
                field = {'name': name, 'type': base}
                if ptr:
                    field['ptr'] = ptr
                if const:
                    field['const'] = True
                if dims:
                    field['array'] = dims
                if self.peek() == ':':
                    self.next()
                    field['bits'] = int(self.next())
                fields.append(field)
                if self.peek() == ',':
                    self.next()
                    continue
                break
            self.expect(';')
        self.expect('}')
        return fields

    # --- interfaces and functions -----------------------------------------
    def parameters(self):
        self.expect('(')
        params = []
        if self.peek() == 'void' and self.peek(1) == ')':
            self.next()
        while self.peek() != ')':
            attrs = self.attributes()
            base, const = self.type_name()
            ptr, const_ptr, name, dims = self.declarator()
            p = {'name': name, 'type': base}
            if ptr:
                p['ptr'] = ptr
            if const:
                p['const'] = True
            if const_ptr:
                p['const_ptr'] = const_ptr
            if dims:
                p['array'] = dims
            if attrs:
                p['attrs'] = attrs
            params.append(p)
            if self.peek() == ',':
                self.next()
        self.expect(')')
        return params

    def interface(self, attrs):
        self.expect('interface')
        name = self.next()
        parent = None
        if self.peek() == ':':
            self.next()
            parent = self.next()
        iid = None
        for a in attrs:
            m = re.match(r'uuid\((.*)\)', a)
            if m:
                iid = m.group(1).lower()
        self.expect('{')
        methods = []
        while self.peek() != '}':
            self.attributes()
            ret, _ = self.type_name()
            ret_ptr = 0
            while self.peek() == '*':
                self.next()
                ret_ptr += 1
            mname = self.next()
            params = self.parameters()
            self.expect(';')
            m = {'name': mname, 'ret': ret}
            if ret_ptr:
                m['ret_ptr'] = ret_ptr
            m['params'] = params
            methods.append(m)
        self.expect('}')
        self.reg['interfaces'].append({'name': name, 'parent': parent, 'iid': iid,
                                       'file': self.file, 'methods': methods})

    def function(self, attrs):
        ret, _ = self.type_name()
        if self.peek() == '__stdcall':
            self.next()
        name = self.next()
        params = self.parameters()
        self.expect(';')
        self.reg['functions'].append({'name': name, 'ret': ret, 'file': self.file, 'params': params})


def parse_cpp_quote_function(quotes, name, filename):
    """D3D11CreateDevice is only declared inside cpp_quote; parse that text."""
    text = ' '.join(quotes)
    m = re.search(r'HRESULT\s+WINAPI\s+%s\s*\(([^)]*)\)' % name, text)
    if not m:
        raise SyntaxError('%s not found in cpp_quote' % name)
    params = []
    for i, raw in enumerate(m.group(1).split(',')):
        raw = raw.strip()
        const = raw.startswith('const ')
        raw = raw[6:] if const else raw
        ptr = raw.count('*')
        p = {'name': None, 'type': raw.replace('*', '').strip()}
        if ptr:
            p['ptr'] = ptr
        if const:
            p['const'] = True
        params.append(p)
    return {'name': name, 'ret': 'HRESULT', 'file': filename, 'params': params, 'from_cpp_quote': True}


def emit(reg):
    """JSON with one line per parameter/field/enum value, for reviewable diffs."""
    def compact(o):
        return json.dumps(o, separators=(', ', ': '))

    out = ['{']
    out.append(' "generated_by": "protocol/registry/bootstrap.py (do not edit; see overlay.json)",')
    out.append(' "sources": %s,' % compact(reg['sources']))
    out.append(' "constants": {')
    out.append(',\n'.join('  %s: %s' % (json.dumps(k), compact(v)) for k, v in reg['constants'].items()))
    out.append(' },')
    out.append(' "typedefs": {')
    out.append(',\n'.join('  %s: %s' % (json.dumps(k), compact(v)) for k, v in reg['typedefs'].items()))
    out.append(' },')
    out.append(' "enums": {')
    items = []
    for k, v in reg['enums'].items():
        vals = ',\n'.join('    %s' % compact(x) for x in v['values'])
        items.append('  %s: {"file": %s, "values": [\n%s\n  ]}' % (json.dumps(k), json.dumps(v['file']), vals))
    out.append(',\n'.join(items))
    out.append(' },')

    def fields_text(fields, indent):
        lines = []
        for f in fields:
            if 'fields' in f:
                lines.append('%s{"name": %s, "kind": %s, "fields": [\n%s\n%s]}' % (
                    indent, json.dumps(f['name']), json.dumps(f['kind']),
                    fields_text(f['fields'], indent + '  '), indent))
            else:
                lines.append(indent + compact(f))
        return ',\n'.join(lines)

    out.append(' "records": {')
    items = []
    for k, v in reg['records'].items():
        items.append('  %s: {"kind": %s, "file": %s, "fields": [\n%s\n  ]}' % (
            json.dumps(k), json.dumps(v['kind']), json.dumps(v['file']), fields_text(v['fields'], '    ')))
    out.append(',\n'.join(items))
    out.append(' },')

    def method_text(m, indent):
        head = {k: v for k, v in m.items() if k != 'params'}
        params = ',\n'.join(indent + '  ' + compact(p) for p in m['params'])
        return '%s%s, "params": [\n%s\n%s]}' % (indent, compact(head)[:-1], params, indent) if params else \
            '%s%s, "params": []}' % (indent, compact(head)[:-1])

    out.append(' "interfaces": [')
    items = []
    for itf in reg['interfaces']:
        head = {k: v for k, v in itf.items() if k != 'methods'}
        methods = ',\n'.join(method_text(m, '    ') for m in itf['methods'])
        items.append('  %s, "methods": [\n%s\n  ]}' % (compact(head)[:-1], methods))
    out.append(',\n'.join(items))
    out.append(' ],')
    out.append(' "functions": [')
    out.append(',\n'.join(method_text(f, '  ') for f in reg['functions']))
    out.append(' ]')
    out.append('}')
    return '\n'.join(out) + '\n'


def main():
    idl_dir = sys.argv[1] if len(sys.argv) > 1 else '/usr/include/wine/wine/windows'
    reg = {'sources': [], 'constants': {}, 'typedefs': {}, 'enums': {}, 'records': {},
           'interfaces': [], 'functions': [], '_values': {}}
    for name in IDL_FILES:
        with open('%s/%s' % (idl_dir, name), encoding='utf-8') as f:
            text = f.read()
        reg['sources'].append('wine/windows/' + name)
        p = Parser(tokenize(text), name, reg)
        p.parse()
        if name == 'd3d11.idl':
            reg['functions'].insert(0, parse_cpp_quote_function(p.cpp_quotes, 'D3D11CreateDevice', name))
    # ID3D10Multithread is the one D3D10 interface D3D11 devices expose; take
    # only it from d3d10.idl (parsed into a scratch registry).
    with open('%s/d3d10.idl' % idl_dir, encoding='utf-8') as f:
        scratch = {'sources': [], 'constants': {}, 'typedefs': {}, 'enums': {}, 'records': {},
                   'interfaces': [], 'functions': [], '_values': dict(reg['_values'])}
        Parser(tokenize(f.read()), 'd3d10.idl', scratch).parse()
    reg['sources'].append('wine/windows/d3d10.idl (ID3D10Multithread only)')
    reg['interfaces'] += [i for i in scratch['interfaces'] if i['name'] == 'ID3D10Multithread']
    wanted = {'D3D11CreateDevice', 'D3D11CreateDeviceAndSwapChain', 'CreateDXGIFactory',
              'CreateDXGIFactory1', 'CreateDXGIFactory2'}
    reg['functions'] = [f for f in reg['functions'] if f['name'] in wanted]
    missing = wanted - {f['name'] for f in reg['functions']}
    if missing:
        raise SystemExit('entry points missing: %s' % sorted(missing))
    del reg['_values']
    sys.stdout.write(emit(reg))


if __name__ == '__main__':
    main()
