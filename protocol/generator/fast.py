# SPDX-License-Identifier: MIT
"""Straight-line encoders and decoders for the methods whose wire size the
generator can compute from their arguments (every hot command: setters,
draws, UpdateSubresource, most creates).

Encoder: computes the command's size, reserves it once in the writer, then
stores every word through a moving pointer with no further checks.
Decoder: checks the length of each run of fixed-size items once, reads the
run unchecked, checks each array/payload against the bytes left before
touching it, and ends with one "exactly consumed" check.

Methods with strings, unions or records holding pointers keep the general
codec (emit.py), which checks every read.
"""
import model as M

# 4-byte scalars whose wire form is their memory form: arrays of them are one memcpy.
WORD_COPY_KINDS = ('u32', 'i32', 'f32')


class FastCodec:
    def __init__(self, emitter):
        self.e = emitter
        self.m = emitter.m
        self._fixed = {}

    # --- sizes -----------------------------------------------------------------------
    def scalar_bytes(self, base):
        return self.e.scalar_wire_bytes(base)

    def record_bytes(self, rname):
        """Wire bytes of a record whose size never varies, else None."""
        if rname in self._fixed:
            return self._fixed[rname]
        total = 0
        for f in self.m.wire_fields(rname):
            dims = getattr(f, 'dims', []) or []
            n = M._flat(dims)
            if f.kind == 'scalar':
                k = self.e.wire_scalar_kind(f.type)
                if dims and k == 'u8':
                    total += (n + 3) & ~3
                elif dims and k in ('u16', 'wchar'):
                    total += (2 * n + 3) & ~3
                else:
                    total += self.scalar_bytes(f.type) * n
            elif f.kind == 'record':
                sub = self.record_bytes(f.type)
                if sub is None:
                    total = None
                    break
                total += sub * n
            else:
                total = None
                break
        self._fixed[rname] = total
        return total

    def eligible(self, meth):
        for p in meth.wire:
            k = p.kind
            if k in ('scalar', 'count', 'object', 'new_object', 'guid', 'scalar_in', 'payload'):
                continue
            if k in ('struct_value', 'struct_in') and self.record_bytes(p.type) is not None:
                continue
            if k == 'array' and (p.elem != 'record' or self.record_bytes(p.type) is not None):
                continue
            return False
        return True

    def elem_bytes(self, p):
        if p.elem == 'object':
            return 4
        if p.elem == 'record':
            return self.record_bytes(p.type)
        return self.scalar_bytes(p.type)

    # --- record codecs (fixed-size records only) ------------------------------------
    def put_value(self, expr, base):
        k = self.e.wire_scalar_kind(base)
        if base == 'LARGE_INTEGER':
            return 'p = putw64(p, uint64_t((%s).QuadPart));' % expr
        if k == 'f32':
            return 'p = putwf32(p, %s);' % expr
        if k == 'f64':
            return 'p = putw64(p, bitsOf64(%s));' % expr
        if k in ('u64', 'i64'):
            return 'p = putw64(p, uint64_t(%s));' % expr
        if k == 'handle':
            return 'p = putw64(p, uint64_t(uintptr_t(%s)));' % expr
        return 'p = putw32(p, uint32_t(%s));' % expr

    def get_value(self, lhs, base, bad='bad', lenient=True):
        """Reads one scalar at p. Enums out of their type's range (README 3.1), where
        Windows answers E_INVALIDARG (lenient), become the enum's reserved invalid value,
        which reaches the validation layer. Where there is none (the enumerators fill the
        range) and elsewhere (union discriminators) they set `bad`: the stream is fatal.
        No enum-typed object ever holds a value outside its type's range."""
        if base in self.m.enums:
            mx = self.e.enum_max(base)
            if mx is not None and mx < 0xffffffff:
                inv = self.e.enum_invalid(base)
                if lenient and inv is not None:
                    return '{ uint32_t x = getw32(p); p += 4; %s = %s(x > %du ? %du : x); }' % (lhs, base, mx, inv)
                return '{ uint32_t x = getw32(p); p += 4; %s |= x > %du; %s = %s(x > %du ? 0u : x); }' % (
                    bad, mx, lhs, base, mx)
        k = self.e.wire_scalar_kind(base)
        if base == 'LARGE_INTEGER':
            return '(%s).QuadPart = int64_t(getw64(p)); p += 8;' % lhs
        if k == 'f32':
            return '%s = getwf32(p); p += 4;' % lhs
        if k == 'f64':
            return '%s = doubleOf64(getw64(p)); p += 8;' % lhs
        if k in ('u64', 'i64'):
            return '%s = %s(getw64(p)); p += 8;' % (lhs, base)
        if k == 'handle':
            return '%s = reinterpret_cast<%s>(uintptr_t(getw64(p))); p += 8;' % (lhs, base)
        return '%s = %s(getw32(p)); p += 4;' % (lhs, base)

    def record_functions(self, which):
        """'put': inline record writers for npt_encode.h (the encoders are inline there);
        'get': the decoder's record readers for npt_codec.cpp."""
        out = []
        names = [r for r in self.m.needed_records if self.record_bytes(r) is not None]
        for r in names:
            if which == 'put':
                out.append('inline uint8_t* putw_%s(uint8_t* p, const %s& v);' % (r, r))
            else:
                out.append('static const uint8_t* getw_%s(const uint8_t* p, %s& v, bool& bad);' % (r, r))
        for r in names:
            enc = ['NPT_INLINE uint8_t* putw_%s(uint8_t* p, const %s& v) {' % (r, r)]
            dec = ['static NPT_INLINE const uint8_t* getw_%s(const uint8_t* p, %s& v, bool& bad) {' % (r, r),
                   '  (void)bad;']
            for f in self.m.wire_fields(r):
                dims = getattr(f, 'dims', []) or []
                n = M._flat(dims)
                if f.kind == 'scalar':
                    k = self.e.wire_scalar_kind(f.type)
                    if dims and k == 'u8':
                        pad = ((n + 3) & ~3) - n
                        enc.append('  std::memcpy(p, &v.%s, %d); %sp += %d;' % (
                            f.name, n, 'std::memset(p + %d, 0, %d); ' % (n, pad) if pad else '', n + pad))
                        dec.append('  std::memcpy(&v.%s, p, %d); p += %d;' % (f.name, n, (n + 3) & ~3))
                    elif dims and k in ('u16', 'wchar'):
                        total = (2 * n + 3) & ~3
                        flat = 'v.%s%s' % (f.name, '[0]' * len(dims))
                        enc.append('  for (size_t i = 0; i < %d; i++) { uint16_t u = uint16_t((&%s)[i]); std::memcpy(p + 2 * i, &u, 2); }' % (n, flat))
                        if total != 2 * n:
                            enc.append('  std::memset(p + %d, 0, %d);' % (2 * n, total - 2 * n))
                        enc.append('  p += %d;' % total)
                        dec.append('  for (size_t i = 0; i < %d; i++) { uint16_t u; std::memcpy(&u, p + 2 * i, 2); (&%s)[i] = u; }' % (n, flat))
                        dec.append('  p += %d;' % total)
                    elif dims:
                        flat = 'v.%s%s' % (f.name, '[0]' * len(dims))
                        enc.append('  for (size_t i = 0; i < %d; i++) { %s }' % (n, self.put_value('(&%s)[i]' % flat, f.type)))
                        dec.append('  for (size_t i = 0; i < %d; i++) { %s }' % (n, self.get_value('(&%s)[i]' % flat, f.type)))
                    else:
                        enc.append('  ' + self.put_value('v.' + f.name, f.type))
                        dec.append('  ' + self.get_value('v.' + f.name, f.type))
                elif f.kind == 'record':
                    if dims:
                        flat = 'v.%s%s' % (f.name, '[0]' * len(dims))
                        enc.append('  for (size_t i = 0; i < %d; i++) p = putw_%s(p, (&%s)[i]);' % (n, f.type, flat))
                        dec.append('  for (size_t i = 0; i < %d; i++) p = getw_%s(p, (&%s)[i], bad);' % (n, f.type, flat))
                    else:
                        enc.append('  p = putw_%s(p, v.%s);' % (f.type, f.name))
                        dec.append('  p = getw_%s(p, v.%s, bad);' % (f.type, f.name))
            out += enc + ['  return p;', '}'] if which == 'put' else dec + ['  return p;', '}']
        return out

    # --- encoder -----------------------------------------------------------------------
    def size_terms(self, meth):
        const, terms = 4, []
        for p in meth.wire:
            k = p.kind
            if k in ('scalar', 'count'):
                const += self.scalar_bytes(p.type)
            elif k in ('object', 'new_object'):
                const += 4
            elif k == 'guid':
                const += 16
            elif k == 'struct_value':
                const += self.record_bytes(p.type)
            elif k in ('struct_in', 'scalar_in'):
                size = self.record_bytes(p.type) if k == 'struct_in' else self.scalar_bytes(p.type)
                if p.optional:
                    const += 4
                    terms.append('(%s ? %d : 0)' % (p.name, size))
                else:
                    const += size
            elif k == 'array':
                n = self.e.count_expr(meth, p)
                e = self.elem_bytes(p)
                if p.optional:
                    const += 4
                    terms.append('(%s ? size_t(%s) * %d : 0)' % (p.name, n, e))
                else:
                    terms.append('size_t(%s) * %d' % (n, e))
            elif k == 'payload':
                terms.append('payloadWireBytes(%s)' % p.name)
        return const, terms

    def encode_method(self, meth):
        d = self.e.params_decl(meth, False)
        out = ['inline bool encode_%s(CommandWriter& w%s) {' % (meth.cname, ', ' + d if d else '')]
        for p in meth.wire:
            if p.kind in ('struct_in', 'scalar_in') and not p.optional:
                out.append('  if (!%s) { w.fail(); return false; }' % p.name)
            elif p.kind == 'array' and not p.optional:
                out.append('  if (%s && !%s) { w.fail(); return false; }' % (self.e.count_expr(meth, p), p.name))
            elif p.kind == 'payload':
                out.append('  if (!payloadEncodable(%s)) { w.fail(); return false; }' % p.name)
        if meth.iface:
            out.append('  w.select(self);')
        const, terms = self.size_terms(meth)
        if terms:
            out.append('  const size_t bytes = %d + %s;' % (const, ' + '.join(terms)))
            out.append('  if (bytes > kMaxCommandBytes) { w.fail(); return false; }')
            out.append('  uint8_t* p;')
            out.append('  if (!w.reserve(bytes, p)) return false;')
            out.append('  p = putw32(p, packHeader(0x%04x, uint16_t(bytes / 4)));' % meth.opcode)
        else:
            out.append('  uint8_t* p;')
            out.append('  if (!w.reserve(%d, p)) return false;' % const)
            out.append('  p = putw32(p, 0x%08xu);' % ((const // 4) << 16 | meth.opcode))
        for p in meth.wire:
            out += ['  ' + l for l in self.encode_param(meth, p)]
        out += ['  (void)p;', '  return true;', '}']
        return out

    def encode_param(self, meth, p):
        k = p.kind
        if k in ('scalar', 'count'):
            return [self.put_value(p.name, p.type)]
        if k in ('object', 'new_object'):
            return ['p = putw32(p, %s);' % p.name]
        if k == 'guid':
            return ['std::memcpy(p, &%s, 16); p += 16;' % p.name]
        if k == 'struct_value':
            return ['p = putw_%s(p, %s);' % (p.type, p.name)]
        if k in ('struct_in', 'scalar_in'):
            put = 'p = putw_%s(p, *%s);' % (p.type, p.name) if k == 'struct_in' else self.put_value('*' + p.name, p.type)
            if p.optional:
                return ['p = putw32(p, %s ? 1u : 0u);' % p.name, 'if (%s) { %s }' % (p.name, put)]
            return [put]
        if k == 'array':
            n = self.e.count_expr(meth, p)
            out = []
            if p.optional:
                out.append('p = putw32(p, %s ? 1u : 0u);' % p.name)
            if self.word_copy(p):
                out.append('if (%s) { std::memcpy(p, %s, size_t(%s) * 4); p += size_t(%s) * 4; }' % (p.name, p.name, n, n))
            elif p.elem == 'record':
                out.append('if (%s) for (uint32_t i = 0; i < %s; i++) p = putw_%s(p, %s[i]);' % (p.name, n, p.type, p.name))
            else:
                out.append('if (%s) for (uint32_t i = 0; i < %s; i++) { %s }' % (p.name, n, self.put_value('%s[i]' % p.name, p.type)))
            return out
        if k == 'payload':
            return ['p = putwPayload(p, %s);' % p.name]
        raise ValueError(k)

    # --- decoder -----------------------------------------------------------------------
    def decode_method(self, meth):
        """Returns the decoder's lines up to (not including) the out-parameter setup
        and dispatch, which emit.py shares with the general decoder."""
        if self.exact_shape(meth):
            return self.decode_exact(meth)
        out = []
        news = []
        # Items in wire order, each (fixed bytes, lines reading them, lines after the run).
        items = []
        for p in meth.wire:
            items += self.decode_items(meth, p, news)
        out.append('  bool bad = false;')
        # The arena holds one command's arrays and structs (and sync out blobs).
        if self.uses_arena(meth):
            out.append('  c.arena.reset();')
        i = 0
        while i < len(items):
            fixed, lines, after = items[i]
            if fixed:
                run = 0
                j = i
                body, post = [], []
                while j < len(items) and items[j][0]:
                    run += items[j][0]
                    body += items[j][1]
                    post += items[j][2]
                    j += 1
                out.append('  if (left < %d) return ErrorCode::Truncated;' % run)
                out.append('  left -= %d;' % run)
                out += ['  ' + l for l in body]
                out.append('  if (bad) return ErrorCode::BadEnum;')
                out += ['  ' + l for l in post]
                i = j
            else:
                out += ['  ' + l for l in lines]
                i += 1
        out.append('  if (left) return ErrorCode::TrailingBytes;')
        return out, news

    def uses_arena(self, meth):
        """Whether the decoder allocates from the per-command arena (word arrays are read
        in place and need none)."""
        for p in meth.wire:
            if p.kind in ('struct_in', 'scalar_in'):
                return True
            if p.kind == 'array' and not self.word_copy(p):
                return True
        return any(p.kind in ('out_blob', 'out_array') for p in meth.outs)

    FIXED_KINDS = ('scalar', 'count', 'object', 'new_object', 'guid', 'struct_value')

    def exact_shape(self, meth):
        """Commands whose size follows from the fixed-size items at their start: those
        items, then only arrays (an optional array's presence word among the leading
        items). Their decoder checks the whole length once, exactly."""
        arrays = 0
        for p in meth.wire:
            if p.kind == 'array':
                if p.optional and arrays:
                    return False  # its presence word would follow a variable-size item
                arrays += 1
            elif p.kind not in self.FIXED_KINDS or arrays:
                return False
        return arrays > 0

    def decode_exact(self, meth):
        news = []
        reads, posts, arrays = [], [], []
        run = 0
        for p in meth.wire:
            if p.kind == 'array':
                items = self.decode_items(meth, p, news)
                if p.optional:
                    run += items[0][0]
                    reads += items[0][1]
                    posts += items[0][2]
                arrays.append(p)
                continue
            for fixed, lines, post in self.decode_items(meth, p, news):
                run += fixed
                reads += lines
                posts += post
        out = ['  bool bad = false;']
        if self.uses_arena(meth):
            out.append('  c.arena.reset();')
        out.append('  if (left < %d) return ErrorCode::Truncated;' % run)
        out += ['  ' + l for l in reads]
        out.append('  if (bad) return ErrorCode::BadEnum;')
        out += ['  ' + l for l in posts]
        terms = []
        for p in arrays:
            n = self.e.count_expr(meth, p)
            term = 'uint64_t(%s) * %d' % (n, self.elem_bytes(p))
            terms.append('(%s_present ? %s : 0)' % (p.name, term) if p.optional else term)
        # The counts are bounded above (CountTooLarge), so `need` cannot wrap.
        out.append('  const uint64_t need = %d + %s;' % (run, ' + '.join(terms)))
        out.append('  if (left != need) [[unlikely]] return left < need ? ErrorCode::Truncated : ErrorCode::TrailingBytes;')
        for p in arrays:
            n = self.e.count_expr(meth, p)
            etype = 'ObjectId' if p.elem == 'object' else p.type
            body = ['uint32_t n = %s;' % n]
            body += self.array_body(meth, p, etype)
            if p.optional:
                out += ['  if (%s_present) {' % p.name] + ['    ' + l for l in body] + ['  }']
            else:
                out += ['  const %s* %s = nullptr;' % (etype, p.name), '  if (%s) {' % n] + \
                    ['    ' + l for l in body] + ['  }']
        return out, news

    def array_body(self, meth, p, etype):
        """Lines reading an array of n elements at p (its bytes already checked) into `p.name`."""
        if self.word_copy(p):
            # The command bytes are private to the decoder (README section 8), 4-byte
            # aligned and little-endian like every host: an array of ids or 4-byte
            # scalars is used in place.
            body = ['const %s* %s_storage = wordArray<%s>(p);' % (etype, p.name, etype),
                    'p += size_t(n) * 4;']
        else:
            body = ['auto* %s_storage = c.arena.allocArray<%s>(n);' % (p.name, etype),
                    'if (!%s_storage) return ErrorCode::QuotaExceeded;' % p.name]
            body += self.read_array_lines(meth, p, 'n', '%s_storage' % p.name)
        if p.elem == 'object':
            iface = self.m.iface_id(p.iface) if p.iface != 'IUnknown' else 0
            body.append('for (uint32_t i = 0; i < n; i++)')
            body.append('  if (ErrorCode e = c.handles.check(%s_storage[i], %d, %s); e != ErrorCode::Ok) return e;' % (
                p.name, iface, 'true' if p.nullable_elems else 'false'))
        body.append('%s = %s_storage;' % (p.name, p.name))
        return body

    def word_copy(self, p):
        """Arrays whose wire form is their memory form, one 4-byte word per element."""
        return p.elem == 'object' or (p.elem == 'scalar' and self.e.wire_scalar_kind(p.type) in WORD_COPY_KINDS
                                      and p.type not in self.m.enums)

    def read_array_lines(self, meth, p, n, storage):
        """Lines copying n elements at p into storage (bounds already checked)."""
        if p.elem == 'object' or (p.elem == 'scalar' and self.e.wire_scalar_kind(p.type) in WORD_COPY_KINDS
                                  and p.type not in self.m.enums):
            return ['std::memcpy(%s, p, size_t(%s) * 4); p += size_t(%s) * 4;' % (storage, n, n)]
        if p.elem == 'record':
            return ['for (uint32_t i = 0; i < %s; i++) p = getw_%s(p, %s[i], bad);' % (n, p.type, storage),
                    'if (bad) return ErrorCode::BadEnum;']
        return ['for (uint32_t i = 0; i < %s; i++) { %s }' % (n, self.get_value('%s[i]' % storage, p.type)),
                'if (bad) return ErrorCode::BadEnum;']

    def decode_items(self, meth, p, news):
        k = p.kind
        if k in ('scalar', 'count'):
            post = []
            if k == 'count':
                cond = 'uint64_t(%s) > %d' % (p.name, p.maxv)
                if p.sentinel is not None:
                    cond = '%s != %du && %s' % (p.name, p.sentinel, cond)
                post.append('if (%s) return ErrorCode::CountTooLarge;' % cond)
            return [(self.scalar_bytes(p.type), ['%s %s{};' % (p.type, p.name), self.get_value(p.name, p.type)], post)]
        if k == 'object':
            iface = self.m.iface_id(p.iface) if p.iface != 'IUnknown' else 0
            return [(4, ['ObjectId %s = getw32(p); p += 4;' % p.name],
                     ['if (ErrorCode e = c.handles.check(%s, %d, %s); e != ErrorCode::Ok) return e;' % (
                         p.name, iface, 'true' if p.optional else 'false')])]
        if k == 'new_object':
            if p.iface:
                news.append((p, str(self.m.iface_id(p.iface))))
                return [(4, ['ObjectId %s = getw32(p); p += 4;' % p.name], [])]
            news.append((p, '%s_iface' % p.name))
            return [(4, ['ObjectId %s = getw32(p); p += 4;' % p.name],
                     ['uint16_t %s_iface = ifaceFromIid(%s);' % (p.name, p.iid),
                      'if (!%s_iface) return ErrorCode::UnknownIid;' % p.name])]
        if k == 'guid':
            return [(16, ['GUID %s{};' % p.name, 'std::memcpy(&%s, p, 16); p += 16;' % p.name], [])]
        if k == 'struct_value':
            return [(self.record_bytes(p.type), ['%s %s{};' % (p.type, p.name), 'p = getw_%s(p, %s, bad);' % (p.type, p.name)], [])]
        if k in ('struct_in', 'scalar_in'):
            size = self.record_bytes(p.type) if k == 'struct_in' else self.scalar_bytes(p.type)
            get = 'p = getw_%s(p, *%s_storage, bad);' % (p.type, p.name) if k == 'struct_in' else \
                self.get_value('*%s_storage' % p.name, p.type)
            alloc = ['auto* %s_storage = c.arena.allocArray<%s>(1);' % (p.name, p.type),
                     'if (!%s_storage) return ErrorCode::QuotaExceeded;' % p.name]
            if not p.optional:
                return [(0, ['const %s* %s = nullptr;' % (p.type, p.name)], []),
                        (size, alloc + [get, '%s = %s_storage;' % (p.name, p.name)], [])]
            return [(4, ['const %s* %s = nullptr;' % (p.type, p.name), 'uint32_t %s_present = getw32(p); p += 4;' % p.name],
                     ['if (%s_present > 1) return ErrorCode::BadPayload;' % p.name]),
                    (0, ['if (%s_present) {' % p.name,
                         '  if (left < %d) return ErrorCode::Truncated;' % size,
                         '  left -= %d;' % size] + ['  ' + l for l in alloc] +
                     ['  ' + get, '  if (bad) return ErrorCode::BadEnum;', '  %s = %s_storage;' % (p.name, p.name), '}'], [])]
        if k == 'array':
            n = self.e.count_expr(meth, p)
            etype = 'ObjectId' if p.elem == 'object' else p.type
            e = self.elem_bytes(p)
            body = ['uint32_t n = %s;' % n,
                    'if (uint64_t(n) * %d > left) return ErrorCode::Truncated;' % e,
                    'left -= size_t(n) * %d;' % e]
            body += self.array_body(meth, p, etype)
            if p.optional:
                return [(4, ['const %s* %s = nullptr;' % (etype, p.name), 'uint32_t %s_present = getw32(p); p += 4;' % p.name],
                         ['if (%s_present > 1) return ErrorCode::BadPayload;' % p.name]),
                        (0, ['if (%s_present) {' % p.name] + ['  ' + l for l in body] + ['}'], [])]
            return [(0, ['const %s* %s = nullptr;' % (etype, p.name), 'if (%s) {' % n] + ['  ' + l for l in body] + ['}'], [])]
        if k == 'payload':
            lines = ['Payload %s;' % p.name,
                     'if (ErrorCode e = getwPayload(p, left, %du, %s); e != ErrorCode::Ok) return e;' % (
                         min(self.e.value(p.max), 0xfffffffd), p.name)]
            if not p.optional:
                lines.append('if (%s.isNull) return ErrorCode::NullNotAllowed;' % p.name)
            return [(0, lines, [])]
        raise ValueError(k)
