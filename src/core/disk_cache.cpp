#include "disk_cache.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <vector>

#include "sha256.hpp"

namespace kiln::detail {
namespace {

constexpr uint64_t kDefaultMaxBytes = uint64_t(4) << 30;

uint64_t max_bytes() {
  const char* text = std::getenv("KILN_CACHE_MAX_BYTES");
  if (!text || !*text) return kDefaultMaxBytes;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (*end || text[0] == '-') {
    static std::once_flag told;
    std::call_once(told, [&] {
      std::fprintf(stderr, "kiln: KILN_CACHE_MAX_BYTES=%s is not a number of bytes; using 4 GiB\n", text);
    });
    return kDefaultMaxBytes;
  }
  return v;
}

// Said once a process: where the cache cannot be used, kernels still compile
// and run; they are only compiled again by the next process.
void warn_unusable(const std::string& dir, int error) {
  static std::once_flag told;
  std::call_once(told, [&] {
    std::fprintf(stderr,
                 "kiln: the kernel cache directory %s cannot be used (%s); compiled kernels are kept in this "
                 "process only (set KILN_CACHE_DIR to a writable directory)\n",
                 dir.c_str(), std::strerror(error));
  });
}

struct Entry {
  std::string path;
  uint64_t bytes;
  struct timespec used;
};

bool ends_with(const std::string& s, const char* suffix) {
  const size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

void collect(const std::string& dir, bool extensions, std::vector<Entry>& out) {
  DIR* d = opendir(dir.c_str());
  if (!d) return;
  while (const dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name.empty() || name[0] == '.') continue;
    const std::string path = dir + "/" + name;
    struct stat st;
    if (lstat(path.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      if (!extensions && name == "extensions") collect(path, true, out);
      continue;
    }
    const bool entry = S_ISREG(st.st_mode) &&
                       (ends_with(name, ".cubin") || ends_with(name, ".so") || (extensions && ends_with(name, ".o")));
    if (entry) out.push_back({path, static_cast<uint64_t>(st.st_size), st.st_mtim});
  }
  closedir(d);
}

std::vector<Entry> entries() {
  std::vector<Entry> out;
  collect(cache_directory(), false, out);
  return out;
}

// Bytes stored by this process since the cache was last measured: a store
// measures it again only after a sixteenth of the limit has been written.
std::atomic<uint64_t> stored_since_trim{~uint64_t(0)};

void note_stored(uint64_t bytes) {
  const uint64_t limit = max_bytes();
  if (stored_since_trim.fetch_add(bytes) + bytes >= limit / 16) trim_cache();
}

}  // namespace

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
    if (mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) {
      warn_unusable(path, errno);
      return {};
    }
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
  if (fd < 0) {
    warn_unusable(dir, errno);
    return;
  }
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
  utimensat(AT_FDCWD, path.c_str(), nullptr, 0);  // used now: the last to be removed
  return payload;
}

void store_checked(const std::string& path, const std::string& payload) {
  const std::string dir = ensure_cache_directory();
  if (dir.empty()) return;
  auto digest = Sha256().update(payload).digest();
  write_atomically(dir, path, std::string(reinterpret_cast<const char*>(digest.data()), 32) + payload);
  note_stored(payload.size() + 32);
}

KernelCacheInfo cache_usage() {
  KernelCacheInfo u;
  u.directory = cache_directory();
  u.max_bytes = max_bytes();
  for (const Entry& e : entries()) {
    ++u.entries;
    u.bytes += e.bytes;
  }
  u.writable = access(u.directory.c_str(), W_OK | X_OK) == 0;
  return u;
}

uint64_t clear_cache() {
  uint64_t removed = 0;
  for (const Entry& e : entries()) removed += unlink(e.path.c_str()) == 0;
  return removed;
}

void trim_cache() {
  stored_since_trim = 0;
  std::vector<Entry> all = entries();
  uint64_t total = 0;
  for (const Entry& e : all) total += e.bytes;
  const uint64_t limit = max_bytes();
  if (total <= limit) return;
  std::sort(all.begin(), all.end(), [](const Entry& a, const Entry& b) {
    return a.used.tv_sec != b.used.tv_sec ? a.used.tv_sec < b.used.tv_sec : a.used.tv_nsec < b.used.tv_nsec;
  });
  // Down to 90% of the limit, so the next stores do not each trim again.
  for (const Entry& e : all) {
    if (total <= limit / 10 * 9) break;
    if (unlink(e.path.c_str()) == 0 || errno == ENOENT) total -= e.bytes;
  }
}

}  // namespace kiln::detail
