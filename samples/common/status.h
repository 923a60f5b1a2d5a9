// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include <windows.h>

namespace npt::samples {

  // Errors are values: every setup or frame step returns one of these and the
  // runner turns them into an exit code (0 ok, 1 failure, 77 = meson's skip).
  struct Status {
    enum class Code { Ok, Skip, Fail };

    Code        code = Code::Ok;
    std::string message;

    static Status ok() { return Status(); }
    static Status skip(std::string why) { return { Code::Skip, std::move(why) }; }
    static Status fail(std::string why) { return { Code::Fail, std::move(why) }; }
    static Status hresult(const char* what, HRESULT hr);

    bool isOk() const { return code == Code::Ok; }
  };

}

// Evaluates a D3D call and returns a failing Status naming the call.
#define NPT_CHECK_HR(call)                                                  \
  do {                                                                      \
    HRESULT npt_hr_ = (call);                                               \
    if (FAILED(npt_hr_))                                                    \
      return ::npt::samples::Status::hresult(#call, npt_hr_);               \
  } while (0)

#define NPT_CHECK_STATUS(expr)                                              \
  do {                                                                      \
    ::npt::samples::Status npt_st_ = (expr);                                \
    if (!npt_st_.isOk())                                                    \
      return npt_st_;                                                       \
  } while (0)
