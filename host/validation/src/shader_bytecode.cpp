#include "npt/validation/shaders.h"

#include <cstring>

namespace npt::validation {

namespace {

constexpr uint32_t fourcc(char a, char b, char c, char d) {
  return uint32_t(uint8_t(a)) | uint32_t(uint8_t(b)) << 8 | uint32_t(uint8_t(c)) << 16 | uint32_t(uint8_t(d)) << 24;
}

constexpr uint32_t kDxbc = fourcc('D', 'X', 'B', 'C');
constexpr uint32_t kShdr = fourcc('S', 'H', 'D', 'R');
constexpr uint32_t kShex = fourcc('S', 'H', 'E', 'X');
constexpr uint32_t kIsgn = fourcc('I', 'S', 'G', 'N');
constexpr uint32_t kIsg1 = fourcc('I', 'S', 'G', '1');
constexpr size_t kHeaderSize = 32;   // magic, checksum[16], version, total size, chunk count

uint32_t readU32(const uint8_t* bytes, size_t offset) {
  uint32_t value;
  std::memcpy(&value, bytes + offset, sizeof(value));
  return value;
}

const char* stageName(ShaderStage stage) {
  switch (stage) {
    case ShaderStage::Pixel: return "pixel";
    case ShaderStage::Vertex: return "vertex";
    case ShaderStage::Geometry: return "geometry";
    case ShaderStage::Hull: return "hull";
    case ShaderStage::Domain: return "domain";
    case ShaderStage::Compute: return "compute";
  }
  return "?";
}

}  // namespace

Check validateShaderBytecode(const void* bytecode, size_t length, ShaderStage stage, ShaderInfo* info) {
  const auto* bytes = static_cast<const uint8_t*>(bytecode);
  if (!bytes || length < kHeaderSize)
    return Check::reject(Rule::ShaderTooSmall, "%zu bytes are shorter than a DXBC header", bytes ? length : 0);
  if (readU32(bytes, 0) != kDxbc)
    return Check::reject(Rule::ShaderMagic, "missing DXBC magic");
  const uint32_t totalSize = readU32(bytes, 24);
  // The runtime trusts the container's own size; we require it to equal what we hold.
  if (totalSize != length)
    return Check::reject(Rule::ShaderContainerSize, "container says %u bytes, %zu given", totalSize, length);
  const uint32_t chunkCount = readU32(bytes, 28);
  if (chunkCount > (length - kHeaderSize) / 4)
    return Check::reject(Rule::ShaderChunkTable, "chunk table of %u entries does not fit", chunkCount);

  const uint8_t* code = nullptr;
  size_t codeSize = 0;
  ShaderInfo found;
  for (uint32_t i = 0; i < chunkCount; i++) {
    const uint32_t offset = readU32(bytes, kHeaderSize + 4 * size_t(i));
    if (offset % 4 || offset < kHeaderSize + 4 * size_t(chunkCount) || size_t(offset) + 8 > length)
      return Check::reject(Rule::ShaderChunkBounds, "chunk %u header at %u is outside the container", i, offset);
    const uint32_t tag = readU32(bytes, offset);
    const uint32_t size = readU32(bytes, offset + 4);
    if (size > length - offset - 8)
      return Check::reject(Rule::ShaderChunkBounds, "chunk %u (%u bytes at %u) runs past the end", i, size, offset);
    if ((tag == kShdr || tag == kShex) && !code) {
      code = bytes + offset + 8;
      codeSize = size;
    }
    if ((tag == kIsgn || tag == kIsg1) && !found.inputSignature) {
      found.inputSignature = bytes + offset + 8;
      found.inputSignatureSize = size;
    }
  }
  if (!code)
    return Check::reject(Rule::ShaderNoCode, "container has no SHDR/SHEX chunk");
  if (codeSize < 8)
    return Check::reject(Rule::ShaderCodeBounds, "shader code chunk of %zu bytes has no program header", codeSize);
  // Version token: minor in bits 0-3, major in 4-7, program type in 16-31. Then the
  // program length in DWORDs, which must fit inside the chunk.
  const uint32_t version = readU32(code, 0);
  const uint32_t lengthDwords = readU32(code, 4);
  found.stage = ShaderStage(version >> 16);
  found.minorVersion = version & 0xf;
  found.majorVersion = (version >> 4) & 0xf;
  if (lengthDwords < 2 || uint64_t(lengthDwords) * 4 > codeSize)
    return Check::reject(Rule::ShaderCodeBounds, "program length %u DWORDs exceeds its %zu-byte chunk", lengthDwords,
                         codeSize);
  if (found.majorVersion < 4 || found.majorVersion > 5)
    return Check::reject(Rule::ShaderCodeBounds, "shader model %u.%u is not 4.x/5.x", found.majorVersion,
                         found.minorVersion);
  if (found.stage != stage)
    return Check::reject(Rule::ShaderStageMismatch, "bytecode is a %s shader, a %s shader was created",
                         uint32_t(found.stage) <= 5 ? stageName(found.stage) : "unknown", stageName(stage));
  if (info) *info = found;
  return Check::pass();
}

}  // namespace npt::validation
