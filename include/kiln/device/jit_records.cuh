#pragma once
// Records of NumPy structured dtypes in kiln.cuda.jit's kernels
// (python/kiln/_jit/constructs/records.py): a record is its bytes, aligned as
// the dtype is; a field is read and written in place at its byte offset, a
// subarray field (``("h", np.float32, 2)``) is a view of the record's bytes.
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

// The subarray field at byte `offset` of the record at r: a C-ordered view of
// its elements, shape given.
template <class T, class R, class... Extent>
__device__ __forceinline__ kiln_view<T, sizeof...(Extent)> kiln_field_array(R* r, long long offset, Extent... shape) {
  kiln_view<T, sizeof...(Extent)> v;
  v.data = reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(r) + offset);
  const long long extents[] = {(long long)shape...};
  long long stride = sizeof(T);
  for (int d = (int)sizeof...(Extent) - 1; d >= 0; --d) {
    v.shape[d] = extents[d];
    v.strides[d] = stride;
    stride *= extents[d];
  }
  return v;
}
