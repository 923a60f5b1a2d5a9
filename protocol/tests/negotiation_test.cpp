// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include "npt/protocol/negotiation.h"

using namespace npt::protocol;

TEST(Negotiation, HelloRoundTrips) {
  Capabilities caps = Capabilities::all();
  caps.set(Iface_ID3D11Device5, false);
  uint8_t buf[256];
  CommandWriter w(buf, sizeof buf);
  ASSERT_TRUE(encodeHello(w, caps));
  Capabilities got;
  ASSERT_EQ(decodeHello(buf, w.size(), got), ErrorCode::Ok);
  EXPECT_EQ(got.interfaces, caps.interfaces);
  EXPECT_FALSE(got.supports(Iface_ID3D11Device5));
  EXPECT_TRUE(got.supports(Iface_ID3D11Device4));
}

TEST(Negotiation, OlderHostWithoutOptionalInterfacesLimitsTheGuest) {
  Capabilities guest = Capabilities::all();
  Capabilities host = Capabilities::all();
  host.set(Iface_ID3D11Device5, false);
  host.set(Iface_ID3D11DeviceContext4, false);
  host.minor = 0;
  Capabilities out;
  ASSERT_EQ(negotiate(guest, host, out), ErrorCode::Ok);
  EXPECT_FALSE(out.supports(Iface_ID3D11Device5));
  EXPECT_FALSE(out.supports(Iface_ID3D11DeviceContext4));
  EXPECT_TRUE(out.supports(Iface_ID3D11DeviceContext));
}

TEST(Negotiation, MajorMismatchIsRefused) {
  Capabilities guest = Capabilities::all(), host = Capabilities::all(), out;
  host.major = kProtocolMajor + 1;
  EXPECT_EQ(negotiate(guest, host, out), ErrorCode::VersionMismatch);
}

TEST(Negotiation, TruncatedHelloIsRejectedAtEveryLength) {
  uint8_t buf[256];
  CommandWriter w(buf, sizeof buf);
  ASSERT_TRUE(encodeHello(w, Capabilities::all()));
  for (size_t n = 0; n < w.size(); n++) {
    Capabilities got;
    EXPECT_NE(decodeHello(buf, n, got), ErrorCode::Ok) << n;
  }
}
