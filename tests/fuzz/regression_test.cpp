// SPDX-License-Identifier: MIT
// Every input a fuzzer once crashed on (tests/fuzz/regressions/<target>/) goes through
// the same entry point again and must end in a clean, stable rejection. Plain gcc, no
// sanitizers: the fix is what the assertions check, the fuzzers check the rest.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "harness.h"

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> crashers(const char* target, const char* root = NPT_FUZZ_REGRESSIONS) {
  std::vector<fs::path> files;
  const fs::path dir = fs::path(root) / target;
  if (fs::is_directory(dir))
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.is_regular_file() && entry.path().filename() != "README.md")
        files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<uint8_t> readFile(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), {});
}

// expectRejected: the input is hostile by construction (it made the host misbehave),
// so the fixed code must refuse it with a stable code.
// The harness itself reports codes outside the stable set as broken.
// repeat: inputs whose failure needed a race (the registry's second writer thread) run
// several times, so that the old code fails the test with some certainty.
void replay(const char* target, npt::fuzz::Outcome (*run)(const uint8_t*, size_t), bool expectRejected,
            int repeat = 1) {
  const auto files = crashers(target);
  if (files.empty())
    GTEST_SKIP() << "no saved crashers for " << target;
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    const std::vector<uint8_t> bytes = readFile(path);
    npt::fuzz::Outcome outcome;
    for (int i = 0; i < repeat && outcome.broken.empty(); i++) outcome = run(bytes.data(), bytes.size());
    EXPECT_EQ(outcome.broken, "");
    if (expectRejected) {
      EXPECT_FALSE(outcome.accepted);
      EXPECT_NE(outcome.code, 0u);
    }
  }
}

}  // namespace

TEST(FuzzRegressions, Dxbc) { replay("dxbc", npt::fuzz::runDxbc, false); }
TEST(FuzzRegressions, Transport) { replay("transport", npt::fuzz::runTransport, true); }
TEST(FuzzRegressions, Protocol) { replay("protocol", npt::fuzz::runProtocol, true); }
TEST(FuzzRegressions, HostInfo) { replay("hostinfo", npt::fuzz::runHostInfo, true); }
TEST(FuzzRegressions, Executor) { replay("executor", npt::fuzz::runExecutor, false); }
TEST(FuzzRegressions, Registry) { replay("registry", npt::fuzz::runRegistry, false, 100); }

// The samples' real streams (tests/fuzz/capture_seeds): what a well-behaved guest sends
// must pass the whole host path on the recording backend without a finding.
TEST(FuzzSeeds, SampleStreamsGoThroughTheExecutorCleanly) {
  const auto files = crashers("executor", NPT_FUZZ_SEEDS);
  if (files.empty()) GTEST_SKIP() << "no captured sample streams";
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    const std::vector<uint8_t> bytes = readFile(path);
    const npt::fuzz::Outcome outcome = npt::fuzz::runExecutor(bytes.data(), bytes.size());
    EXPECT_EQ(outcome.broken, "");
    EXPECT_TRUE(outcome.accepted) << "code " << outcome.code;
  }
}
