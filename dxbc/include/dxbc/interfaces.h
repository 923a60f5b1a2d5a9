// SPDX-License-Identifier: MIT
#pragma once

// Dynamic shader linkage (SM5 interfaces and classes).
//
// Two views of the same thing:
// * the IFCE chunk fxc writes for a shader with interfaces: class types (name, id, and
//   the constant/texture/sampler footprint of one instance), class instances the shader
//   declares (name, type, where its data lives), and per interface slot range the class
//   types it accepts with the function table each one selects. The API runtime reads it
//   (ID3D11ClassLinkage::GetClassInstance, the function table an instance selects); the
//   DDI never sees it: a driver gets the token stream and, per slot, a function table id
//   and the instance's data location.
// * the declarations of the token stream (dcl_function_body, dcl_function_table,
//   dcl_interface): what a driver knows.
//
// Layout of the chunk (no public specification; as read by dxbc-spirv and SlimShader and
// written by Refulgence, which agree): a header of 9 words - class instance count, class
// type count, slot record count, total slot count, offsets of the instance records, the
// type records and the slot records, and two words of unknown meaning (written as 0) -
// then records of 16 bytes per slot range (slot count, entry count, offset of the u16 type
// ids, offset of the u32 table ids), 12 bytes per class type (name offset, u16 id,
// constant-buffer stride, texture count, sampler count), 16 bytes per class instance (name
// offset, u16 type, u16 unknown, constant buffer, constant-buffer offset, texture,
// sampler), and NUL-terminated names. Offsets count from the chunk payload's start.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dxbc/status.h"

namespace dxbc {

struct ClassTypeRecord {
  std::string name;
  uint16_t id = 0;
  uint16_t constantBufferStride = 0;   // vectors of instance data
  uint16_t textureCount = 0;
  uint16_t samplerCount = 0;
};

constexpr uint16_t kNoInstanceBinding = 0xffff;   // "-" in fxc's listing: no texture/sampler

struct ClassInstanceRecord {
  std::string name;
  uint16_t typeId = 0;
  uint16_t unknown = 0;
  uint16_t constantBuffer = 0;
  uint16_t constantBufferOffset = 0;   // in vectors
  uint16_t texture = kNoInstanceBinding;
  uint16_t sampler = kNoInstanceBinding;
};

// Consecutive slots (an interface array) that accept the same classes.
struct InterfaceSlotRange {
  uint32_t slotCount = 1;
  std::vector<uint16_t> typeIds;    // accepted class types...
  std::vector<uint32_t> tableIds;   // ...and the function table each selects (same length)
};

struct InterfacesChunk {
  std::vector<ClassTypeRecord> types;
  std::vector<ClassInstanceRecord> instances;
  std::vector<InterfaceSlotRange> slots;   // in slot order, from slot 0
  uint32_t slotCount = 0;                  // sum of the ranges' slot counts
};

// Every offset, count and name is bounds-checked against the payload.
Status parseInterfacesChunk(std::span<const uint8_t> payload, InterfacesChunk& out);
Status writeInterfacesChunk(const InterfacesChunk& chunk, std::vector<uint8_t>& out);

// The function table a class type selects in a slot (false: the slot does not accept it).
bool functionTableFor(const InterfacesChunk& chunk, uint32_t slot, uint16_t typeId, uint32_t& table);
const ClassTypeRecord* findClassType(const InterfacesChunk& chunk, std::string_view name);

// The token stream's interface declarations.
struct InterfaceDeclaration {
  uint32_t firstSlot = 0;            // fp<id>: the interface's first slot
  uint32_t arrayLength = 1;          // slots it spans
  uint32_t callSites = 0;            // function table length expected
  std::vector<uint32_t> tables;      // ft ids that may be bound
};

struct FunctionTableDeclaration {
  uint32_t id = 0;
  std::vector<uint32_t> bodies;      // fb ids, one per call site
};

struct ShaderInterfaces {
  std::vector<InterfaceDeclaration> interfaces;   // in token order
  std::vector<FunctionTableDeclaration> tables;
  uint32_t functionBodyCount = 0;
  uint32_t slotCount = 0;            // slots covered by the interfaces (highest + 1)
  bool empty() const { return interfaces.empty(); }
};

// Walks a bare token stream (version, length, instructions) for the declarations above.
Status scanInterfaces(std::span<const uint8_t> tokenBytes, ShaderInterfaces& out);

// What a driver that only has the tokens can give the API: one class type per function
// table (named functionTableClassName(id), type id = table id) and, per interface, the
// tables it lists. A class instance of type functionTableClassName(t) then selects table t
// in every slot that accepts it - which is what the DDI's per-slot table id says.
Status synthesizeInterfacesChunk(const ShaderInterfaces& declared, InterfacesChunk& out);
std::string functionTableClassName(uint32_t table);

}  // namespace dxbc

namespace dxbc {

// The container with an IFCE chunk (replacing one it had) holding `chunk`; the checksum
// is recomputed.
Status addInterfacesChunk(std::vector<uint8_t>& container, const InterfacesChunk& chunk);

}  // namespace dxbc
