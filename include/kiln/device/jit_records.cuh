#pragma once
// Records of NumPy structured dtypes in kiln.cuda.jit's kernels
// (python/kiln/_jit/constructs/records.py): a record is its bytes, aligned as
// the dtype is; a field is read and written in place at its byte offset, a
// subarray field (``("h", np.float32, 2)``) is a view of the record's bytes
// (kiln_contiguous_view).
// Included by jit_support.cuh after kiln_view.

// One record: Size bytes aligned to Align (the dtype's itemsize and alignment).
// Assigning one copies the record, as ``ary[i] = ary[j]`` does.
template <int Size, int Align> struct alignas(Align) kiln_record {
  unsigned char bytes[Size];
};

// The scalar field at byte Offset of the record at r (a reference: read or written).
template <class T, long long Offset, class R> __device__ __forceinline__ T& kiln_field(R* r) {
  return *reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(r) + Offset);
}
