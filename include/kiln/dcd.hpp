#pragma once
// CHARMM/NAMD DCD trajectories: little-endian Fortran records (each framed by
// its byte count before and after), a header with the frame and atom counts,
// any number of 80-character title lines, then per frame an optional unit
// cell (6 doubles: a, gamma, b, beta, alpha, c) and the x, y and z
// coordinates as float32. Any range of frames is read without reading the
// rest; a truncated or malformed file raises ValueError naming the path and
// what is wrong.
#include <cstdint>
#include <string>
#include <vector>

#include "kiln/array.hpp"

namespace kiln::dcd {

struct Header {
  int64_t frames = 0;
  int64_t atoms = 0;
  int32_t first_step = 0;            // ISTART
  int32_t steps_between_frames = 1;  // NSAVC
  float timestep = 0;                // DELTA, in AKMA units
  bool has_unit_cell = false;
  std::vector<std::string> titles;  // trailing blanks removed
};

struct Frames {
  Array x, y, z;  // (frames, atoms) float32, on the CPU
  Array box;      // (frames, 3) float64 box lengths a, b, c (cell entries 0, 2, 5); zeros without a unit cell
};

class Reader {
 public:
  explicit Reader(const std::string& path);
  const Header& header() const { return header_; }
  // Frames [first, first + count); IndexError when the range is not in the file.
  Frames read(int64_t first, int64_t count) const;

 private:
  std::string path_;
  Header header_;
  int64_t data_offset_ = 0;  // where frame 0 starts
  int64_t frame_bytes_ = 0;
};

// Writes x, y, z ((frames, atoms), any real dtype, converted to float32) and,
// when `box` is not empty, a unit cell per frame from its (frames, 3) lengths
// (angles 90 degrees). Titles longer than 80 characters are refused.
void write(const std::string& path, const Array& x, const Array& y, const Array& z, const Array& box,
           const std::vector<std::string>& titles, float timestep = 0);

}  // namespace kiln::dcd
