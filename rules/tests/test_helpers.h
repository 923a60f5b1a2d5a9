// SPDX-License-Identifier: MIT
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <ostream>
#include <string>

#include "npt/validation/check.h"

namespace npt::validation::test {

// A data-driven case: a mutation of a valid call and what Windows does with it.
template <typename Desc>
struct Case {
  std::string name;
  std::function<void(Desc&)> mutate;
  Rule rule;             // Rule::Ok: the call must pass
  Outcome outcome;       // expected outcome (Pass / Fail / Ignore / Fatal)
};

template <typename Desc>
std::string caseName(const ::testing::TestParamInfo<Case<Desc>>& info) {
  return info.param.name;
}

inline ::testing::AssertionResult hasResult(const Check& check, Rule rule, Outcome outcome) {
  if (check.rule() != rule || check.outcome() != outcome)
    return ::testing::AssertionFailure() << "expected " << ruleName(rule) << "/" << outcomeName(outcome) << ", got "
                                         << (check.passed() ? std::string("pass") : check.describe());
  if (!check.passed() && check.message().empty())
    return ::testing::AssertionFailure() << "rejection without a debug message";
  if (outcome == Outcome::Fail && check.hr() != E_INVALIDARG)
    return ::testing::AssertionFailure() << "Fail outcome must return E_INVALIDARG";
  return ::testing::AssertionSuccess();
}

#define EXPECT_PASS(expr)                                                              \
  do {                                                                                 \
    ::npt::validation::Check c_ = (expr);                                              \
    EXPECT_TRUE(c_.passed()) << c_.describe();                                         \
  } while (0)

#define EXPECT_REJECT(expr, rule_, outcome_)                                           \
  EXPECT_TRUE(::npt::validation::test::hasResult((expr), ::npt::validation::Rule::rule_, \
                                                 ::npt::validation::Outcome::outcome_))

}  // namespace npt::validation::test
