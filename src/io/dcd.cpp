// DCD reading and writing with C stdio: no iostreams (see the notes on mixed
// libstdc++ versions in src/cpu/host_compiler.cpp).
#include "kiln/dcd.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>

#include "kiln/creation.hpp"
#include "kiln/error.hpp"

namespace kiln::dcd {
namespace {

constexpr int32_t kHeaderBytes = 84;
constexpr int32_t kCellBytes = 48;
constexpr size_t kTitleBytes = 80;

struct FileCloser {
  void operator()(FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<FILE, FileCloser>;

File open(const std::string& path, const char* mode) {
  File f(std::fopen(path.c_str(), mode));
  if (!f) throw ValueError("dcd: cannot open " + path + ": " + std::strerror(errno));
  return f;
}

int32_t read_i32(const unsigned char* p) {
  int32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// A Fortran record is its byte count, its body, the byte count again.

// Reads and checks a record's opening byte count: `expected` < 0 accepts any
// size the file can hold (frames were sized against the file when it was opened).
int32_t open_record(FILE* f, const std::string& path, const std::string& what, int64_t expected,
                    int64_t file_size = INT64_MAX) {
  unsigned char marker[4];
  const int64_t at = ftello(f);
  if (std::fread(marker, 1, 4, f) != 4)
    throw ValueError("dcd: " + path + " is truncated: it ends where the " + what + " record should start");
  const int32_t size = read_i32(marker);
  if (size < 0 || at + 8 + static_cast<int64_t>(size) > file_size || (expected >= 0 && size != expected))
    throw ValueError("dcd: " + path + " is malformed: the " + what + " record at byte " + std::to_string(at) +
                     " says " + std::to_string(size) + " bytes" +
                     (expected >= 0 ? ", expected " + std::to_string(expected) : ", more than the file holds"));
  return size;
}

// Reads an opened record's body into `out` and checks its closing byte count.
void finish_record(FILE* f, const std::string& path, const std::string& what, int32_t size, void* out) {
  unsigned char end[4];
  if (std::fread(out, 1, static_cast<size_t>(size), f) != static_cast<size_t>(size) || std::fread(end, 1, 4, f) != 4)
    throw ValueError("dcd: " + path + " is truncated inside the " + what + " record");
  if (read_i32(end) != size)
    throw ValueError("dcd: " + path + " is malformed: the " + what + " record's closing marker says " +
                     std::to_string(read_i32(end)) + " bytes, its opening one " + std::to_string(size));
}

std::vector<unsigned char> read_record(FILE* f, const std::string& path, const std::string& what, int64_t expected,
                                       int64_t file_size) {
  const int32_t size = open_record(f, path, what, expected, file_size);
  std::vector<unsigned char> body(static_cast<size_t>(size));
  finish_record(f, path, what, size, body.data());
  return body;
}

// Reads a record of exactly `bytes` bytes straight into `out`.
void read_record_into(FILE* f, const std::string& path, const std::string& what, int32_t bytes, void* out) {
  finish_record(f, path, what, open_record(f, path, what, bytes), out);
}

void write_record(FILE* f, const void* body, int32_t bytes) {
  if (std::fwrite(&bytes, 4, 1, f) != 1 || (bytes && std::fwrite(body, 1, bytes, f) != static_cast<size_t>(bytes)) ||
      std::fwrite(&bytes, 4, 1, f) != 1)
    throw ValueError(std::string("dcd: writing failed: ") + std::strerror(errno));
}

// A C-contiguous CPU copy (or view) of `a` as `dtype`.
Array host_dense(const Array& a, DType dtype) {
  return a.to(Device::cpu()).as_contiguous(dtype);
}

template <class T> T* data_of(const Array& a) {
  return reinterpret_cast<T*>(static_cast<char*>(a.buffer()->data()) + a.offset());
}

}  // namespace

Reader::Reader(const std::string& path) : path_(path) {
  File f = open(path, "rb");
  fseeko(f.get(), 0, SEEK_END);
  const int64_t file_size = ftello(f.get());
  fseeko(f.get(), 0, SEEK_SET);
  unsigned char first[4];
  if (file_size < 4 || std::fread(first, 1, 4, f.get()) != 4)
    throw ValueError("dcd: " + path + " is empty or too short to be a DCD file");
  if (read_i32(first) == 0x54000000)
    throw ValueError("dcd: " + path + " is big-endian; only little-endian DCD files are read");
  fseeko(f.get(), 0, SEEK_SET);
  std::vector<unsigned char> head = read_record(f.get(), path, "header", kHeaderBytes, file_size);
  if (std::memcmp(head.data(), "CORD", 4) != 0)
    throw ValueError("dcd: " + path + " is not a coordinate DCD file (it does not start with CORD)");
  const unsigned char* icntrl = head.data() + 4;
  auto field = [&](int i) { return read_i32(icntrl + 4 * i); };
  const int32_t declared_frames = field(0), fixed_atoms = field(8), charmm_version = field(19);
  header_.first_step = field(1);
  header_.steps_between_frames = field(2);
  if (fixed_atoms != 0)
    throw ValueError("dcd: " + path + " has " + std::to_string(fixed_atoms) +
                     " fixed atoms; DCD files with fixed atoms are not supported");
  if (charmm_version != 0) {  // CHARMM and NAMD: DELTA is a float, the cell and 4D flags follow
    std::memcpy(&header_.timestep, icntrl + 36, 4);
    header_.has_unit_cell = field(10) != 0;
    if (field(11) != 0) throw ValueError("dcd: " + path + " holds 4D coordinates, which are not supported");
  } else {  // X-PLOR: DELTA is a double, no unit cell
    double delta;
    std::memcpy(&delta, icntrl + 36, 8);
    header_.timestep = static_cast<float>(delta);
  }
  std::vector<unsigned char> titles = read_record(f.get(), path, "title", -1, file_size);
  if (titles.size() < 4) throw ValueError("dcd: " + path + " is malformed: the title record is too short");
  const int32_t count = read_i32(titles.data());
  if (count < 0 || titles.size() != 4 + kTitleBytes * static_cast<size_t>(count))
    throw ValueError("dcd: " + path + " is malformed: " + std::to_string(count) + " title lines do not fill " +
                     std::to_string(titles.size()) + " bytes");
  for (int32_t t = 0; t < count; ++t) {
    std::string line(reinterpret_cast<const char*>(titles.data()) + 4 + kTitleBytes * t, kTitleBytes);
    line.erase(line.find_last_not_of(std::string(" \0", 2)) + 1);
    header_.titles.push_back(line);
  }
  std::vector<unsigned char> atoms = read_record(f.get(), path, "atom count", 4, file_size);
  header_.atoms = read_i32(atoms.data());
  if (header_.atoms <= 0) throw ValueError("dcd: " + path + " declares " + std::to_string(header_.atoms) + " atoms");
  data_offset_ = ftello(f.get());
  frame_bytes_ = (header_.has_unit_cell ? 8 + kCellBytes : 0) + 3 * (8 + 4 * header_.atoms);
  const int64_t complete = (file_size - data_offset_) / frame_bytes_;
  const int64_t extra = (file_size - data_offset_) % frame_bytes_;
  if (extra != 0 || complete < declared_frames)
    throw ValueError("dcd: " + path + " is truncated: the header declares " + std::to_string(declared_frames) +
                     " frames of " + std::to_string(frame_bytes_) + " bytes; the file holds " +
                     std::to_string(complete) + " whole frames and " + std::to_string(extra) + " bytes more");
  // Writers that append frames do not always update the header's count.
  header_.frames = complete;
}

Frames Reader::read(int64_t first, int64_t count) const {
  if (first < 0 || count < 0 || first + count > header_.frames)
    throw IndexError("dcd: frames " + std::to_string(first) + " to " + std::to_string(first + count) + " of " +
                     path_ + " are out of range (it has " + std::to_string(header_.frames) + ")");
  const int64_t atoms = header_.atoms;
  Frames out{Array::empty({count, atoms}, DType::Float32), Array::empty({count, atoms}, DType::Float32),
             Array::empty({count, atoms}, DType::Float32), zeros({count, 3}, DType::Float64)};
  File f = open(path_, "rb");
  fseeko(f.get(), data_offset_ + first * frame_bytes_, SEEK_SET);
  const int32_t coordinate_bytes = static_cast<int32_t>(4 * atoms);
  for (int64_t k = 0; k < count; ++k) {
    const std::string frame = "frame " + std::to_string(first + k);
    if (header_.has_unit_cell) {
      double cell[6];
      read_record_into(f.get(), path_, frame + " unit cell", kCellBytes, cell);
      double* box = data_of<double>(out.box) + 3 * k;
      box[0] = cell[0], box[1] = cell[2], box[2] = cell[5];
    }
    read_record_into(f.get(), path_, frame + " x", coordinate_bytes, data_of<float>(out.x) + k * atoms);
    read_record_into(f.get(), path_, frame + " y", coordinate_bytes, data_of<float>(out.y) + k * atoms);
    read_record_into(f.get(), path_, frame + " z", coordinate_bytes, data_of<float>(out.z) + k * atoms);
  }
  return out;
}

void write(const std::string& path, const Array& x, const Array& y, const Array& z, const Array& box,
           const std::vector<std::string>& titles, float timestep) {
  if (x.ndim() != 2 || x.shape() != y.shape() || x.shape() != z.shape())
    throw ValueError("dcd: x, y and z must be (frames, atoms) arrays of one shape");
  const int64_t frames = x.shape()[0], atoms = x.shape()[1];
  if (atoms <= 0 || atoms > (INT32_MAX - 8) / 4 || frames > INT32_MAX)
    throw ValueError("dcd: " + std::to_string(frames) + " frames of " + std::to_string(atoms) +
                     " atoms do not fit a DCD file");
  const bool has_cell = box.buffer() != nullptr;
  if (has_cell && (box.ndim() != 2 || box.shape()[0] != frames || box.shape()[1] != 3))
    throw ValueError("dcd: box must be a (frames, 3) array of box lengths");
  for (const std::string& t : titles)
    if (t.size() > kTitleBytes) throw ValueError("dcd: a title line is longer than 80 characters: " + t);
  const Array xs = host_dense(x, DType::Float32), ys = host_dense(y, DType::Float32),
              zs = host_dense(z, DType::Float32);
  const Array boxes = has_cell ? host_dense(box, DType::Float64) : Array();

  unsigned char head[kHeaderBytes] = {};
  std::memcpy(head, "CORD", 4);
  const int32_t fields[] = {static_cast<int32_t>(frames), 0, 1, static_cast<int32_t>(frames)};
  std::memcpy(head + 4, fields, sizeof fields);
  std::memcpy(head + 4 + 36, &timestep, 4);
  const int32_t cell_flag = has_cell ? 1 : 0, version = 24;
  std::memcpy(head + 4 + 40, &cell_flag, 4);
  std::memcpy(head + 4 + 76, &version, 4);
  std::vector<unsigned char> title_record(4 + kTitleBytes * titles.size(), ' ');
  const int32_t title_count = static_cast<int32_t>(titles.size());
  std::memcpy(title_record.data(), &title_count, 4);
  for (size_t t = 0; t < titles.size(); ++t)
    std::memcpy(title_record.data() + 4 + kTitleBytes * t, titles[t].data(), titles[t].size());
  const int32_t natoms = static_cast<int32_t>(atoms);

  File f = open(path, "wb");
  write_record(f.get(), head, kHeaderBytes);
  write_record(f.get(), title_record.data(), static_cast<int32_t>(title_record.size()));
  write_record(f.get(), &natoms, 4);
  const int32_t coordinate_bytes = static_cast<int32_t>(4 * atoms);
  for (int64_t k = 0; k < frames; ++k) {
    if (has_cell) {
      const double* b = data_of<double>(boxes) + 3 * k;
      const double cell[6] = {b[0], 90.0, b[1], 90.0, 90.0, b[2]};
      write_record(f.get(), cell, kCellBytes);
    }
    write_record(f.get(), data_of<float>(xs) + k * atoms, coordinate_bytes);
    write_record(f.get(), data_of<float>(ys) + k * atoms, coordinate_bytes);
    write_record(f.get(), data_of<float>(zs) + k * atoms, coordinate_bytes);
  }
  if (std::fflush(f.get()) != 0) throw ValueError("dcd: writing " + path + " failed: " + std::strerror(errno));
}

}  // namespace kiln::dcd
