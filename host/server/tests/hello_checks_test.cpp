// SPDX-License-Identifier: MIT
// The handshake checks both servers run before allocating anything for a guest.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "hello_checks.h"

namespace {

using npt::server::check_hello;
using npt::transport::ConnectError;
using npt::transport::Hello;

const std::string kToken = "0123456789abcdef0123456789abcdef";

Hello valid_hello(const std::string& token = kToken) {
  Hello hello = {};
  hello.magic = npt::transport::kHelloMagic;
  hello.version = npt::transport::kVersion;
  hello.min_version = npt::transport::kMinVersion;
  std::memcpy(hello.token, token.data(), std::min(token.size(), sizeof(hello.token)));
  return hello;
}

TEST(HelloChecks, AcceptsAWellFormedHelloWithTheRightToken) {
  EXPECT_FALSE(check_hello(valid_hello(), &kToken, 0, 4));
  EXPECT_FALSE(check_hello(valid_hello(), &kToken, 3, 4));
}

TEST(HelloChecks, RefusesWrongMagicAndVersionFirst) {
  Hello hello = valid_hello();
  hello.magic ^= 1;
  EXPECT_EQ(check_hello(hello, &kToken, 0, 4), ConnectError::BadMagic);
  hello = valid_hello();
  hello.version += 1;
  hello.min_version = hello.version;
  EXPECT_EQ(check_hello(hello, &kToken, 0, 4), ConnectError::BadVersion);
  hello.token[0] ^= 1;
  EXPECT_EQ(check_hello(hello, &kToken, 0, 4), ConnectError::BadVersion) << "before the token";
}

using npt::transport::kMinVersion;
using npt::transport::kVersion;
using npt::transport::negotiate_version;

Hello speaking(uint32_t min_version, uint32_t version) {
  Hello hello = valid_hello();
  hello.min_version = min_version;
  hello.version = version;
  return hello;
}

TEST(HelloChecks, ChoosesTheNewestVersionBothSpeak) {
  EXPECT_EQ(negotiate_version(speaking(kMinVersion, kVersion)), kVersion);
  EXPECT_EQ(negotiate_version(speaking(kMinVersion, kVersion + 5)), kVersion) << "a newer guest that can step down";
  EXPECT_EQ(negotiate_version(speaking(kVersion + 1, kVersion + 5)), 0u) << "a guest too new for this server";
  EXPECT_EQ(negotiate_version(speaking(0, kMinVersion - 1)), 0u) << "a version-2 guest (no min_version)";
  EXPECT_EQ(negotiate_version(speaking(0, kVersion)), kVersion) << "min_version 0 means exactly `version`";
  EXPECT_EQ(negotiate_version(speaking(kVersion + 1, kVersion)), 0u) << "an empty range";
  EXPECT_EQ(check_hello(speaking(0, 2), &kToken, 0, 4), ConnectError::BadVersion);
  EXPECT_FALSE(check_hello(speaking(kMinVersion, kVersion + 5), &kToken, 0, 4));
}

TEST(HelloChecks, VersionRefusalsSayWhatEachSideSpeaks) {
  std::string text = npt::server::hello_refusal_message(speaking(0, 2), ConnectError::BadVersion);
  EXPECT_NE(text.find("versions 2..2"), std::string::npos) << text;
  EXPECT_NE(text.find("this server " + std::to_string(kMinVersion) + ".." + std::to_string(kVersion)),
            std::string::npos) << text;
}

TEST(HelloChecks, UnknownOffersAreNotGrantedAndUnknownRequirementsRefused) {
  using namespace npt::transport;
  Hello hello = valid_hello();
  hello.flags = kHelloSocketWake | kHelloEventWake | (1u << 9) | (1u << 15);
  EXPECT_FALSE(check_hello(hello, &kToken, 0, 4)) << "an unknown offer is no reason to refuse";
  EXPECT_EQ(granted_offers(hello, kHelloSocketWake | kHelloEventWake | kHelloFdPassing),
            uint32_t(kHelloSocketWake | kHelloEventWake));
  EXPECT_EQ(granted_offers(hello, kHelloSocketWake), uint32_t(kHelloSocketWake)) << "only what this server supports";
  EXPECT_EQ(granted_offers(hello, ~0u), uint32_t(kHelloSocketWake | kHelloEventWake)) << "never an unknown bit";

  for (uint32_t bit = 16; bit < 32; bit++) {
    hello.flags = kHelloSocketWake | (1u << bit);
    EXPECT_EQ(check_hello(hello, &kToken, 0, 4), ConnectError::UnsupportedFeature) << bit;
  }
  hello.flags = 1u << 20;
  std::string text = npt::server::hello_refusal_message(hello, ConnectError::UnsupportedFeature);
  EXPECT_NE(text.find("0x00100000"), std::string::npos) << text;
}

TEST(HelloChecks, AGuestOfAnotherProtocolRegistryIsRefusedWithBothNamed) {
  using namespace npt::transport;
  ProtocolIdentity server;
  server.major = 1;
  server.minor = 2;
  server.opcode_count = 185;
  server.registry_hash = 0x0123456789abcdefull;
  Hello hello = valid_hello();
  hello.protocol_major = 1;
  hello.protocol_minor = 2;
  hello.opcode_count = 185;
  hello.registry_hash = server.registry_hash;
  EXPECT_FALSE(check_hello(hello, &kToken, 0, 4, &server)) << "the same protocol";
  EXPECT_FALSE(check_hello(hello, &kToken, 0, 4, nullptr)) << "a server that decodes no protocol";

  hello.registry_hash ^= 1;
  hello.opcode_count = 190;
  EXPECT_EQ(check_hello(hello, &kToken, 0, 4, &server), ConnectError::ProtocolMismatch);
  EXPECT_FALSE(check_hello(hello, &kToken, 0, 4, nullptr));
  std::string text = npt::server::hello_refusal_message(hello, ConnectError::ProtocolMismatch, &server);
  EXPECT_NE(text.find("protocol 1.2, registry 0123456789abcdee (190 opcodes)"), std::string::npos) << text;
  EXPECT_NE(text.find("this server from 1.2, registry 0123456789abcdef (185 opcodes)"), std::string::npos) << text;

  hello.registry_hash = server.registry_hash;
  hello.protocol_major = 2;
  EXPECT_EQ(check_hello(hello, &kToken, 0, 4, &server), ConnectError::ProtocolMismatch) << "another major";

  Hello silent = valid_hello();   // announces no protocol: transport tests and tools
  EXPECT_FALSE(check_hello(silent, &kToken, 0, 4, &server));
  silent.token[0] ^= 1;
  EXPECT_EQ(check_hello(silent, &kToken, 0, 4, &server), ConnectError::BadToken) << "the token first";
}

TEST(HelloChecks, RefusesAnyTokenThatIsNotExactlyTheServers) {
  std::string wrong = kToken;
  wrong.back() ^= 1;
  EXPECT_EQ(check_hello(valid_hello(wrong), &kToken, 0, 4), ConnectError::BadToken);
  EXPECT_EQ(check_hello(valid_hello(kToken.substr(0, 31)), &kToken, 0, 4), ConnectError::BadToken);
  EXPECT_EQ(check_hello(valid_hello(kToken + "0"), &kToken, 0, 4), ConnectError::BadToken);
  EXPECT_EQ(check_hello(valid_hello(""), &kToken, 0, 4), ConnectError::BadToken);
  // 64 bytes with no terminator must not be read past.
  EXPECT_EQ(check_hello(valid_hello(std::string(64, 'x')), &kToken, 0, 4), ConnectError::BadToken);
}

TEST(HelloChecks, NeedsNoTokenWhereTheConnectionHasNone) {
  EXPECT_FALSE(check_hello(valid_hello("anything"), nullptr, 0, 4));
}

TEST(HelloChecks, RefusesPastTheContextLimit) {
  EXPECT_EQ(check_hello(valid_hello(), &kToken, 4, 4), ConnectError::TooManyContexts);
  EXPECT_EQ(check_hello(valid_hello(), nullptr, 0, 0), ConnectError::TooManyContexts);
}

}  // namespace
