// SPDX-License-Identifier: MIT
// (d) The host-info parser the guest runs on the QueryHostInfo reply: the bytes
// come from the host, which the guest does not trust either.

#include <string>
#include <vector>

#include "harness.h"
#include "npt/protocol/host_info.h"

namespace npt::fuzz {

using namespace npt::protocol;

Outcome runHostInfo(const uint8_t* data, size_t size) {
  Outcome out;
  // Exactly `size` bytes on the heap, so ASan sees a read one past the end.
  std::vector<uint8_t> blob(data, data + size);
  HostInfo info;
  info.creationFlags = 0xa5a5a5a5u;
  ErrorCode code = parseHostInfo(blob.data(), blob.size(), &info);
  out.code = uint32_t(code);
  out.accepted = code == ErrorCode::Ok;
  if (std::string(errorName(code)) == "unknown-error") {
    out.broken = "error code outside the stable codes: " + std::to_string(out.code);
  } else if (!out.accepted && info.creationFlags != 0xa5a5a5a5u) {
    out.broken = "a refused blob changed the result";
  } else if (out.accepted) {
    // Accepted blobs are canonical: serializing the result gives the same bytes.
    std::vector<uint8_t> again;
    if (serializeHostInfo(info, again) != ErrorCode::Ok)
      out.broken = "an accepted blob does not serialize";
    else if (again != blob)
      out.broken = "an accepted blob does not serialize to itself";
  }
  return out;
}

}  // namespace npt::fuzz
