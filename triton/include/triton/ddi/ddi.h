// SPDX-License-Identifier: MIT
#pragma once

// The D3D10/10.1/11.0/11.1 user-mode display driver DDI, declared by the
// project from Microsoft's public DDI reference (d3d10umddi, d3dumddi,
// dxgiddi). Everything is in namespace triton::ddi under the WDK's names.

#include "triton/ddi/platform.h"
#include "triton/ddi/handles.h"
#include "triton/ddi/enums.h"
#include "triton/ddi/d3dumddi.h"
#include "triton/ddi/dxgiddi.h"
#include "triton/ddi/args.h"
#include "triton/ddi/functions.h"
#include "triton/ddi/tables.h"
#include "triton/ddi/device.h"
#include "triton/ddi/caps.h"
#include "triton/ddi/versions.h"
