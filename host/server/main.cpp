// SPDX-License-Identifier: MIT
// neptune-server: the render server, one worker process per context (Linux: forked;
// Windows and Wine: neptune-server.exe started again with --worker).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#if defined(_WIN32)
#include <windows.h>
#include "device_server.h"
#include "server_win32.h"
#include "sharing_cleanup.h"
#include "worker_process_win32.h"
#else
#include <unistd.h>
#include "device_server.h"
#include "server.h"
#endif

using namespace npt::server;

static void usage() {
  std::fprintf(stderr,
    "usage: neptune-server --socket PATH [options]\n"
    "       neptune-server --vm-shm FILE --size BYTES [options]\n"
    "  --socket PATH          UNIX socket guests connect to (PE guests under Wine use PATH.tcp)\n"
    "  --vm-shm FILE          serve a shared-memory device instead (QEMU ivshmem's backing file,\n"
    "                         e.g. /dev/shm/neptune-vm0; created if missing, never shrunk)\n"
    "  --size BYTES           the device's size (512M, 1G, ...; a multiple of 64 KiB)\n"
    "  --lease-ms N           a device slot whose guest renews no lease for N ms loses its\n"
    "                         context (default 1000)\n"
    "  --ivshmem-socket PATH  speak QEMU's ivshmem server protocol on PATH for\n"
    "                         -device ivshmem-doorbell (guests ring instead of being polled;\n"
    "                         native server only)\n"
    "  --no-tcp               no loopback TCP listener for PE guests\n"
    "  --dispatch executor|null|diag\n"
    "                         executor (default): decode, validate, run on the D3D11 backend\n"
    "                         (NPT_BACKEND); null/diag: transport tests and benchmarks\n"
    "  --max-contexts N       contexts (worker processes) at once\n"
    "  --max-memory BYTES     what all contexts together may make the host allocate (6G, 512M,\n"
    "                         ...; default: the host's physical memory). Each context reserves\n"
    "                         its shared memory, bulk limit and resource memory limit at connect;\n"
    "                         a guest whose reservation does not fit is refused\n"
    "  --worker-memory BYTES  a worker's own memory, counted in each reservation (default 64M)\n"
    "  --max-rings N          per-context limits ...\n"
    "  --max-ring-size BYTES\n"
    "  --max-bulk BYTES\n"
    "  --max-reply-slots N    pending replies\n"
    "  --max-objects N        live objects per context\n"
    "  --max-object-memory BYTES\n"
    "                         resource bytes per context (default 2G)\n"
    "  --spin-us N            worker polling before it announces idle\n"
    "  --verbose\n"
#if defined(_WIN32)
    "  --contexts process|thread\n"
    "                         process (default): one worker process per context;\n"
    "                         thread: contexts on threads of the server (debugging only)\n"
#endif
    "  --watchdog-ms N        terminate a worker that makes no progress for N ms and\n"
    "                         remove its context (default 30000; 0: off)\n"
    "  BYTES: a number of bytes, or with a K, M or G suffix\n"
    );
}

#if defined(_WIN32)
// Worker processes inherit the Win32 environment, and under Wine their backend is wined3d:
// its command-stream thread exists to take the GL work off the application's thread, but
// a worker already is a thread of its own beside the guest. With it, many_draws has three
// busy threads on a 2-core machine, two of them spinning on each other's queue; without
// it the worker's frames take ~10% less (bench/samples/README.md). A WINE_D3D_CONFIG the
// user set keeps its csmt value (csmt=0x1 restores wined3d's default); Windows ignores it.
// (glibc's malloc settings cannot be passed this way: a Wine child process starts with
// its parent's Unix environment, so GLIBC_TUNABLES must come from whoever starts the
// server; bench/samples/README.md says why it matters.)
static void prepare_backend_environment() {
  char value[512];
  DWORD n = GetEnvironmentVariableA("WINE_D3D_CONFIG", value, sizeof(value));
  if (n == 0)
    SetEnvironmentVariableA("WINE_D3D_CONFIG", "csmt=0x0");
  else if (n < sizeof(value) && !std::strstr(value, "csmt"))
    SetEnvironmentVariableA("WINE_D3D_CONFIG", (std::string(value) + ",csmt=0x0").c_str());
}
#endif

