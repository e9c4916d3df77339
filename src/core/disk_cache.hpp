#pragma once
// The on-disk cache of compiled kernels (CUBINs from NVRTC, shared libraries
// from the host compiler): $KILN_CACHE_DIR, default ~/.cache/kiln, mode 0700.
// Entries are written to a private temporary name and renamed, so readers in
// other processes see a whole file or none; each carries a SHA-256 that is
// checked on load, and a bad entry is rebuilt, never trusted.
#include <string>

namespace kiln::detail {

inline constexpr const char* kKilnVersion = "0.1.0";  // part of every cache key

std::string cache_directory();
// The cache directory, created 0700 where missing; "" when it cannot be.
std::string ensure_cache_directory();
std::string read_file(const std::string& path);
// Writes `contents` to `path` inside `dir` atomically; a read-only cache is
// not an error (the entry is only rebuilt next time).
void write_atomically(const std::string& dir, const std::string& path, const std::string& contents);

// Entries stored with their hash in front: the payload, or "" when the file is
// missing or its hash does not match.
std::string load_checked(const std::string& path);
void store_checked(const std::string& path, const std::string& payload);

}  // namespace kiln::detail
