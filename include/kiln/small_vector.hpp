#pragma once
// A vector of trivially copyable values that keeps up to N of them inline.
// Shapes and strides are almost always short; keeping them out of the heap
// takes most of the allocations off the per-op dispatch path.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <type_traits>

namespace kiln {

template <class T, size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVector holds trivially copyable values");

 public:
  using value_type = T;
  using size_type = size_t;
  using iterator = T*;
  using const_iterator = const T*;
  using reference = T&;
  using const_reference = const T&;

  SmallVector() = default;
  explicit SmallVector(size_t n, const T& value = T()) { assign(n, value); }
  SmallVector(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
  template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
  SmallVector(It first, It last) { assign(first, last); }
  SmallVector(const SmallVector& o) { copy_from(o); }
  SmallVector(SmallVector&& o) noexcept { take(o); }
  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) copy_from(o);
    return *this;
  }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ~SmallVector() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return heap_ ? heap_ : inline_; }
  const T* data() const { return heap_ ? heap_ : inline_; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }

  void reserve(size_t n) {
    if (n <= capacity_) return;
    T* grown = new T[n];
    std::memcpy(grown, data(), size_ * sizeof(T));
    release();
    heap_ = grown;
    capacity_ = n;
  }
  void resize(size_t n, const T& value = T()) {
    reserve(n);
    std::fill(data() + std::min(n, size_), data() + n, value);
    size_ = n;
  }
  void push_back(const T& value) {
    if (size_ == capacity_) reserve(capacity_ * 2);
    data()[size_++] = value;
  }
  void assign(size_t n, const T& value) {
    size_ = 0;
    resize(n, value);
  }
  template <class It>
  void assign(It first, It last) {
    size_ = 0;
    reserve(static_cast<size_t>(std::distance(first, last)));
    for (; first != last; ++first) data()[size_++] = *first;
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator!=(const SmallVector& a, const SmallVector& b) { return !(a == b); }

 private:
  void release() {
    delete[] heap_;
    heap_ = nullptr;
    capacity_ = N;
  }
  void take(SmallVector& o) {
    size_ = o.size_;
    if (o.heap_) {
      heap_ = o.heap_;
      capacity_ = o.capacity_;
      o.heap_ = nullptr;
      o.capacity_ = N;
    } else {
      std::memcpy(inline_, o.inline_, sizeof inline_);  // all N: a fixed size copies in a few moves
    }
    o.size_ = 0;
  }
  // Arrays are copied on every op: values that fit inline are copied as one
  // fixed-size block (a heap block holds more than N, so reading N is safe).
  void copy_from(const SmallVector& o) {
    if (o.size_ <= N && !heap_) {
      std::memcpy(inline_, o.data(), sizeof inline_);
      size_ = o.size_;
      return;
    }
    assign(o.begin(), o.end());
  }

  T inline_[N];
  T* heap_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = N;
};

}  // namespace kiln
