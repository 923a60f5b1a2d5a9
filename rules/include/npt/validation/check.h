// SPDX-License-Identifier: MIT
#pragma once

// The result of one validation rule: what the call does (as Windows' runtime would
// make it behave), a stable code and a debug message.

#include <cstdint>
#include <string>

#include "npt/d3d11_api.h"
#include "npt/validation/rules.h"

namespace npt::validation {

enum class Outcome : uint8_t {
  Pass,    // the call may reach the backend
  Fail,    // the method returns hr (E_INVALIDARG...) and nothing reaches the backend
  Ignore,  // a void method: Windows drops the call (debug layer message only)
  Fatal,   // a protocol violation no real runtime could produce: the context dies
};

const char* outcomeName(Outcome outcome);

class Check {
public:
  Check() = default;

  static Check pass() { return Check(); }
  // Outcome and HRESULT come from the rule's entry in rules.h.
  static Check reject(Rule rule, const char* format, ...) __attribute__((format(gnu_printf, 2, 3)));

  bool passed() const { return m_outcome == Outcome::Pass; }
  explicit operator bool() const { return passed(); }

  Outcome outcome() const { return m_outcome; }
  Rule rule() const { return m_rule; }
  uint32_t code() const { return static_cast<uint32_t>(m_rule); }
  HRESULT hr() const { return m_hr; }
  const std::string& message() const { return m_message; }

  // "E4012 ViewMipRange: ..." - what the host log prints.
  std::string describe() const;

private:
  Outcome m_outcome = Outcome::Pass;
  Rule m_rule = Rule::Ok;
  HRESULT m_hr = S_OK;
  std::string m_message;
};

// Propagates the first failing check.
#define NPT_CHECK(expr)                 \
  do {                                  \
    ::npt::validation::Check c_ = (expr); \
    if (!c_.passed()) return c_;        \
  } while (0)

}  // namespace npt::validation
