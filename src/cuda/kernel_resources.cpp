#include "kernel_resources.hpp"

#include <cstring>
#include <sstream>

#include "kiln/error.hpp"

namespace kiln::cuda {
namespace {

// The number before `unit` in `line` ("24 registers" -> 24), -1 if absent.
int64_t count_before(const std::string& line, const std::string& unit) {
  const size_t at = line.find(" " + unit);
  if (at == std::string::npos) return -1;
  size_t start = at;
  while (start > 0 && std::isdigit(static_cast<unsigned char>(line[start - 1]))) --start;
  return start == at ? -1 : std::stoll(line.substr(start, at - start));
}

template <class T> T read_at(const std::string& image, size_t offset) {
  if (offset + sizeof(T) > image.size()) throw CompileError("the CUBIN NVRTC made is truncated");
  T value;
  std::memcpy(&value, image.data() + offset, sizeof(T));
  return value;
}

}  // namespace

// The report lists each entry as "Compiling entry function 'NAME' for
// 'sm_90'", then "Function properties for NAME" with its stack frame, then
// "Used N registers, ... M bytes smem" (no smem part when it uses none).
KernelResources ptxas_resources(const std::string& report, const std::string& function) {
  std::istringstream lines(report);
  bool in_entry = false, found = false;
  KernelResources r;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("Compiling entry function '") != std::string::npos) {
      in_entry = line.find("'" + function + "'") != std::string::npos;
      found = found || in_entry;
      continue;
    }
    if (!in_entry) continue;
    if (const int64_t frame = count_before(line, "bytes stack frame"); frame >= 0) r.local_bytes = frame;
    if (line.find("Used ") != std::string::npos) {
      r.num_regs = static_cast<int>(std::max<int64_t>(0, count_before(line, "registers")));
      r.shared_bytes = std::max<int64_t>(0, count_before(line, "bytes smem"));
      in_entry = false;  // the entry's last line
    }
  }
  if (!found) throw CompileError("ptxas reported no entry function " + function);
  return r;
}

uint64_t elf_section_size(const std::string& image, const std::string& name) {
  if (image.size() < 64 || image.compare(0, 4, "\x7f" "ELF") != 0 || image[4] != 2)
    throw CompileError("the CUBIN NVRTC made is not an ELF64 image");
  const auto table = read_at<uint64_t>(image, 0x28);      // e_shoff
  const auto entry = read_at<uint16_t>(image, 0x3A);      // e_shentsize
  const auto count = read_at<uint16_t>(image, 0x3C);      // e_shnum
  const auto names_index = read_at<uint16_t>(image, 0x3E);  // e_shstrndx
  const auto names_at = read_at<uint64_t>(image, table + size_t{names_index} * entry + 24);  // its sh_offset
  for (uint16_t i = 0; i < count; ++i) {
    const size_t header = table + size_t{i} * entry;
    const size_t name_at = names_at + read_at<uint32_t>(image, header);  // sh_name
    if (name_at >= image.size()) continue;
    if (std::strncmp(image.data() + name_at, name.c_str(), image.size() - name_at) == 0)
      return read_at<uint64_t>(image, header + 32);  // sh_size
  }
  return 0;
}

}  // namespace kiln::cuda
