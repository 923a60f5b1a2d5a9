// SPDX-License-Identifier: MIT
#pragma once

// The format fact the runtime needs: the block edge of compressed formats (mip lists'
// physical sizes).

#include <dxgiformat.h>
#include <windows.h>

namespace triton::runtime {

UINT blockSize(DXGI_FORMAT format);      // 4 for BC formats, else 1

}  // namespace triton::runtime
