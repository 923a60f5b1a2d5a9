// SPDX-License-Identifier: MIT
#include "dxbc/interfaces.h"

#include <algorithm>
#include <initializer_list>

#include "byte_io.h"
#include "dxbc/container.h"
#include "dxbc/fourcc.h"
#include "dxbc/shader_code.h"
#include "dxbc/tokens.h"

namespace dxbc {
namespace {

constexpr uint32_t kHeaderWords = 9;
constexpr uint32_t kSlotRecordSize = 16;
constexpr uint32_t kTypeRecordSize = 12;
constexpr uint32_t kInstanceRecordSize = 16;
// Far beyond what the API allows (D3D11_SHADER_MAX_INTERFACES is 253 slots, class types and
// instances are bounded by the shader's size); keeps hostile counts from allocating.
constexpr uint32_t kMaxRecords = 65536;
constexpr uint32_t kMaxSlots = 253;

class PayloadReader {
public:
  explicit PayloadReader(std::span<const uint8_t> bytes) : m_bytes(bytes) {}
  bool u32(uint32_t offset, uint32_t& v) const {
    if (offset > m_bytes.size() || m_bytes.size() - offset < 4)
      return false;
    v = loadLE32(m_bytes.data() + offset);
    return true;
  }
  bool u16(uint32_t offset, uint16_t& v) const {
    if (offset > m_bytes.size() || m_bytes.size() - offset < 2)
      return false;
    v = uint16_t(m_bytes[offset] | (m_bytes[offset + 1] << 8));
    return true;
  }
  bool name(uint32_t offset, std::string& out) const {
    if (offset >= m_bytes.size())
      return false;
    const uint8_t* begin = m_bytes.data() + offset;
    const uint8_t* end = m_bytes.data() + m_bytes.size();
    const uint8_t* nul = std::find(begin, end, uint8_t(0));
    if (nul == end)
      return false;
    out.assign(reinterpret_cast<const char*>(begin), size_t(nul - begin));
    return true;
  }
  // A class type or instance record: a name offset, then 16-bit fields in order.
  bool namedRecord(uint32_t at, std::string& name, std::initializer_list<uint16_t*> fields) const {
    uint32_t nameOffset = 0;
    if (!u32(at, nameOffset) || !this->name(nameOffset, name))
      return false;
    uint32_t fieldAt = at + 4;
    for (uint16_t* field : fields) {
      u16(fieldAt, *field);
      fieldAt += 2;
    }
    return true;
  }
  // count records of recordSize bytes at offset fit in the payload.
  bool fits(uint32_t offset, uint32_t count, uint32_t recordSize) const {
    return offset <= m_bytes.size() && uint64_t(count) * recordSize <= m_bytes.size() - offset;
  }

private:
  std::span<const uint8_t> m_bytes;
};

Status truncated(const char* what, uint32_t offset) {
  return Status::fail(ErrorCode::SignatureTruncated, what, offset);
}

void storeLE16(std::vector<uint8_t>& out, size_t at, uint16_t v) {
  out[at] = uint8_t(v);
  out[at + 1] = uint8_t(v >> 8);
}

}  // namespace

Status parseInterfacesChunk(std::span<const uint8_t> payload, InterfacesChunk& out) {
  out = InterfacesChunk();
  PayloadReader r(payload);
  uint32_t header[kHeaderWords];
  for (uint32_t i = 0; i < kHeaderWords; ++i) {
    if (!r.u32(i * 4, header[i]))
      return truncated("IFCE header truncated", i * 4);
  }
  const uint32_t instanceCount = header[0], typeCount = header[1], slotRecordCount = header[2];
  const uint32_t instanceOffset = header[4], typeOffset = header[5], slotOffset = header[6];
  if (instanceCount > kMaxRecords || typeCount > kMaxRecords || slotRecordCount > kMaxSlots || header[3] > kMaxSlots)
    return Status::fail(ErrorCode::SignatureTooLarge, "IFCE counts beyond any shader");
  if (!r.fits(typeOffset, typeCount, kTypeRecordSize))
    return truncated("IFCE class types run past the chunk", typeOffset);
  if (!r.fits(instanceOffset, instanceCount, kInstanceRecordSize))
    return truncated("IFCE class instances run past the chunk", instanceOffset);
  if (!r.fits(slotOffset, slotRecordCount, kSlotRecordSize))
    return truncated("IFCE slot records run past the chunk", slotOffset);

  out.types.resize(typeCount);
  for (uint32_t i = 0; i < typeCount; ++i) {
    const uint32_t at = typeOffset + i * kTypeRecordSize;
    ClassTypeRecord& t = out.types[i];
    if (!r.namedRecord(at, t.name, {&t.id, &t.constantBufferStride, &t.textureCount, &t.samplerCount}))
      return Status::fail(ErrorCode::SignatureNameOutOfRange, "IFCE class type name outside the chunk", at);
  }
  out.instances.resize(instanceCount);
  for (uint32_t i = 0; i < instanceCount; ++i) {
    const uint32_t at = instanceOffset + i * kInstanceRecordSize;
    ClassInstanceRecord& c = out.instances[i];
    if (!r.namedRecord(at, c.name,
                       {&c.typeId, &c.unknown, &c.constantBuffer, &c.constantBufferOffset, &c.texture, &c.sampler}))
      return Status::fail(ErrorCode::SignatureNameOutOfRange, "IFCE class instance name outside the chunk", at);
  }
  out.slots.resize(slotRecordCount);
  uint64_t slots = 0;
  for (uint32_t i = 0; i < slotRecordCount; ++i) {
    const uint32_t at = slotOffset + i * kSlotRecordSize;
    InterfaceSlotRange& s = out.slots[i];
    uint32_t entryCount = 0, typeIdsOffset = 0, tableIdsOffset = 0;
    r.u32(at, s.slotCount);
    r.u32(at + 4, entryCount);
    r.u32(at + 8, typeIdsOffset);
    r.u32(at + 12, tableIdsOffset);
    if (s.slotCount == 0 || entryCount > kMaxRecords)
      return Status::fail(ErrorCode::SignatureTooLarge, "IFCE slot record out of range", at);
    if (!r.fits(typeIdsOffset, entryCount, 2) || !r.fits(tableIdsOffset, entryCount, 4))
      return truncated("IFCE slot entries run past the chunk", at);
    s.typeIds.resize(entryCount);
    s.tableIds.resize(entryCount);
    for (uint32_t e = 0; e < entryCount; ++e) {
      r.u16(typeIdsOffset + e * 2, s.typeIds[e]);
      r.u32(tableIdsOffset + e * 4, s.tableIds[e]);
    }
    slots += s.slotCount;
  }
  if (slots > kMaxSlots)
    return Status::fail(ErrorCode::SignatureTooLarge, "IFCE slots beyond D3D11_SHADER_MAX_INTERFACES");
  out.slotCount = uint32_t(slots);
  return Status::success();
}

Status writeInterfacesChunk(const InterfacesChunk& chunk, std::vector<uint8_t>& out) {
  out.clear();
  uint64_t slots = 0;
  for (const InterfaceSlotRange& s : chunk.slots) {
    if (s.typeIds.size() != s.tableIds.size() || s.slotCount == 0)
      return Status::fail(ErrorCode::InvalidArgument, "slot range with mismatched entries or no slots");
    slots += s.slotCount;
  }
  if (slots > kMaxSlots || chunk.types.size() > kMaxRecords || chunk.instances.size() > kMaxRecords)
    return Status::fail(ErrorCode::TooLarge, "more interface slots or classes than a shader can have");

  const uint32_t slotOffset = kHeaderWords * 4;
  const uint32_t typeOffset = slotOffset + uint32_t(chunk.slots.size()) * kSlotRecordSize;
  const uint32_t instanceOffset = typeOffset + uint32_t(chunk.types.size()) * kTypeRecordSize;
  out.resize(instanceOffset + chunk.instances.size() * kInstanceRecordSize);
  const uint32_t header[kHeaderWords] = {uint32_t(chunk.instances.size()), uint32_t(chunk.types.size()),
                                         uint32_t(chunk.slots.size()), uint32_t(slots), instanceOffset,
                                         typeOffset, slotOffset, 0, 0};
  for (uint32_t i = 0; i < kHeaderWords; ++i)
    storeLE32(out.data() + i * 4, header[i]);

  auto appendAligned = [&out]() {
    while (out.size() % 4)
      out.push_back(0);
    return uint32_t(out.size());
  };
  auto appendName = [&](const std::string& name) {
    const uint32_t at = appendAligned();
    out.insert(out.end(), name.begin(), name.end());
    out.push_back(0);
    return at;
  };
  for (size_t i = 0; i < chunk.slots.size(); ++i) {
    const InterfaceSlotRange& s = chunk.slots[i];
    const uint32_t typeIdsAt = appendAligned();
    for (uint16_t id : s.typeIds) {
      out.resize(out.size() + 2);
      storeLE16(out, out.size() - 2, id);
    }
    const uint32_t tableIdsAt = appendAligned();
    for (uint32_t id : s.tableIds)
      appendLE32(out, id);
    const size_t at = slotOffset + i * kSlotRecordSize;
    storeLE32(out.data() + at, s.slotCount);
    storeLE32(out.data() + at + 4, uint32_t(s.typeIds.size()));
    storeLE32(out.data() + at + 8, typeIdsAt);
    storeLE32(out.data() + at + 12, tableIdsAt);
  }
  for (size_t i = 0; i < chunk.types.size(); ++i) {
    const ClassTypeRecord& t = chunk.types[i];
    const uint32_t nameAt = appendName(t.name);
    const size_t at = typeOffset + i * kTypeRecordSize;
    storeLE32(out.data() + at, nameAt);
    storeLE16(out, at + 4, t.id);
    storeLE16(out, at + 6, t.constantBufferStride);
    storeLE16(out, at + 8, t.textureCount);
    storeLE16(out, at + 10, t.samplerCount);
  }
  for (size_t i = 0; i < chunk.instances.size(); ++i) {
    const ClassInstanceRecord& c = chunk.instances[i];
    const uint32_t nameAt = appendName(c.name);
    const size_t at = instanceOffset + i * kInstanceRecordSize;
    storeLE32(out.data() + at, nameAt);
    storeLE16(out, at + 4, c.typeId);
    storeLE16(out, at + 6, c.unknown);
    storeLE16(out, at + 8, c.constantBuffer);
    storeLE16(out, at + 10, c.constantBufferOffset);
    storeLE16(out, at + 12, c.texture);
    storeLE16(out, at + 14, c.sampler);
  }
  appendAligned();
  return Status::success();
}

bool functionTableFor(const InterfacesChunk& chunk, uint32_t slot, uint16_t typeId, uint32_t& table) {
  uint32_t first = 0;
  for (const InterfaceSlotRange& s : chunk.slots) {
    if (slot >= first && slot - first < s.slotCount) {
      for (size_t e = 0; e < s.typeIds.size(); ++e) {
        if (s.typeIds[e] == typeId) {
          table = s.tableIds[e];
          return true;
        }
      }
      return false;
    }
    first += s.slotCount;
  }
  return false;
}

const ClassTypeRecord* findClassType(const InterfacesChunk& chunk, std::string_view name) {
  for (const ClassTypeRecord& t : chunk.types) {
    if (t.name == name)
      return &t;
  }
  return nullptr;
}

Status scanInterfaces(std::span<const uint8_t> tokenBytes, ShaderInterfaces& out) {
  out = ShaderInterfaces();
  ShaderCode code;
  Status status = parseShaderCode(tokenBytes, code);
  if (!status.ok())
    return status;
  const TokenStream& tokens = code.tokens;
  const uint32_t end = code.lengthInTokens;
  uint32_t pos = 2;
  while (pos < end) {
    const uint32_t opcodeToken = tokens[pos];
    const uint32_t opcode = token::opcode(opcodeToken);
    uint32_t length = token::instructionLength(opcodeToken);
    if (opcode == op::CustomData) {
      if (end - pos < 2)
        return Status::fail(ErrorCode::ShaderBadInstruction, "custom data length missing", pos * 4);
      length = tokens[pos + 1];
    }
    if (length == 0 || length > end - pos)
      return Status::fail(ErrorCode::ShaderBadInstruction, "instruction length out of range", pos * 4);
    const uint32_t last = pos + length;   // one past the instruction
    if (opcode == op::DclFunctionBody) {
      ++out.functionBodyCount;
    } else if (opcode == op::DclFunctionTable) {
      // id, body count, bodies
      if (length < 3 || tokens[pos + 2] > length - 3)
        return Status::fail(ErrorCode::ShaderBadOperand, "dcl_function_table body list out of range", pos * 4);
      FunctionTableDeclaration table;
      table.id = tokens[pos + 1];
      for (uint32_t i = 0; i < tokens[pos + 2]; ++i)
        table.bodies.push_back(tokens[pos + 3 + i]);
      out.tables.push_back(std::move(table));
    } else if (opcode == op::DclInterface) {
      // id, call sites, (array length << 16) | table count, tables
      if (length < 4)
        return Status::fail(ErrorCode::ShaderBadOperand, "dcl_interface too short", pos * 4);
      InterfaceDeclaration decl;
      decl.firstSlot = tokens[pos + 1];
      decl.callSites = tokens[pos + 2];
      decl.arrayLength = tokens[pos + 3] >> 16;
      const uint32_t tableCount = tokens[pos + 3] & 0xffff;
      if (tableCount > length - 4 || decl.arrayLength == 0)
        return Status::fail(ErrorCode::ShaderBadOperand, "dcl_interface table list out of range", pos * 4);
      for (uint32_t i = 0; i < tableCount; ++i)
        decl.tables.push_back(tokens[pos + 4 + i]);
      if (uint64_t(decl.firstSlot) + decl.arrayLength > kMaxSlots)
        return Status::fail(ErrorCode::SignatureTooLarge, "interface slots beyond D3D11_SHADER_MAX_INTERFACES",
                            pos * 4);
      out.slotCount = std::max(out.slotCount, decl.firstSlot + decl.arrayLength);
      out.interfaces.push_back(std::move(decl));
    }
    pos = last;
  }
  return Status::success();
}

std::string functionTableClassName(uint32_t table) { return "TritonFunctionTable" + std::to_string(table); }

Status synthesizeInterfacesChunk(const ShaderInterfaces& declared, InterfacesChunk& out) {
  out = InterfacesChunk();
  for (const FunctionTableDeclaration& t : declared.tables) {
    if (t.id > 0xffff)
      return Status::fail(ErrorCode::InvalidArgument, "function table id beyond a class type id");
    out.types.push_back({functionTableClassName(t.id), uint16_t(t.id), 0, 0, 0});
  }
  // Slot ranges in slot order; slots no interface covers get a range accepting nothing.
  std::vector<const InterfaceDeclaration*> bySlot;
  for (const InterfaceDeclaration& d : declared.interfaces)
    bySlot.push_back(&d);
  std::sort(bySlot.begin(), bySlot.end(),
            [](const InterfaceDeclaration* a, const InterfaceDeclaration* b) { return a->firstSlot < b->firstSlot; });
  uint32_t next = 0;
  for (const InterfaceDeclaration* d : bySlot) {
    if (d->firstSlot < next)
      return Status::fail(ErrorCode::SignatureConflict, "interfaces declare overlapping slots");
    if (d->firstSlot > next)
      out.slots.push_back({d->firstSlot - next, {}, {}});
    InterfaceSlotRange range;
    range.slotCount = d->arrayLength;
    for (uint32_t table : d->tables) {
      if (table > 0xffff)
        return Status::fail(ErrorCode::InvalidArgument, "function table id beyond a class type id");
      range.typeIds.push_back(uint16_t(table));
      range.tableIds.push_back(table);
    }
    out.slots.push_back(std::move(range));
    next = d->firstSlot + d->arrayLength;
  }
  out.slotCount = next;
  return Status::success();
}

}  // namespace dxbc

namespace dxbc {

Status addInterfacesChunk(std::vector<uint8_t>& container, const InterfacesChunk& chunk) {
  ContainerReader reader;
  Status status = ContainerReader::parse(container, reader, ReadOptions{false, true});
  if (!status.ok())
    return status;
  std::vector<uint8_t> payload;
  status = writeInterfacesChunk(chunk, payload);
  if (!status.ok())
    return status;
  ContainerWriter writer;
  for (const ChunkView& c : reader.chunks()) {
    if (c.tag != tag::IFCE)
      writer.addChunk(c.tag, c.data);
  }
  writer.addChunk(tag::IFCE, std::move(payload));
  std::vector<uint8_t> out;
  status = writer.write(out);
  if (status.ok())
    container = std::move(out);
  return status;
}

}  // namespace dxbc
