// SPDX-License-Identifier: MIT
// Rebuild time per shader (tokens + DDI entries → complete container with signatures
// and checksum) against a memcpy of the rebuilt container's bytes in the same run.
//
//   build/dxbc-native/bench/dxbc/dxbc_bench [--benchmark_filter=...]
//
// "Typical" is the corpus shader of median token-stream size; "Corpus" cycles through
// every shader of ../shared/corpus/dxbc (per-iteration time = mean per shader).

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "dxbc/dxbc.h"

namespace {

struct Sample {
  std::string name;
  dxbc::DdiShader ddi;
  size_t rebuiltSize = 0;
};

std::vector<Sample> loadCorpus() {
  std::vector<Sample> samples;
  std::error_code error;
  if (!std::filesystem::is_directory(DXBC_CORPUS_DIR, error))
    return samples;
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(DXBC_CORPUS_DIR, error))
    if (entry.path().extension() == ".dxbc")
      paths.push_back(entry.path().string());
  std::sort(paths.begin(), paths.end());
  for (const std::string& path : paths) {
    std::ifstream file(path, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    dxbc::ContainerReader container;
    Sample sample;
    sample.name = std::filesystem::path(path).stem().string();
    if (!dxbc::ContainerReader::parse(bytes, container).ok() ||
        !dxbc::stripContainer(container, dxbc::DdiStride::D3D11_1, sample.ddi).ok())
      continue;
    std::vector<uint8_t> out;
    if (!dxbc::rebuildContainer(sample.ddi.tokens, sample.ddi.view(), out).ok())
      continue;
    sample.rebuiltSize = out.size();
    samples.push_back(std::move(sample));
  }
  return samples;
}

const std::vector<Sample>& corpus() {
  static const std::vector<Sample> samples = loadCorpus();
  return samples;
}

// Sample at a quantile of token-stream size (0.5: typical, 1.0: largest).
const Sample* atQuantile(double quantile) {
  const auto& all = corpus();
  if (all.empty())
    return nullptr;
  std::vector<const Sample*> sorted;
  for (const Sample& s : all)
    sorted.push_back(&s);
  std::sort(sorted.begin(), sorted.end(), [](const Sample* a, const Sample* b) {
    return a->ddi.tokens.size() < b->ddi.tokens.size();
  });
  return sorted[std::min(sorted.size() - 1, size_t(double(sorted.size()) * quantile))];
}

void BM_Rebuild(benchmark::State& state, double quantile) {
  const Sample* sample = atQuantile(quantile);
  if (!sample) {
    state.SkipWithError("corpus not found");
    return;
  }
  std::vector<uint8_t> out;
  for (auto _ : state) {
    dxbc::Status status = dxbc::rebuildContainer(sample->ddi.tokens, sample->ddi.view(), out);
    benchmark::DoNotOptimize(status);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetLabel(sample->name + " (" + std::to_string(sample->ddi.tokens.size()) + " token bytes, " +
                 std::to_string(sample->rebuiltSize) + " container bytes)");
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(sample->rebuiltSize));
}

void BM_Memcpy(benchmark::State& state, double quantile) {
  const Sample* sample = atQuantile(quantile);
  if (!sample) {
    state.SkipWithError("corpus not found");
    return;
  }
  std::vector<uint8_t> source(sample->rebuiltSize, 0x5a), out;
  for (auto _ : state) {
    // Same allocation pattern as the rebuild (a fresh output vector per shader).
    out.assign(source.size(), 0);
    std::memcpy(out.data(), source.data(), source.size());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(source.size()));
}

void BM_RebuildCorpus(benchmark::State& state) {
  const auto& all = corpus();
  if (all.empty()) {
    state.SkipWithError("corpus not found");
    return;
  }
  std::vector<uint8_t> out;
  size_t i = 0, bytes = 0;
  for (auto _ : state) {
    const Sample& sample = all[i++ % all.size()];
    dxbc::Status status = dxbc::rebuildContainer(sample.ddi.tokens, sample.ddi.view(), out);
    benchmark::DoNotOptimize(status);
    bytes += sample.rebuiltSize;
  }
  state.SetBytesProcessed(int64_t(bytes));
  state.SetLabel(std::to_string(all.size()) + " shaders");
}

void BM_MemcpyCorpus(benchmark::State& state) {
  const auto& all = corpus();
  if (all.empty()) {
    state.SkipWithError("corpus not found");
    return;
  }
  std::vector<std::vector<uint8_t>> sources;
  for (const Sample& s : all)
    sources.emplace_back(s.rebuiltSize, 0x5a);
  std::vector<uint8_t> out;
  size_t i = 0, bytes = 0;
  for (auto _ : state) {
    const std::vector<uint8_t>& source = sources[i++ % sources.size()];
    out.assign(source.size(), 0);
    std::memcpy(out.data(), source.data(), source.size());
    benchmark::DoNotOptimize(out.data());
    bytes += source.size();
  }
  state.SetBytesProcessed(int64_t(bytes));
}

BENCHMARK_CAPTURE(BM_Rebuild, Typical, 0.5);
BENCHMARK_CAPTURE(BM_Memcpy, Typical, 0.5);
BENCHMARK_CAPTURE(BM_Rebuild, Largest, 1.0);
BENCHMARK_CAPTURE(BM_Memcpy, Largest, 1.0);
BENCHMARK(BM_RebuildCorpus);
BENCHMARK(BM_MemcpyCorpus);

}  // namespace

BENCHMARK_MAIN();
