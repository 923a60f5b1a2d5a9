// SPDX-License-Identifier: MIT
#pragma once

// The catalogue of invalid calls (d3d11_invalid_*_test.cpp): one table row per call, run
// against Wine's d3d11 and through Neptune by the same program (d3d11_test_env.h). A row
// says the HRESULT Windows answers; the runner checks that nothing was created (the out
// pointer is NULL), that no device reference leaked, and, for calls without a result,
// what the row reads back afterwards.
//
// Rows whose Windows answer is documented but that Wine 8's d3d11 does not give (it accepts
// the call) are marked kDocumentedOnly and run through Neptune only: encoding Wine's answer
// would encode its bug.
#include <gtest/gtest.h>

#include <d3dcompiler.h>

#include <cstring>
#include <string>
#include <vector>

#include "d3d11_test_env.h"

namespace npt::test::catalogue {

enum Oracle : bool { kWineAgrees = true, kDocumentedOnly = false };

// What a row may use: one device for the whole catalogue (the runner resets the context
// between rows), shader bytecode compiled once.
struct Env {
  ID3D11Device* device = nullptr;
  ID3D11DeviceContext* context = nullptr;
  ID3DBlob* vertexShader = nullptr;   // float4 POSITION, float2 TEXCOORD -> SV_Position
  ID3DBlob* pixelShader = nullptr;

  static Env& get();

  // Creation helpers: S_OK expected (an ASSERT in the row's caller would hide the row's
  // own answer, so these return null on failure and the row fails on its comparison).
  ID3D11Texture2D* texture2D(UINT width, UINT height, DXGI_FORMAT format, UINT bind, UINT mips = 1, UINT arraySize = 1,
                             D3D11_USAGE usage = D3D11_USAGE_DEFAULT, UINT cpu = 0, UINT misc = 0);
  ID3D11Buffer* buffer(UINT size, UINT bind, UINT misc = 0, UINT stride = 0, D3D11_USAGE usage = D3D11_USAGE_DEFAULT,
                       UINT cpu = 0, const void* data = nullptr);
  // The bytes of a buffer, read through a STAGING copy.
  std::vector<uint8_t> readBuffer(ID3D11Buffer* buffer, UINT size);
};

struct Row {
  const char* name;
  HRESULT expected;
  Oracle oracle;
  // Makes the call; `created` receives whatever its out pointer got. Rows of void methods
  // return what they read back as S_OK or E_FAIL (state changed) instead.
  HRESULT (*call)(Env& env, IUnknown** created);
};

// Runs a table: one gtest per row.
class RowTest : public ::testing::TestWithParam<Row> {
protected:
  void run();
};

inline std::string rowName(const ::testing::TestParamInfo<Row>& info) { return info.param.name; }

template<typename Interface>
HRESULT into(HRESULT hr, Interface* object, IUnknown** created) {
  *created = object;
  return hr;
}

}  // namespace npt::test::catalogue
