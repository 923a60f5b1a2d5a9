// SPDX-License-Identifier: MIT
#pragma once

// Format facts the runtime needs: the block edge of compressed formats (mip lists'
// physical sizes) and the size of vertex elements (D3D11_APPEND_ALIGNED_ELEMENT).

#include <dxgiformat.h>
#include <windows.h>

namespace triton::runtime {

UINT blockSize(DXGI_FORMAT format);      // 4 for BC formats, else 1
UINT elementBytes(DXGI_FORMAT format);   // bytes per element; 0 if unknown

}  // namespace triton::runtime
