// fill_random: checks, then the device's kernel for (kind, dtype).
#include "kiln/random.hpp"

#include <string>

#include "kiln/error.hpp"
#include "kiln/registry.hpp"

namespace kiln {

uint64_t fill_random(const Array& out, RandomKind kind, uint64_t key, uint64_t first_block) {
  if (!out.is_c_contiguous()) throw ValueError("fill_random: out must be C-contiguous");
  if (!out.writeable()) throw ValueError("fill_random: out is read-only");
  RandomKernel kernel = kernel_table(out.device().kind).random[static_cast<int>(kind)][static_cast<int>(out.dtype())];
  if (!kernel) {
    static const char* const names[] = {"random bits", "uniform values", "normal values"};
    throw TypeError(std::string("kiln cannot draw ") + names[static_cast<int>(kind)] + " of dtype " +
                    std::string(name(out.dtype())));
  }
  const uint64_t per_block = 16 / static_cast<uint64_t>(out.itemsize());
  const uint64_t blocks = (static_cast<uint64_t>(out.size()) + per_block - 1) / per_block;
  if (blocks == 0) return 0;
  RandomArgs args;
  args.device = out.device().index;
  args.out = out.data();
  args.n = out.size();
  args.key = key;
  args.first_block = first_block;
  kernel(args);
  return blocks;
}

}  // namespace kiln
