// SPDX-License-Identifier: MIT
// Input-layout and stream-output references → rebuilt signature semantics.

#include "dxbc/linkage.h"

#include <algorithm>

#include "dxbc/container.h"
#include "dxbc/rebuild.h"
#include "dxbc/shader_code.h"

namespace dxbc {

namespace {

uint32_t firstComponent(uint8_t mask) {
  for (uint32_t i = 0; i < 4; ++i)
    if (mask & (1u << i))
      return i;
  return 0;
}

uint32_t popcount4(uint8_t mask) {
  return (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1) + ((mask >> 3) & 1);
}

}  // namespace

Status vertexFormatInfo(uint32_t dxgiFormat, uint32_t* componentType, uint32_t* componentCount) {
  constexpr uint32_t F = comptype::Float32, U = comptype::Uint32, S = comptype::Sint32;
  struct Info { uint32_t format, type, count; };
  // DXGI_FORMAT values usable as D3D11 vertex attributes. Normalized and float formats
  // reach the shader as float.
  static constexpr Info kFormats[] = {
    {2, F, 4}, {3, U, 4}, {4, S, 4}, {6, F, 3}, {7, U, 3}, {8, S, 3},
    {10, F, 4}, {11, F, 4}, {12, U, 4}, {13, F, 4}, {14, S, 4},
    {16, F, 2}, {17, U, 2}, {18, S, 2},
    {24, F, 4}, {25, U, 4}, {26, F, 3},
    {28, F, 4}, {29, F, 4}, {30, U, 4}, {31, F, 4}, {32, S, 4},
    {34, F, 2}, {35, F, 2}, {36, U, 2}, {37, F, 2}, {38, S, 2},
    {41, F, 1}, {42, U, 1}, {43, S, 1},
    {49, F, 2}, {50, U, 2}, {51, F, 2}, {52, S, 2},
    {54, F, 1}, {56, F, 1}, {57, U, 1}, {58, F, 1}, {59, S, 1},
    {61, F, 1}, {62, U, 1}, {63, F, 1}, {64, S, 1},
    {85, F, 3}, {86, F, 4}, {87, F, 4}, {88, F, 4}, {115, F, 4},
  };
  for (const Info& info : kFormats) {
    if (info.format == dxgiFormat) {
      *componentType = info.type;
      *componentCount = info.count;
      return Status::success();
    }
  }
  return Status::fail(ErrorCode::UnsupportedFormat, "format cannot feed the input assembler");
}

Status mapInputElement(const Signature& vsInput, const InputElementRef& element,
                       InputElementMapping& out) {
  uint32_t count = 0;
  Status status = vertexFormatInfo(element.dxgiFormat, &out.componentType, &count);
  if (!status.ok())
    return status;
  out.formatMask = uint8_t((1u << count) - 1);
  for (const SignatureElement& e : vsInput.elements) {
    if (e.registerIndex == element.inputRegister) {
      out.semanticName = e.semanticName;
      out.semanticIndex = e.semanticIndex;
      return Status::success();
    }
  }
  // The shader does not read this register: any name works for it, and the generic one
  // keeps the mapping independent of the shader.
  out.semanticName = kGenericSemantic;
  out.semanticIndex = genericSemanticIndex(element.inputRegister, 0);
  return Status::success();
}

Status buildInputLayoutSignature(std::span<const InputElementRef> elements, Signature& out) {
  out.elements.clear();
  for (const InputElementRef& element : elements) {
    if (element.inputRegister >= 32)
      return Status::fail(ErrorCode::InvalidArgument, "input register beyond 31");
    uint32_t type = 0, count = 0;
    Status status = vertexFormatInfo(element.dxgiFormat, &type, &count);
    if (!status.ok())
      return status;
    auto same = std::find_if(out.elements.begin(), out.elements.end(), [&](const SignatureElement& e) {
      return e.registerIndex == element.inputRegister;
    });
    if (same != out.elements.end())
      return Status::fail(ErrorCode::SignatureConflict, "two input elements share a register");
    SignatureElement e;
    e.semanticName = kGenericSemantic;
    e.semanticIndex = genericSemanticIndex(element.inputRegister, 0);
    e.componentType = type;
    e.registerIndex = element.inputRegister;
    e.mask = uint8_t((1u << count) - 1);
    e.rwMask = e.mask;
    out.elements.push_back(std::move(e));
  }
  std::sort(out.elements.begin(), out.elements.end(),
            [](const SignatureElement& a, const SignatureElement& b) {
              return a.registerIndex < b.registerIndex;
            });
  return Status::success();
}

Status buildInputLayoutContainer(std::span<const InputElementRef> elements,
                                 std::vector<uint8_t>& out) {
  Signature input;
  Status status = buildInputLayoutSignature(elements, input);
  if (!status.ok())
    return status;
  std::vector<uint8_t> isgn, osgn;
  if (!(status = writeSignature(input, SignatureFormat::Basic, isgn)).ok() ||
      !(status = writeSignature(Signature{}, SignatureFormat::Basic, osgn)).ok())
    return status;
  // vs_4_0 { ret }: runtimes only read the input signature of this container.
  const uint32_t tokens[] = {token::makeVersion(ProgramType::Vertex, 4, 0), 3, 0x0100003e};
  ContainerWriter writer;
  writer.addChunk(tag::ISGN, std::move(isgn));
  writer.addChunk(tag::OSGN, std::move(osgn));
  writer.addChunk(tag::SHDR, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(tokens),
                                                      sizeof(tokens)));
  return writer.write(out);
}

Status mapStreamOutputEntry(const Signature& output, const StreamOutputRef& entry,
                            StreamOutputMapping& out) {
  out = StreamOutputMapping();
  out.stream = entry.stream;
  out.outputSlot = entry.outputSlot;
  const uint8_t mask = entry.registerMask & 0xf;
  if (!mask)
    return Status::fail(ErrorCode::InvalidArgument, "stream-output entry with an empty mask");
  const uint32_t first = firstComponent(mask);
  const uint32_t count = popcount4(mask);
  if (uint8_t(((1u << count) - 1) << first) != mask)
    return Status::fail(ErrorCode::InvalidArgument, "stream-output mask is not contiguous");
  out.componentCount = uint8_t(count);
  if (entry.registerIndex == kNoRegister)
    return Status::success();   // a gap: SemanticName = NULL, ComponentCount components skipped
  for (const SignatureElement& e : output.elements) {
    if (e.stream != entry.stream || e.registerIndex != entry.registerIndex ||
        !(e.mask & (1u << first)))
      continue;
    if (mask & ~e.mask)
      return Status::fail(ErrorCode::SignatureConflict,
                          "stream-output mask crosses a signature element boundary");
    out.semanticName = e.semanticName;
    out.semanticIndex = e.semanticIndex;
    out.startComponent = uint8_t(first - firstComponent(e.mask));
    return Status::success();
  }
  return Status::fail(ErrorCode::NotFound, "no output element at that stream/register/component");
}

}  // namespace dxbc
