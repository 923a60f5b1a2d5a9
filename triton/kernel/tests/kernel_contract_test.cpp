// SPDX-License-Identifier: MIT
// The kernel interface contract's layouts and the kernel-side escape checks
// (triton/kernel/CONTRACT.md), native and Windows builds. The contract's own structures
// are pinned by static_asserts in contract.h; here: the DDI structures the contract
// travels in, per architecture, and checkEscape's answer to every malformed header.

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <vector>

#include "triton/ddi/ddi.h"
#include "triton/kernel/contract.h"
#include "kernel_ddi_layout_checks.h"

namespace triton::kernel {
namespace {

namespace ddi = triton::ddi;

TEST(KernelContract, CodesAndSizesAreStable) {
  EXPECT_EQ(kEscapeMagic, 0x454B504Eu);
  EXPECT_EQ(uint16_t(EscapeCode::QueryCapset), 1);
  EXPECT_EQ(uint16_t(EscapeCode::Wait), 5);
  EXPECT_EQ(int32_t(KernelStatus::HostUnavailable), 10);
  EXPECT_EQ(escapeSize(EscapeCode::QueryCapset), 72u);
  EXPECT_EQ(escapeSize(EscapeCode::CreateContext), 216u);
  EXPECT_EQ(escapeSize(EscapeCode::DestroyContext), 32u);
  EXPECT_EQ(escapeSize(EscapeCode::Notify), 32u);
  EXPECT_EQ(escapeSize(EscapeCode::Wait), 56u);
  EXPECT_EQ(escapeSize(EscapeCode(0)), 0u);
  EXPECT_EQ(escapeSize(EscapeCode(6)), 0u);
  const EscapeHeader h = escapeHeader(EscapeCode::Notify);
  EXPECT_EQ(h.magic, kEscapeMagic);
  EXPECT_EQ(h.version, kContractVersion);
  EXPECT_EQ(h.code, 4);
  EXPECT_EQ(h.size, 32u);
  EXPECT_EQ(h.status, 0);
}

TEST(KernelContract, LittleEndianBytesOfAHeader) {
  const EscapeHeader h = escapeHeader(EscapeCode::Wait);
  uint8_t bytes[sizeof(h)];
  std::memcpy(bytes, &h, sizeof(h));
  const uint8_t expected[24] = {'N', 'P', 'K', 'E', 1, 0, 5, 0, 56, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(std::memcmp(bytes, expected, sizeof(expected)), 0);
}

KernelStatus check(const void* data, uint32_t size, bool* isNeptune = nullptr) {
  KernelStatus status = KernelStatus(-1);
  const bool ok = checkEscape(data, size, &status);
  if (isNeptune)
    *isNeptune = ok;
  return status;
}

TEST(KernelContract, NotANeptuneEscape) {
  bool neptune = true;
  check(nullptr, 24, &neptune);
  EXPECT_FALSE(neptune) << "null buffer";
  EscapeHeader h = escapeHeader(EscapeCode::Notify);
  check(&h, sizeof(h) - 1, &neptune);
  EXPECT_FALSE(neptune) << "shorter than a header";
  h.magic = 0x12345678;
  check(&h, sizeof(h), &neptune);
  EXPECT_FALSE(neptune) << "wrong magic";
}

TEST(KernelContract, MalformedHeadersGetTheirStatus) {
  NotifyBody body{escapeHeader(EscapeCode::Notify), 1, 0};
  EXPECT_EQ(check(&body, sizeof(body)), KernelStatus::Ok);

  NotifyBody old = body;
  old.header.version = 0;
  EXPECT_EQ(check(&old, sizeof(old)), KernelStatus::BadVersion);
  NotifyBody newer = body;
  newer.header.version = kContractVersion + 1;
  EXPECT_EQ(check(&newer, sizeof(newer)), KernelStatus::BadVersion);

  // The header's size and the escape's size must agree, and be the code's exact size.
  EXPECT_EQ(check(&body, sizeof(body) - 8), KernelStatus::BadSize);
  std::vector<uint8_t> longer(sizeof(body) + 8);
  NotifyBody grown = body;
  grown.header.size = uint32_t(longer.size());
  std::memcpy(longer.data(), &grown, sizeof(grown));
  EXPECT_EQ(check(longer.data(), uint32_t(longer.size())), KernelStatus::BadSize);
  EscapeHeader shortCreate = escapeHeader(EscapeCode::CreateContext);
  shortCreate.size = sizeof(shortCreate);
  EXPECT_EQ(check(&shortCreate, sizeof(shortCreate)), KernelStatus::BadSize) << "a header without its body";

  NotifyBody unknown = body;
  unknown.header.code = 77;
  EXPECT_EQ(check(&unknown, sizeof(unknown)), KernelStatus::UnknownCode);
  unknown.header.code = 0;
  EXPECT_EQ(check(&unknown, sizeof(unknown)), KernelStatus::UnknownCode);
}

}  // namespace
}  // namespace triton::kernel
