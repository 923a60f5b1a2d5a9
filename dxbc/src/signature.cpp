// SPDX-License-Identifier: MIT
#include "dxbc/signature.h"

#include <cstring>

#include "byte_io.h"

namespace dxbc {

uint32_t signatureElementSize(SignatureFormat format) {
  switch (format) {
    case SignatureFormat::Basic: return 24;
    case SignatureFormat::Stream: return 28;
    case SignatureFormat::MinPrecision: return 32;
  }
  return 24;
}

FourCC signatureTag(SignatureKind kind, SignatureFormat format) {
  switch (format) {
    case SignatureFormat::Basic:
      return kind == SignatureKind::Input    ? tag::ISGN
             : kind == SignatureKind::Output ? tag::OSGN
                                             : tag::PCSG;
    case SignatureFormat::Stream:
      return kind == SignatureKind::Output ? tag::OSG5 : 0;
    case SignatureFormat::MinPrecision:
      return kind == SignatureKind::Input    ? tag::ISG1
             : kind == SignatureKind::Output ? tag::OSG1
                                             : tag::PSG1;
  }
  return 0;
}

bool classifySignatureTag(FourCC tag, SignatureKind* kind, SignatureFormat* format) {
  struct Entry { FourCC tag; SignatureKind kind; SignatureFormat format; };
  static constexpr Entry kEntries[] = {
    {tag::ISGN, SignatureKind::Input, SignatureFormat::Basic},
    {tag::OSGN, SignatureKind::Output, SignatureFormat::Basic},
    {tag::PCSG, SignatureKind::PatchConstant, SignatureFormat::Basic},
    {tag::OSG5, SignatureKind::Output, SignatureFormat::Stream},
    {tag::ISG1, SignatureKind::Input, SignatureFormat::MinPrecision},
    {tag::OSG1, SignatureKind::Output, SignatureFormat::MinPrecision},
    {tag::PSG1, SignatureKind::PatchConstant, SignatureFormat::MinPrecision},
  };
  for (const Entry& e : kEntries) {
    if (e.tag == tag) {
      if (kind) *kind = e.kind;
      if (format) *format = e.format;
      return true;
    }
  }
  return false;
}

Status parseSignature(FourCC tag, std::span<const uint8_t> payload, Signature& out) {
  out.elements.clear();
  SignatureFormat format;
  if (!classifySignatureTag(tag, nullptr, &format))
    return Status::fail(ErrorCode::InvalidArgument, "not a signature chunk tag");
  if (payload.size() < 8)
    return Status::fail(ErrorCode::SignatureTruncated, "signature header truncated");

  const uint8_t* p = payload.data();
  const uint64_t size = payload.size();
  const uint64_t count = loadLE32(p);
  const uint64_t arrayOffset = loadLE32(p + 4);
  const uint64_t stride = signatureElementSize(format);
  if (count > kMaxSignatureElements)
    return Status::fail(ErrorCode::SignatureTooLarge, "signature element count implausible");
  if (arrayOffset > size || count * stride > size - arrayOffset)
    return Status::fail(ErrorCode::SignatureTruncated, "signature elements run past the chunk", 4);

  out.elements.resize(size_t(count));
  for (uint64_t i = 0; i < count; ++i) {
    const uint8_t* e = p + arrayOffset + i * stride;
    SignatureElement& element = out.elements[size_t(i)];
    if (format != SignatureFormat::Basic) {
      element.stream = loadLE32(e);
      e += 4;
    }
    const uint32_t nameOffset = loadLE32(e);
    element.semanticIndex = loadLE32(e + 4);
    element.systemValue = loadLE32(e + 8);
    element.componentType = loadLE32(e + 12);
    element.registerIndex = loadLE32(e + 16);
    element.mask = e[20];
    element.rwMask = e[21];
    if (format == SignatureFormat::MinPrecision)
      element.minPrecision = loadLE32(e + 24);

    const uint32_t elementOffset = uint32_t(arrayOffset + i * stride);
    if (nameOffset >= size)
      return Status::fail(ErrorCode::SignatureNameOutOfRange, "semantic name outside the chunk",
                          elementOffset);
    const void* nul = std::memchr(p + nameOffset, 0, size_t(size - nameOffset));
    if (!nul)
      return Status::fail(ErrorCode::SignatureNameUnterminated, "semantic name not terminated",
                          nameOffset);
    element.semanticName.assign(reinterpret_cast<const char*>(p + nameOffset),
                                static_cast<const uint8_t*>(nul) - (p + nameOffset));
  }
  return Status::success();
}

Status writeSignature(const Signature& signature, SignatureFormat format,
                      std::vector<uint8_t>& out) {
  const size_t count = signature.elements.size();
  if (count > kMaxSignatureElements)
    return Status::fail(ErrorCode::SignatureTooLarge, "too many signature elements");
  const uint32_t stride = signatureElementSize(format);
  const size_t stringsStart = 8 + count * stride;

  // Names are shared between elements with the same name, as fxc does.
  std::vector<uint32_t> nameOffsets(count);
  size_t stringsSize = 0;
  for (size_t i = 0; i < count; ++i) {
    const std::string& name = signature.elements[i].semanticName;
    size_t j = 0;
    while (j < i && signature.elements[j].semanticName != name)
      ++j;
    if (j < i) {
      nameOffsets[i] = nameOffsets[j];
    } else {
      nameOffsets[i] = uint32_t(stringsStart + stringsSize);
      stringsSize += name.size() + 1;
    }
  }
  const size_t total = (stringsStart + stringsSize + 3) & ~size_t(3);
  if (total > 0x7fffffff)
    return Status::fail(ErrorCode::TooLarge, "signature too large");

  // fxc pads the string table with 0xAB bytes.
  out.assign(total, 0);
  std::memset(out.data() + stringsStart + stringsSize, 0xab, total - stringsStart - stringsSize);
  uint8_t* p = out.data();
  storeLE32(p, uint32_t(count));
  storeLE32(p + 4, 8);
  for (size_t i = 0; i < count; ++i) {
    const SignatureElement& element = signature.elements[i];
    uint8_t* e = p + 8 + i * stride;
    if (format != SignatureFormat::Basic) {
      storeLE32(e, element.stream);
      e += 4;
    }
    storeLE32(e, nameOffsets[i]);
    storeLE32(e + 4, element.semanticIndex);
    storeLE32(e + 8, element.systemValue);
    storeLE32(e + 12, element.componentType);
    storeLE32(e + 16, element.registerIndex);
    e[20] = element.mask;
    e[21] = element.rwMask;
    if (format == SignatureFormat::MinPrecision)
      storeLE32(e + 24, element.minPrecision);
    // Shared names are copied more than once; same bytes, same place.
    const std::string& name = element.semanticName;
    std::memcpy(p + nameOffsets[i], name.c_str(), name.size() + 1);
  }
  return Status::success();
}

}  // namespace dxbc
