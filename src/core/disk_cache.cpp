#include "disk_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "sha256.hpp"

namespace kiln::detail {

std::string cache_directory() {
  if (const char* dir = std::getenv("KILN_CACHE_DIR")) return dir;
  const char* home = std::getenv("HOME");
  return std::string(home ? home : "/tmp") + "/.cache/kiln";
}

std::string ensure_cache_directory() {
  // Each missing component is created 0700: the cache holds code kiln will run.
  const std::string path = cache_directory();
  for (size_t pos = 1; pos != std::string::npos;) {
    pos = path.find('/', pos + 1);
    std::string part = path.substr(0, pos);
    if (mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) return {};
  }
  return path;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_atomically(const std::string& dir, const std::string& path, const std::string& contents) {
  std::string tmp = dir + "/.tmp-XXXXXX";
  int fd = mkstemp(tmp.data());
  if (fd < 0) return;
  bool ok = write(fd, contents.data(), contents.size()) == static_cast<ssize_t>(contents.size());
  ok = close(fd) == 0 && ok;
  if (!ok || rename(tmp.c_str(), path.c_str()) != 0) unlink(tmp.c_str());
}

std::string load_checked(const std::string& path) {
  std::string file = read_file(path);
  if (file.size() <= 32) return {};
  std::string payload = file.substr(32);
  auto digest = Sha256().update(payload).digest();
  if (file.compare(0, 32, reinterpret_cast<const char*>(digest.data()), 32) != 0) return {};
  return payload;
}

void store_checked(const std::string& path, const std::string& payload) {
  const std::string dir = ensure_cache_directory();
  if (dir.empty()) return;
  auto digest = Sha256().update(payload).digest();
  write_atomically(dir, path, std::string(reinterpret_cast<const char*>(digest.data()), 32) + payload);
}

}  // namespace kiln::detail
