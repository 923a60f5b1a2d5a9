// SPDX-License-Identifier: MIT
#pragma once

// The server address NPT_SERVER names, as the transport's connect() expects it: a Unix
// path reaches a Linux server's files through Wine's Z: drive, and a PE guest connects
// through the server's "<path>.tcp" rendezvous file. Header only: Triton's fake kernel
// (triton/kernel/fake_kernel_dll.cpp) finds the server by the same rule without linking
// the guest runtime.

#include <string>

namespace npt::guest {

inline std::string serverRendezvousPath(const char* npt_server) {
  std::string path = npt_server ? npt_server : "";
  if (!path.empty() && path[0] == '/')
    path = "Z:" + path;
  for (char& c : path)
    if (c == '/')
      c = '\\';
  const std::string suffix = ".tcp";
  if (path.size() < suffix.size() || path.compare(path.size() - suffix.size(), suffix.size(), suffix) != 0)
    path += suffix;
  return path;
}

}  // namespace npt::guest
