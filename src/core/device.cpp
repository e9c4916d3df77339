#include "kiln/device.hpp"

#include "kiln/error.hpp"

namespace kiln {

Device Device::parse(const std::string& text) {
  if (text == "cpu") return cpu();
  if (text == "cuda") return cuda(0);
  if (text.rfind("cuda:", 0) == 0 && text.size() > 5) {
    size_t used = 0;
    int index = -1;
    try {
      index = std::stoi(text.substr(5), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == text.size() - 5 && index >= 0) return cuda(index);
  }
  throw ValueError("device must be 'cpu', 'cuda' or 'cuda:N', got '" + text + "'");
}

std::string Device::str() const {
  return kind == DeviceKind::CPU ? "cpu" : "cuda:" + std::to_string(index);
}

}  // namespace kiln
