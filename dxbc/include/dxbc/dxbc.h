// SPDX-License-Identifier: MIT
#pragma once

// Umbrella header of the dxbc library.

#include "dxbc/checksum.h"
#include "dxbc/container.h"
#include "dxbc/ddi_signature.h"
#include "dxbc/fourcc.h"
#include "dxbc/interfaces.h"
#include "dxbc/linkage.h"
#include "dxbc/rebuild.h"
#include "dxbc/shader_code.h"
#include "dxbc/signature.h"
#include "dxbc/status.h"
#include "dxbc/token_scanner.h"
#include "dxbc/tokens.h"
#include "dxbc/ddi_strip.h"
