#pragma once
// The kiln C++ API: arrays, dtypes, devices, elementwise ops, reductions and
// creation functions, dispatched to the backend of each array's device.
#include "kiln/array.hpp"
#include "kiln/buffer.hpp"
#include "kiln/config.hpp"
#include "kiln/counting.hpp"
#include "kiln/creation.hpp"
#include "kiln/device.hpp"
#include "kiln/dtype.hpp"
#include "kiln/gather.hpp"
#include "kiln/linalg.hpp"
#include "kiln/error.hpp"
#include "kiln/ops.hpp"
#include "kiln/random.hpp"
#include "kiln/reductions.hpp"
#include "kiln/scalar.hpp"
#include "kiln/shape.hpp"
#include "kiln/sorting.hpp"
