// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>

namespace npt::samples {

  // Row-major 4x4 matrix for row vectors (v * M), matching `row_major float4x4`
  // in the HLSL. Just enough for the samples' cameras.
  struct Mat4 {
    float m[4][4];

    static Mat4 identity() {
      return {{ { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 }, { 0, 0, 0, 1 } }};
    }

    static Mat4 translation(float x, float y, float z) {
      Mat4 r = identity();
      r.m[3][0] = x; r.m[3][1] = y; r.m[3][2] = z;
      return r;
    }

    static Mat4 scale(float x, float y, float z) {
      Mat4 r = identity();
      r.m[0][0] = x; r.m[1][1] = y; r.m[2][2] = z;
      return r;
    }

    static Mat4 rotationX(float a) {
      Mat4 r = identity();
      float c = std::cos(a), s = std::sin(a);
      r.m[1][1] = c; r.m[1][2] = s; r.m[2][1] = -s; r.m[2][2] = c;
      return r;
    }

    static Mat4 rotationY(float a) {
      Mat4 r = identity();
      float c = std::cos(a), s = std::sin(a);
      r.m[0][0] = c; r.m[0][2] = -s; r.m[2][0] = s; r.m[2][2] = c;
      return r;
    }

    // Left-handed perspective, depth 0..1 (D3DXMatrixPerspectiveFovLH).
    static Mat4 perspective(float fovY, float aspect, float zn, float zf) {
      float yScale = 1.0f / std::tan(fovY * 0.5f);
      Mat4 r = {};
      r.m[0][0] = yScale / aspect;
      r.m[1][1] = yScale;
      r.m[2][2] = zf / (zf - zn);
      r.m[2][3] = 1.0f;
      r.m[3][2] = -zn * zf / (zf - zn);
      return r;
    }

    Mat4 operator*(const Mat4& o) const {
      Mat4 r = {};
      for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
          for (int k = 0; k < 4; k++)
            r.m[i][j] += m[i][k] * o.m[k][j];
      return r;
    }
  };

}
