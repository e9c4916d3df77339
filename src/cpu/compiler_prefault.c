/* Loaded (LD_PRELOAD) into a host compiler that kiln starts before the
 * kernel it will compile (standby_compiler.cpp). When the compiler first
 * reads a pipe (its standard input, where it waits for the kernel's text,
 * after loading the precompiled runtime header) this faults in its
 * writable memory: that header as read, its heap and its collector's
 * pages. The first writes to those pages, each a page copied or zeroed by
 * the kernel, were a fifth of a small kernel's compile once the text came
 * (about 10 of 50 ms on the 2-core machine); now they happen while the
 * compiler waits, on another core. The assembler, which waits on a pipe
 * too, does the same. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; an older kernel refuses it, and nothing changes */
#endif

/* Private writable mappings only, none larger than 64 MiB and 256 MiB in
 * all: a large reservation the compiler would never touch stays untouched. */
static void populate_writable_memory(void) {
  FILE* maps = fopen("/proc/self/maps", "re");
  if (!maps) return;
  const unsigned long largest = 64ul << 20, most = 256ul << 20;
  unsigned long total = 0;
  char line[4096];
  while (fgets(line, sizeof line, maps)) {
    unsigned long low, high;
    char permissions[8];
    if (sscanf(line, "%lx-%lx %7s", &low, &high, permissions) != 3) continue;
    if (strcmp(permissions, "rw-p") != 0 || high - low > largest || total + (high - low) > most) continue;
    madvise((void*)low, high - low, MADV_POPULATE_WRITE);
    total += high - low;
  }
  fclose(maps);
}

ssize_t read(int fd, void* buffer, size_t count) {
  static ssize_t (*next)(int, void*, size_t);
  static int populated;
  if (!next) next = (ssize_t(*)(int, void*, size_t))dlsym(RTLD_NEXT, "read");
  if (!populated) {
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) {
      populated = 1; /* before reading /proc/self/maps, which comes back here */
      populate_writable_memory();
    }
  }
  return next(fd, buffer, count);
}
