// SPDX-License-Identifier: MIT
#include "npt/validation/check.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

namespace npt::validation {

namespace {

struct RuleEntry {
  Rule rule;
  const char* name;
  Outcome outcome;
};

constexpr RuleEntry kRules[] = {
#define NPT_RULE_ENTRY(name, code, outcome) {Rule::name, #name, Outcome::outcome},
  NPT_VALIDATION_RULES(NPT_RULE_ENTRY)
#undef NPT_RULE_ENTRY
};

const RuleEntry* findRule(Rule rule) {
  for (const RuleEntry& entry : kRules) {
    if (entry.rule == rule) return &entry;
  }
  return nullptr;
}

}  // namespace

const char* outcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::Pass: return "pass";
    case Outcome::Fail: return "fail";
    case Outcome::Ignore: return "ignore";
    case Outcome::Fatal: return "fatal";
  }
  return "?";
}

const char* ruleName(Rule rule) {
  const RuleEntry* entry = findRule(rule);
  return entry ? entry->name : "UnknownRule";
}

Check Check::reject(Rule rule, const char* format, ...) {
  Check check;
  const RuleEntry* entry = findRule(rule);
  check.m_rule = rule;
  check.m_outcome = entry ? entry->outcome : Outcome::Fatal;
  // A rule always rejects; a PASS rule used here is a programming error, treat as fatal.
  if (check.m_outcome == Outcome::Pass) check.m_outcome = Outcome::Fatal;
  check.m_hr = check.m_outcome == Outcome::Fail ? E_INVALIDARG
             : check.m_outcome == Outcome::Fatal ? DXGI_ERROR_DEVICE_REMOVED
             : S_OK;

  char buffer[512];
  va_list args;
  va_start(args, format);
  int length = std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  if (length > 0) check.m_message.assign(buffer, std::min<size_t>(size_t(length), sizeof(buffer) - 1));
  return check;
}

std::string Check::describe() const {
  char prefix[96];
  std::snprintf(prefix, sizeof(prefix), "E%u %s (%s): ", code(), ruleName(m_rule),
                outcomeName(m_outcome));
  return prefix + m_message;
}

}  // namespace npt::validation
