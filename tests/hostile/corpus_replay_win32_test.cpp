// SPDX-License-Identifier: MIT
// Inputs of the executor fuzz target (tests/fuzz: raw command streams from device
// creation, bulk region 0 zero-filled) replayed through neptune-server.exe on a real
// backend (wined3d under Wine), each on a connection of its own, beside a witness context
// that clears a render target and reads it back after every input. The fuzzer checks
// them against the recording backend's idea of a driver; this asks what a real one does
// with what validation let through. Each input ends one of three ways:
//   accepted  the context lives on;
//   refused   the context was ended by the decoder or the executor (DispatchFailed);
//   mishandled  anything else: the worker died (the backend crashed), hung, or the
//             server or the witness went wrong. Every one is reported by name.
// NPT_REPLAY_DIRS: directories of inputs, separated by ';' (meson passes the executor
// seeds and regressions; scripts/fuzz's grown corpus is build/fuzz-corpus/executor).
// NPT_REPLAY_LIMIT: replay at most this many inputs (in name order).
#include <gtest/gtest.h>
#include <windows.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "neptune/transport/status.h"
#include "wire_guest_win32.h"

namespace npt::hostile {
namespace {

std::vector<std::string> inputFiles() {
  std::vector<std::string> files;
  const char* dirs = std::getenv("NPT_REPLAY_DIRS");
  std::string list = dirs ? dirs : "";
  for (size_t start = 0; start < list.size();) {
    size_t end = list.find(';', start);
    if (end == std::string::npos) end = list.size();
    const std::string dir = list.substr(start, end - start);
    start = end + 1;
    if (dir.empty()) continue;
    WIN32_FIND_DATAA found;
    HANDLE search = FindFirstFileA((dir + "\\*").c_str(), &found);
    if (search == INVALID_HANDLE_VALUE) continue;
    do {
      if (!(found.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)) files.push_back(dir + "\\" + found.cFileName);
    } while (FindNextFileA(search, &found));
    FindClose(search);
  }
  std::sort(files.begin(), files.end());
  if (const char* limit = std::getenv("NPT_REPLAY_LIMIT"))
    files.resize(std::min(files.size(), size_t(std::strtoul(limit, nullptr, 0))));
  return files;
}

std::vector<uint8_t> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string baseName(const std::string& path) {
  const size_t slash = path.find_last_of("\\/");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

TEST(CorpusThroughWin32Server, EveryInputIsAcceptedOrRefusedBesideALiveWitness) {
  if (!std::getenv("NPT_SERVER_BIN")) GTEST_SKIP() << "NPT_SERVER_BIN not set";
  const std::vector<std::string> files = inputFiles();
  ASSERT_FALSE(files.empty()) << "no inputs in NPT_REPLAY_DIRS";
  // A backend that hangs on an input is found by the watchdog, in a time a test can wait.
  Win32ServerProcess server("--dispatch executor --watchdog-ms 10000");
  ASSERT_TRUE(server.running());
  WireGuest witness(server);
  ASSERT_TRUE(witness.connected());
  writeDeviceCreation(witness.w());
  std::vector<uint8_t> reply;
  ASSERT_EQ(witness.call(reply), kOk);
  ASSERT_EQ(lastReplyResult(reply.data(), reply.size()), uint32_t(S_OK));
  ObjectId nextWitnessId = 10;

  unsigned accepted = 0, refused = 0;
  std::vector<std::string> mishandled;
  for (const std::string& file : files) {
    const std::vector<uint8_t> input = readFile(file);
    WireGuest guest(server);
    ASSERT_TRUE(guest.connected()) << baseName(file);
    Status status = input.empty() ? kOk : guest.connection().submit(0, input.data(), input.size());
    if (status == kOk) status = guest.connection().finish(0);
    const uint32_t reason = guest.connection().fatal_reason();
    if (status == kOk && guest.connection().status() == kOk) {
      accepted++;
    } else if (reason == uint32_t(transport::FatalReason::DispatchFailed)) {
      refused++;
    } else {
      mishandled.push_back(baseName(file) + ": " + transport::fatal_reason_name(transport::FatalReason(reason)));
    }
    if (!server.running()) {
      mishandled.push_back(baseName(file) + ": the server ended");
      break;
    }
    const float value = float(nextWitnessId % 2);
    const std::vector<uint8_t> pixels = clearAndReadBack(witness, nextWitnessId, value);
    nextWitnessId += 3;
    if (pixels != std::vector<uint8_t>(64, value ? 0xff : 0x00)) {
      mishandled.push_back(baseName(file) + ": the witness context read back wrong pixels");
      break;
    }
  }
  std::printf("replayed %zu inputs through neptune-server.exe on wined3d: %u accepted, %u refused by the decoder "
              "or the executor, %zu mishandled\n", files.size(), accepted, refused, mishandled.size());
  for (const std::string& line : mishandled) std::printf("  mishandled %s\n", line.c_str());
  EXPECT_TRUE(mishandled.empty());
}

}  // namespace
}  // namespace npt::hostile
