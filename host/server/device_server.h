// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "device_host.h"
#include "server_config.h"

#if !defined(_WIN32)
#include <memory>

#include "ivshmem_server_linux.h"
#endif

// neptune-server --vm-shm PATH --size N: serves a shared-memory device (device_host.h).
// Natively each context's worker is forked; in neptune-server.exe (also under Wine, where
// PATH is reached through Z:) it is `neptune-server.exe --worker --device ...`.
namespace npt::server {

class DeviceServer final : public DeviceHost {
public:
  explicit DeviceServer(const ServerConfig& config) : DeviceHost(config) {}
  ~DeviceServer() override;
  // Creates (or reuses) and maps the backing file and lays the device out.
  bool start();
  // Serves until SIGTERM/SIGINT (natively) or the process ends.
  int run();

protected:
  bool launch_worker(const WorkerSpec& spec, uint32_t* pid, std::string* error) override;
  void request_quit(uint32_t slot) override;
  void terminate_worker(uint32_t slot) override;
  bool worker_ended(uint32_t slot, bool* clean) override;
  DeviceWorkerWords* worker_words(uint32_t slot) override;

private:
  struct Worker {
    bool running = false;
    bool ended = false;
    bool clean = false;
    uint32_t pid = 0;
    DeviceWorkerWords* words = nullptr;
    void* process = nullptr;            // Windows: the process handle
    void* quit = nullptr;               // Windows: the quit event
    void* supervision_mapping = nullptr;// Windows
  };
  void release_worker(Worker& w);

  std::vector<Worker> m_workers;
  int m_signal_fd = -1;
#if !defined(_WIN32)
  std::unique_ptr<IvshmemServer> m_ivshmem;   // --ivshmem-socket
#endif
  void* m_file = nullptr;           // Windows: the backing file
  void* m_section = nullptr;        // Windows: its section (inherited by workers)
  void* m_chunk_section = nullptr;  // Windows: the chunk owners (inherited by workers)
  void* m_job = nullptr;            // Windows: workers die with the server
  std::string m_section_name;       // Windows: the device section's name (workers open it)
  std::string m_exe;
};

#if defined(_WIN32)
// main() of `neptune-server.exe --worker --device ...` (worker_process_win32.cpp hands over).
int device_worker_main(int argc, char** argv);
#endif

}
