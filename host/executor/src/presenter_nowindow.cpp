// SPDX-License-Identifier: MIT
// NPT_PRESENT=window in a native build without SDL2: the presenter says so once and
// presents headless.
#include "presenter_window.h"

namespace npt::executor {

std::unique_ptr<PresentWindow> openPresentWindow(int, std::string* why) {
  *why = "this server was built without SDL2 (libsdl2-dev)";
  return nullptr;
}

}  // namespace npt::executor
