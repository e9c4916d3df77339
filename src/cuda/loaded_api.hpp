#pragma once
// A shared library's C API resolved with dlsym into a struct of function
// pointers, once per process: what the loaders of the driver, NVRTC, cuBLAS,
// cuSOLVER and cuFFT share. The library is opened by the caller's `open`
// (the driver's by soname, the toolkit's through open_toolkit_library); the
// caller's `resolve(lib, api)` fills the pointers and returns the first name
// it could not find, or nullptr.
#include <dlfcn.h>

#include <string>

#include "kiln/error.hpp"

namespace kiln::cuda {

template <class Api>
struct LoadedApi {
  Api api{};
  std::string error;  // empty when every function resolved
};

template <class Api, class Open, class Resolve>
LoadedApi<Api> load_api(const char* title, const char* unavailable, Open open, Resolve resolve) {
  LoadedApi<Api> loaded;
  void* lib = open();
  if (!lib) {
    loaded.error = unavailable;
  } else if (const char* missing = resolve(lib, loaded.api)) {
    loaded.error = std::string(title) + " is too old: it lacks " + missing;
  }
  return loaded;
}

// The API, or the reason it is not there as a CudaError.
template <class Api>
const Api& api_or_throw(const LoadedApi<Api>& loaded) {
  if (!loaded.error.empty()) throw CudaError(loaded.error);
  return loaded.api;
}

// Resolves the symbol `name` into the function pointer `fn`; the first name
// that is not found is kept in `missing` (for loaders whose members are not
// named as their symbols, so KILN_RESOLVE_OR_RETURN cannot serve).
template <class Fn>
void resolve_named(void* lib, Fn& fn, const char* name, const char*& missing) {
  fn = reinterpret_cast<Fn>(dlsym(lib, name));
  if (!fn && !missing) missing = name;
}

// A routine's four typed forms (S, D, C, Z, as `names` spells them) into
// `fns`; the first name not found, or nullptr.
template <class Fn>
const char* resolve_typed(void* lib, Fn (&fns)[4], const char* const (&names)[4]) {
  for (int i = 0; i < 4; ++i)
    if (!(fns[i] = reinterpret_cast<Fn>(dlsym(lib, names[i])))) return names[i];
  return nullptr;
}

}  // namespace kiln::cuda

// One entry of an X-list of C function names, inside a resolve callable with
// `lib` and `api` in scope: api.name is the symbol of the same name.
#define KILN_RESOLVE_OR_RETURN(name) \
  if (!(api.name = reinterpret_cast<decltype(&::name)>(dlsym(lib, #name)))) return #name;
