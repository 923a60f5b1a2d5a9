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
  EXPECT_EQ(check_hello(hello, &kToken, 0, 4), ConnectError::BadVersion);
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
