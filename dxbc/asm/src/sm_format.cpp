// SPDX-License-Identifier: MIT
#include "sm_format.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace dxbc::sm {
namespace {

bool hasFloatMarker(const char* text) {
  return std::strpbrk(text, ".eEn") != nullptr;   // "nan"/"inf" never reach here
}

}  // namespace

std::string formatFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  char buf[64];
  if (!std::isfinite(value)) {
    std::snprintf(buf, sizeof(buf), "0x%08x", bits);
    return buf;
  }
  // fxc's own notation first; more digits only where six decimals would lose bits.
  std::snprintf(buf, sizeof(buf), "%f", double(value));
  float back = std::strtof(buf, nullptr);
  uint32_t backBits;
  std::memcpy(&backBits, &back, sizeof(backBits));
  if (backBits != bits) {
    std::snprintf(buf, sizeof(buf), "%.9g", double(value));
    if (!hasFloatMarker(buf))
      std::strcat(buf, ".0");
  }
  return buf;
}

std::string formatDouble(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof(value));
  char buf[512];
  if (!std::isfinite(value)) {
    std::snprintf(buf, sizeof(buf), "0x%016llx", static_cast<unsigned long long>(bits));
    return buf;
  }
  std::snprintf(buf, sizeof(buf), "%f", value);
  double back = std::strtod(buf, nullptr);
  uint64_t backBits;
  std::memcpy(&backBits, &back, sizeof(backBits));
  if (backBits != bits) {
    std::snprintf(buf, sizeof(buf), "%.17g", value);
    if (!hasFloatMarker(buf))
      std::strcat(buf, ".0");
  }
  return buf;
}

std::string formatInt(uint32_t bits) {
  return std::to_string(static_cast<int32_t>(bits));
}

std::string formatUint(uint32_t bits) {
  if (bits < 0x80000000u)
    return std::to_string(bits);
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%08x", bits);
  return buf;
}

std::string formatValue(uint32_t bits, ValueType type) {
  switch (type) {
    case ValueType::Float:
      return formatFloat(bits);
    case ValueType::Int:
      return formatInt(bits);
    case ValueType::Uint:
      return formatUint(bits);
    default:
      break;
  }
  uint32_t exponent = (bits >> 23) & 0xff;
  if (exponent != 0 && exponent != 0xff) {
    float value;
    std::memcpy(&value, &bits, sizeof(value));
    float magnitude = std::fabs(value);
    if (magnitude >= 1.0e-6f && magnitude < 1.0e9f)
      return formatFloat(bits);
  }
  return formatInt(bits);
}

}  // namespace dxbc::sm