int main(int argc, char** argv) {
#if defined(_WIN32)
  if (argc > 1 && std::strcmp(argv[1], "--worker") == 0)
    return worker_process_main(argc - 1, argv + 1);
#endif
  ServerConfig config;
  npt_host_default_limits(&config.limits);
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) {
        usage();
        std::exit(2);
      }
      return argv[++i];
    };
    // Sizes in bytes, or with a K, M or G suffix; anything else ends the server with usage.
    auto bytes = [&]() -> uint64_t {
      const char* text = value();
      const uint64_t v = parse_device_size(text);
      if (v == 0 && std::strcmp(text, "0") != 0) {
        std::fprintf(stderr, "neptune-server: %s: not a size: %s\n", a.c_str(), text);
        usage();
        std::exit(2);
      }
      return v;
    };
    if (a == "--socket") config.socket_path = value();
    else if (a == "--vm-shm") config.device_path = value();
    else if (a == "--size") {
      config.device_size = parse_device_size(value());
      if (!config.device_size) { usage(); return 2; }
    }
    else if (a == "--lease-ms") config.lease_ms = uint32_t(std::strtoul(value(), nullptr, 0));
    else if (a == "--ivshmem-socket") config.ivshmem_socket = value();
    else if (a == "--no-tcp") config.tcp = false;
    else if (a == "--dispatch") {
      std::string d = value();
      if (d == "executor") config.dispatch = DispatchMode::Executor;
      else if (d == "diag") config.dispatch = DispatchMode::Diag;
      else if (d == "null") config.dispatch = DispatchMode::Null;
      else { usage(); return 2; }
    }
    else if (a == "--max-contexts") config.max_contexts = uint32_t(std::strtoul(value(), nullptr, 0));
    else if (a == "--max-memory") config.max_memory = bytes();
    else if (a == "--worker-memory") config.worker_memory = bytes();
    else if (a == "--max-rings") config.limits.max_rings = uint32_t(std::strtoul(value(), nullptr, 0));
    else if (a == "--max-ring-size") config.limits.max_ring_size = uint32_t(std::min<uint64_t>(bytes(), UINT32_MAX));
    else if (a == "--max-bulk") config.limits.max_bulk_size = bytes();
    else if (a == "--max-reply-slots") config.limits.max_reply_slots = uint32_t(std::strtoul(value(), nullptr, 0));
    else if (a == "--max-objects") config.limits.max_objects = uint32_t(std::strtoul(value(), nullptr, 0));
    else if (a == "--max-object-memory") config.limits.max_object_memory = bytes();
    else if (a == "--spin-us") config.spin_us = uint32_t(std::strtoul(value(), nullptr, 0));
    else if (a == "--verbose") config.verbose = true;
#if defined(_WIN32)
    else if (a == "--contexts") {
      std::string mode = value();
      if (mode == "process") config.contexts_in_threads = false;
      else if (mode == "thread") config.contexts_in_threads = true;
      else { usage(); return 2; }
    }
#endif
    else if (a == "--watchdog-ms") config.watchdog_ms = uint32_t(std::strtoul(value(), nullptr, 0));
    else { usage(); return 2; }
  }
  // One or the other: a server serves guests on its socket or on a device.
  if (config.socket_path.empty() == config.device_path.empty() || (!config.device_path.empty() && !config.device_size)) {
    usage();
    return 2;
  }
  if (!config.ivshmem_socket.empty() && config.device_path.empty()) {
    std::fprintf(stderr, "neptune-server: --ivshmem-socket serves a device: it needs --vm-shm\n");
    return 2;
  }
#if defined(_WIN32)
  if (!config.ivshmem_socket.empty()) {
    std::fprintf(stderr, "neptune-server: --ivshmem-socket needs the native Linux server (file descriptors "
                         "travel over a UNIX socket to QEMU)\n");
    return 2;
  }
#endif
  // Executors name the cross-context sharing registry after the server instance; every
  // worker inherits this (the parent's pid) with the rest of the environment.
  char instance[32];
#if defined(_WIN32)
  std::snprintf(instance, sizeof(instance), "%lu", GetCurrentProcessId());
  // Both the C runtime's copy (getenv in thread mode) and the process environment
  // (inherited by the workers).
  _putenv_s("NPT_SERVER_INSTANCE", instance);
  SetEnvironmentVariableA("NPT_SERVER_INSTANCE", instance);
  prepare_backend_environment();
  // Orphaned shared resources (kept by guest NT handles after their creator's context
  // ended) keep their content in this process: a Windows section goes with its last handle.
  hold_orphaned_sharing_content();
#else
  std::snprintf(instance, sizeof(instance), "%d", int(::getpid()));
  ::setenv("NPT_SERVER_INSTANCE", instance, 1);
#endif
  if (!config.device_path.empty()) {
    DeviceServer device(config);
    if (!device.start())
      return 1;
    std::fprintf(stderr, "neptune-server: serving the device %s (%llu bytes)\n", config.device_path.c_str(),
                 (unsigned long long)config.device_size);
    return device.run();
  }
#if defined(_WIN32)
  Win32Server server(config);
#else
  Server server(config);
#endif
  if (!server.start())
    return 1;
  std::fprintf(stderr, "neptune-server: listening on %s\n", config.socket_path.c_str());
  return server.run();
}
