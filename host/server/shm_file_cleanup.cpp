// SPDX-License-Identifier: MIT
#include "shm_file_cleanup.h"

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <vector>

namespace npt::server {

namespace {

constexpr const char* kShmDir = "/dev/shm/";

bool all_digits(const std::string& s, size_t from, size_t to) {
  if (from >= to)
    return false;
  for (size_t i = from; i < to; i++)
    if (s[i] < '0' || s[i] > '9')
      return false;
  return true;
}

// The server pid of "neptune-<pid>-<context>" or "neptune-<pid>-<context>-r<region>";
// empty for any other name (the sharing registry's "neptune-<pid>-sharing" and
// "-share-..." files are host/sharing's).
std::string server_of_context_file(const std::string& name) {
  const std::string prefix = "neptune-";
  if (name.compare(0, prefix.size(), prefix) != 0)
    return {};
  const size_t pid_end = name.find('-', prefix.size());
  if (pid_end == std::string::npos || !all_digits(name, prefix.size(), pid_end) || pid_end - prefix.size() > 10)
    return {};
  const size_t context_end = name.find('-', pid_end + 1);
  if (context_end == std::string::npos)
    return all_digits(name, pid_end + 1, name.size()) ? name.substr(prefix.size(), pid_end - prefix.size()) : "";
  if (!all_digits(name, pid_end + 1, context_end) || name.compare(context_end, 2, "-r") != 0 ||
      !all_digits(name, context_end + 2, name.size()))
    return {};
  return name.substr(prefix.size(), pid_end - prefix.size());
}

// A file of a server that runs in another pid namespace (containers sharing /dev/shm)
// looks like a dead server's; a live one's files exist only until its guest maps them
// (seconds), so only files unchanged this long go, as the sharing registry's stale files.
constexpr time_t kStaleAfterSeconds = 60;

bool old_enough(const std::string& name) {
  struct stat st{};
  return ::stat((kShmDir + name).c_str(), &st) == 0 && std::time(nullptr) - st.st_mtime >= kStaleAfterSeconds;
}

bool process_runs(const std::string& pid_text) {
  const long pid = std::strtol(pid_text.c_str(), nullptr, 10);
  if (pid <= 0 || pid_text.size() > 9)
    return false;
  return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
}

// The names in /dev/shm that `select` accepts.
template <typename Select>
std::vector<std::string> shm_names(Select select) {
  std::vector<std::string> names;
  DIR* dir = ::opendir(kShmDir);
  if (!dir)
    return names;
  while (dirent* entry = ::readdir(dir))
    if (select(std::string(entry->d_name)))
      names.push_back(entry->d_name);
  ::closedir(dir);
  return names;
}

uint32_t unlink_all(const std::vector<std::string>& names) {
  uint32_t removed = 0;
  for (const std::string& name : names)
    if (::unlink((kShmDir + name).c_str()) == 0)
      removed++;
  return removed;
}

}

uint32_t remove_context_shm_files(const std::string& context_path) {
  if (context_path.compare(0, std::char_traits<char>::length(kShmDir), kShmDir) != 0)
    return 0;
  const std::string base = context_path.substr(std::char_traits<char>::length(kShmDir));
  const std::string region_prefix = base + "-r";
  return unlink_all(shm_names([&](const std::string& name) {
    return name == base || (name.compare(0, region_prefix.size(), region_prefix) == 0 &&
                            all_digits(name, region_prefix.size(), name.size()));
  }));
}

uint32_t remove_shm_files_of_dead_servers() {
  return unlink_all(shm_names([](const std::string& name) {
    const std::string server = server_of_context_file(name);
    return !server.empty() && !process_runs(server) && old_enough(name);
  }));
}

}
