#pragma once
// The on-disk cache of compiled kernels (CUBINs from NVRTC, shared libraries
// from the host compiler): $KILN_CACHE_DIR, default ~/.cache/kiln, mode 0700.
// Entries are written to a private temporary name and renamed, so readers in
// other processes see a whole file or none; each carries a SHA-256 that is
// checked on load, and a bad entry is rebuilt, never trusted.
//
// The cache keeps to $KILN_CACHE_MAX_BYTES (default 4 GiB): a load marks its
// entry used (its modification time), and a store that takes the cache over
// the limit removes the least recently used entries. Removing is unlinking,
// so a process reading an entry keeps reading it. Where the directory cannot
// be created or written, kiln says so once on stderr and keeps what it
// compiles in memory only.
#include <cstdint>
#include <string>

#include "kiln/config.hpp"

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

// The entries the limit counts and clear_cache removes: compiled kernels
// (*.cubin, *.so) at the top of the directory and users' extension builds in
// extensions/ -- not the compilers' identity records, the host runtime's
// directories or files being written.
KernelCacheInfo cache_usage();
// Removes every entry; returns how many.
uint64_t clear_cache();
// Removes least recently used entries until the cache is within its limit.
void trim_cache();

}  // namespace kiln::detail
