// CUDA C kernels with barriers on the CPU, as loops between the barriers.
//
// A block's threads run as fibers that switch at every __syncthreads():
// tens of nanoseconds a thread a barrier, so a tiled matmul or a shared
// memory reduction spent most of its time switching. CUDA lets a barrier
// stand only where the whole block reaches it alike, so a kernel whose
// barriers are statements of its body, or of if, for, while and do
// statements around them, can run as CPU implementations of CUDA and OpenCL
// run it (the "thread loops" of MCUDA and PoCL): the statements between two
// barriers (a region) as one loop over the block's threads, each local that
// lives across a barrier kept in an array of the block's size, a condition
// around a barrier decided once for the block by its first thread still
// running. A thread that returns, or that leaves or continues a loop around
// a barrier, waits (kiln_wait) until the statement it jumped to.
// __shared__ variables are thread_local on the CPU already (one block to an
// OS thread), so their declarations move to the top, as do constants and
// types the rest may need.
//
// This is kiln.cuda.jit's blockwise form (python/kiln/_jit/blockwise.py),
// for C: the rewrite works on tokens and statements, without types, and is
// conservative: what it cannot follow leaves the kernel as it was, with
// fibers, and a rewritten source that does not compile is compiled as the
// user wrote it (host_compiler.cpp).
#include "barrier_regions.hpp"

#include <cctype>
#include <cstring>
#include <map>
#include <set>
#include <vector>

#include "../core/device_headers.hpp"

namespace kiln::cpu {
namespace {

enum class Kind { Word, Number, Literal, Punct, Directive };
struct Token {
  Kind kind;
  size_t begin, end;  // in the source
  int line;
};

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Longest first.
const char* const kPunctuators[] = {"...", "<<=", ">>=", "->*", "::", "->", "++", "--", "<<", ">>", "<=", ">=", "==",
                                    "!=",  "&&",  "||",  "+=",  "-=", "*=", "/=", "%=", "&=", "|=", "^=", ".*", "##"};

struct Tokens {
  const std::string& s;
  std::vector<Token> t;

  explicit Tokens(const std::string& source) : s(source) {
    size_t i = 0;
    int line = 1;
    bool line_start = true;
    auto at = [&](size_t j) { return j < s.size() ? s[j] : '\0'; };
    while (i < s.size()) {
      const char c = s[i];
      if (c == '\n') {
        ++line, ++i, line_start = true;
        continue;
      }
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
        continue;
      }
      if (c == '/' && at(i + 1) == '/') {
        while (i < s.size() && s[i] != '\n') ++i;
        continue;
      }
      if (c == '/' && at(i + 1) == '*') {
        size_t close = s.find("*/", i + 2);
        close = close == std::string::npos ? s.size() : close + 2;
        for (; i < close; ++i) line += s[i] == '\n';
        continue;
      }
      const size_t begin = i;
      const int first_line = line;
      if (c == '#' && line_start) {  // a directive, with its continuation lines
        while (i < s.size() && s[i] != '\n') {
          if (s[i] == '\\' && at(i + 1) == '\n') ++line, ++i;
          ++i;
        }
        t.push_back({Kind::Directive, begin, i, first_line});
        continue;
      }
      line_start = false;
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        while (is_word_char(at(i))) ++i;
        const std::string word = s.substr(begin, i - begin);
        const bool prefix = word == "L" || word == "u" || word == "U" || word == "u8" || word == "R" ||
                            word == "LR" || word == "uR" || word == "UR" || word == "u8R";
        if (!(prefix && (at(i) == '"' || at(i) == '\''))) {
          t.push_back({Kind::Word, begin, i, first_line});
          continue;
        }
        if (word.back() == 'R' && at(i) == '"') {  // a raw string: R"delimiter( ... )delimiter"
          const size_t open = s.find('(', i);
          const std::string close = ")" + s.substr(i + 1, open == std::string::npos ? 0 : open - i - 1) + "\"";
          size_t end = open == std::string::npos ? std::string::npos : s.find(close, open);
          end = end == std::string::npos ? s.size() : end + close.size();
          for (; i < end; ++i) line += s[i] == '\n';
          t.push_back({Kind::Literal, begin, i, first_line});
          continue;
        }
      }
      if (s[i] == '"' || s[i] == '\'') {
        const char quote = s[i++];
        while (i < s.size() && s[i] != quote && s[i] != '\n') i += s[i] == '\\' ? 2 : 1;
        i = std::min(i + 1, s.size());
        t.push_back({Kind::Literal, begin, i, first_line});
        continue;
      }
      if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && std::isdigit(static_cast<unsigned char>(at(i + 1))))) {
        ++i;
        while (is_word_char(at(i)) || at(i) == '.' || at(i) == '\'' ||
               ((at(i) == '+' || at(i) == '-') && std::strchr("eEpP", s[i - 1])))
          ++i;
        t.push_back({Kind::Number, begin, i, first_line});
        continue;
      }
      size_t length = 1;
      for (const char* p : kPunctuators)
        if (s.compare(i, std::strlen(p), p) == 0) {
          length = std::strlen(p);
          break;
        }
      i += length;
      t.push_back({Kind::Punct, begin, i, first_line});
    }
  }

  size_t size() const { return t.size(); }
  bool is(size_t i, const char* text) const {
    return i < t.size() && t[i].end - t[i].begin == std::strlen(text) && s.compare(t[i].begin, t[i].end - t[i].begin, text) == 0;
  }
  bool word(size_t i) const { return i < t.size() && t[i].kind == Kind::Word; }
  std::string text(size_t i) const { return s.substr(t[i].begin, t[i].end - t[i].begin); }
  // The source from token `first` to the end of token `last - 1`.
  std::string span(size_t first, size_t last) const {
    return first >= last ? std::string() : s.substr(t[first].begin, t[last - 1].end - t[first].begin);
  }
};

// The word after a directive's '#': "pragma", "include", "define"...
std::string directive_name(const std::string& directive) {
  const size_t p = directive.find_first_not_of(" \t", 1);
  if (p == std::string::npos) return {};
  size_t e = p;
  while (e < directive.size() && is_word_char(directive[e])) ++e;
  return directive.substr(p, e - p);
}

// What the rewrite cannot follow: the kernel keeps its fibers.
struct Unsupported {};

bool opens(const Tokens& k, size_t i) { return k.is(i, "(") || k.is(i, "[") || k.is(i, "{"); }
bool closes(const Tokens& k, size_t i) { return k.is(i, ")") || k.is(i, "]") || k.is(i, "}"); }

// The bracket that closes the one at `open` (brackets of all three kinds
// nest); Unsupported if none does before `end`.
size_t match(const Tokens& k, size_t open, size_t end) {
  int depth = 0;
  for (size_t i = open; i < end; ++i) {
    if (opens(k, i)) ++depth;
    else if (closes(k, i) && --depth == 0) return i;
  }
  throw Unsupported{};
}

// The first token in [from, end) that is `text` outside brackets.
size_t find_outside(const Tokens& k, size_t from, size_t end, const char* text) {
  for (size_t i = from; i < end; ++i) {
    if (k.is(i, text)) return i;
    if (opens(k, i)) i = match(k, i, end);
  }
  return end;
}

// ---- statements ---------------------------------------------------------

struct Stmt {
  enum Kind { Simple, Block, If, For, RangeFor, While, Do, Switch, Return, Break, Continue, Case, Empty } kind = Simple;
  size_t first = 0, last = 0;  // its tokens, #pragma lines before it included
  size_t head = 0;             // its first token after those
  size_t c0 = 0, c1 = 0;       // the condition's tokens (If, While, Do, For)
  size_t i0 = 0, i1 = 0;       // a For's init statement, without its ';'
  size_t n0 = 0, n1 = 0;       // a For's increment
  std::vector<Stmt> body;      // Block: its statements; If: then (and else); loops and Switch: the body
};

class Parser {
 public:
  explicit Parser(const Tokens& k) : k_(k) {}

  std::vector<Stmt> statements(size_t first, size_t end) {
    std::vector<Stmt> list;
    for (size_t at = first; at < end;) list.push_back(statement(at, end));
    return list;
  }

 private:
  size_t parenthesised(size_t& at, size_t end, size_t* inner_first) {
    if (!k_.is(at, "(")) throw Unsupported{};
    const size_t close = match(k_, at, end);
    *inner_first = at + 1;
    at = close + 1;
    return close;
  }
  size_t until_semicolon(size_t at, size_t end) {
    const size_t semi = find_outside(k_, at, end, ";");
    if (semi == end) throw Unsupported{};
    return semi + 1;
  }

  Stmt statement(size_t& at, size_t end) {
    Stmt s;
    s.first = at;
    while (at < end && k_.t[at].kind == Kind::Directive) ++at;  // #pragma: Rewrite refused the other directives
    if (at >= end) throw Unsupported{};
    s.head = at;
    if (k_.is(at, "{")) {
      const size_t close = match(k_, at, end);
      s.kind = Stmt::Block;
      s.body = statements(at + 1, close);
      at = close + 1;
    } else if (k_.is(at, "if")) {
      s.kind = Stmt::If;
      ++at;
      if (k_.is(at, "constexpr")) ++at;
      s.c1 = parenthesised(at, end, &s.c0);
      s.body.push_back(statement(at, end));
      if (k_.is(at, "else")) {
        ++at;
        s.body.push_back(statement(at, end));
      }
    } else if (k_.is(at, "for")) {
      ++at;
      size_t inner = 0;
      const size_t close = parenthesised(at, end, &inner);
      const size_t semi1 = find_outside(k_, inner, close, ";");
      const size_t semi2 = semi1 == close ? close : find_outside(k_, semi1 + 1, close, ";");
      if (semi2 == close) {
        s.kind = Stmt::RangeFor;
      } else {
        s.kind = Stmt::For;
        s.i0 = inner, s.i1 = semi1, s.c0 = semi1 + 1, s.c1 = semi2, s.n0 = semi2 + 1, s.n1 = close;
      }
      s.body.push_back(statement(at, end));
    } else if (k_.is(at, "while") || k_.is(at, "switch")) {
      s.kind = k_.is(at, "while") ? Stmt::While : Stmt::Switch;
      ++at;
      s.c1 = parenthesised(at, end, &s.c0);
      s.body.push_back(statement(at, end));
    } else if (k_.is(at, "do")) {
      s.kind = Stmt::Do;
      ++at;
      s.body.push_back(statement(at, end));
      if (!k_.is(at, "while")) throw Unsupported{};
      ++at;
      s.c1 = parenthesised(at, end, &s.c0);
      if (!k_.is(at, ";")) throw Unsupported{};
      ++at;
    } else if (k_.is(at, "return") || k_.is(at, "break") || k_.is(at, "continue")) {
      s.kind = k_.is(at, "return") ? Stmt::Return : k_.is(at, "break") ? Stmt::Break : Stmt::Continue;
      at = until_semicolon(at, end);
    } else if (k_.is(at, "case") || (k_.is(at, "default") && k_.is(at + 1, ":"))) {
      s.kind = Stmt::Case;
      const size_t colon = find_outside(k_, at, end, ":");
      if (colon == end) throw Unsupported{};
      at = colon + 1;
    } else if (k_.is(at, "goto") || k_.is(at, "try") || (k_.word(at) && k_.is(at + 1, ":"))) {
      throw Unsupported{};  // jumps and labels
    } else if (k_.is(at, ";")) {
      s.kind = Stmt::Empty;
      ++at;
    } else {
      at = until_semicolon(at, end);
    }
    s.last = at;
    return s;
  }

  const Tokens& k_;
};

// ---- what the whole source tells ----------------------------------------

bool in(const std::string& word, std::initializer_list<const char*> words) {
  for (const char* w : words)
    if (word == w) return true;
  return false;
}

// Where a block's threads (or a warp's) meet other than at a plain
// __syncthreads(): such a kernel needs its fibers.
bool is_meeting(const std::string& w) {
  const bool sync_suffix = w.size() > 5 && w.compare(w.size() - 5, 5, "_sync") == 0;  // __shfl_sync, __ballot_sync...
  return sync_suffix || in(w, {"sync", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or", "__syncwarp",
                               "__activemask", "__shfl", "__shfl_up", "__shfl_down", "__shfl_xor", "__ballot", "__any",
                               "__all", "this_grid", "this_thread_block", "tiled_partition", "coalesced_threads",
                               "this_multi_grid", "kiln_grid_sync"});
}

const char* const kTypeKeywords[] = {"unsigned", "signed", "short", "long", "int", "char", "float", "double", "bool",
                                     "void", "wchar_t", "char16_t", "char32_t"};
bool is_type_keyword(const std::string& w) {
  for (const char* k : kTypeKeywords)
    if (w == k) return true;
  return false;
}

bool is_statement_keyword(const std::string& w) {
  return in(w, {"return", "break", "continue", "goto", "if", "else", "for", "while", "do", "switch", "case"});
}

// Function names with their bodies' tokens: whether the body meets (a
// barrier or a warp intrinsic), and the names it calls. Macros count as
// functions whose body is their replacement.
struct CallGraph {
  std::map<std::string, std::set<std::string>> calls;
  std::set<std::string> meets;

  void add_body(const std::string& name, const Tokens& k, size_t first, size_t last) {
    std::set<std::string>& callees = calls[name];
    for (size_t i = first; i < last; ++i) {
      if (!k.word(i)) continue;
      const std::string w = k.text(i);
      if (w == "__syncthreads" || is_meeting(w)) meets.insert(name);
      if (k.is(i + 1, "(")) callees.insert(w);
    }
  }
  // Everything that reaches a meeting through its calls.
  void close() {
    for (bool grew = true; grew;) {
      grew = false;
      for (const auto& [name, callees] : calls) {
        if (meets.count(name)) continue;
        for (const std::string& c : callees)
          if (meets.count(c)) {
            meets.insert(name);
            grew = true;
            break;
          }
      }
    }
  }
};

struct Function {
  std::string name;
  size_t start;                 // the first token of its declaration
  size_t params_open, params_close;  // its parameter list's parentheses
  size_t open, close;                // its body's braces
  bool kernel;
};

// The function definitions of `k`, not those nested in others' bodies.
std::vector<Function> functions(const Tokens& k) {
  std::vector<Function> found;
  size_t start = 0;  // where the current declaration began
  for (size_t i = 0; i < k.size(); ++i) {
    if (k.t[i].kind == Kind::Directive || k.is(i, ";") || k.is(i, "}")) {
      start = i + 1;
      continue;
    }
    if (!k.is(i, "{")) continue;
    size_t j = i;
    while (j > start && (k.is(j - 1, "const") || k.is(j - 1, "noexcept") || k.is(j - 1, "override") ||
                         k.is(j - 1, "final") || k.is(j - 1, "mutable")))
      --j;
    size_t open = 0;
    bool is_function = false;
    if (j > start && k.is(j - 1, ")")) {
      int depth = 0;
      for (size_t p = j; p-- > start;) {
        if (k.is(p, ")")) ++depth;
        else if (k.is(p, "(") && --depth == 0) {
          open = p;
          break;
        }
      }
      is_function = open > start && k.word(open - 1) &&
                    !in(k.text(open - 1), {"if", "for", "while", "switch", "catch", "return", "sizeof", "decltype",
                                           "alignas", "__attribute__", "__launch_bounds__", "noexcept"});
    }
    size_t close = 0;
    try {
      close = match(k, i, k.size());
    } catch (const Unsupported&) {
      return found;
    }
    if (!is_function) {  // a namespace, class or extern "C" block, or an initializer: look inside
      start = i + 1;
      continue;
    }
    bool kernel = false;
    for (size_t p = start; p < open; ++p) kernel = kernel || k.is(p, "__global__");
    found.push_back({k.text(open - 1), start, open, j - 1, i, close, kernel});
    i = close;
    start = close + 1;
  }
  return found;
}

struct Macro {
  std::string name;
  std::string replacement;
};

// `#define NAME(params) replacement` and `#define NAME replacement`.
bool parse_define(const std::string& directive, Macro* m) {
  if (directive_name(directive) != "define") return false;
  size_t p = directive.find_first_not_of(" \t", directive.find("define") + 6);
  if (p == std::string::npos) return false;
  size_t e = p;
  while (e < directive.size() && is_word_char(directive[e])) ++e;
  m->name = directive.substr(p, e - p);
  if (e < directive.size() && directive[e] == '(') e = directive.find(')', e) + 1;
  m->replacement = e == 0 || e > directive.size() ? "" : directive.substr(e);
  return !m->name.empty();
}

// The names of kiln's embedded headers' functions and macros that meet.
// Built on first use by a source that includes one of them (tokenising all
// of them takes about 20 ms, which a kernel loaded from the disk cache
// should not pay otherwise).
const std::set<std::string>& header_meetings() {
  static const std::set<std::string> names = [] {
    CallGraph graph;
    for (const auto* list : {&detail::device_headers(), &detail::face_headers()})
      for (const auto& [name, text] : *list) {
        Tokens k(text);
        for (const Function& f : functions(k)) graph.add_body(f.name, k, f.open, f.close);
        for (const Token& t : k.t) {
          Macro m;
          if (t.kind != Kind::Directive || !parse_define(text.substr(t.begin, t.end - t.begin), &m)) continue;
          Tokens r(m.replacement);
          graph.add_body(m.name, r, 0, r.size());
        }
      }
    graph.close();
    return graph.meets;
  }();
  return names;
}

// What an `#include` names, for the rewrite: kiln's own header (whose
// functions it knows), a C, C++ or CUDA library header without barriers,
// or one it cannot see through (a user's header may hide a barrier in a
// function).
enum class Include { Kiln, Library, Unknown };
Include classify_include(const std::string& directive) {
  const size_t open = directive.find_first_of("<\"");
  if (open == std::string::npos) return Include::Unknown;
  const size_t close = directive.find_first_of(">\"", open + 1);
  if (close == std::string::npos) return Include::Unknown;
  const std::string name = directive.substr(open + 1, close - open - 1);
  for (const auto* list : {&detail::device_headers(), &detail::face_headers()})
    for (const auto& [header, text] : *list)
      if (header == name) return Include::Kiln;
  if (directive[open] == '"' || name.find('/') != std::string::npos || name.rfind("cooperative_groups", 0) == 0)
    return Include::Unknown;
  const size_t dot = name.find('.');
  return dot == std::string::npos || name.compare(dot, std::string::npos, ".h") == 0 ? Include::Library
                                                                                      : Include::Unknown;
}

struct Source {
  CallGraph graph;
  std::set<std::string> types;            // names declared as types, template parameters among them
  std::set<std::string> statement_macros;  // macros that expand to statements or jumps
  std::set<std::string> constant_macros;   // macros that expand to literals and operators
};

// `=` and the compound assignments (`+=`, `<<=`...), not the comparisons.
bool is_assignment_operator(const Tokens& k, size_t i) {
  if (i >= k.size() || k.t[i].kind != Kind::Punct) return false;
  const std::string p = k.text(i);
  return p == "=" || (p.size() >= 2 && p.back() == '=' && !in(p, {"==", "!=", "<=", ">="}));
}
bool is_increment(const Tokens& k, size_t i) { return k.is(i, "++") || k.is(i, "--"); }

bool is_constant_token(const Tokens& k, size_t i, const std::set<std::string>& constants) {
  if (k.t[i].kind == Kind::Number || (k.t[i].kind == Kind::Literal && k.s[k.t[i].begin] == '\'')) return true;
  if (k.t[i].kind == Kind::Punct)
    return !(is_assignment_operator(k, i) || is_increment(k, i) || k.is(i, "{") || k.is(i, "}") || k.is(i, ";"));
  if (k.t[i].kind != Kind::Word) return false;
  const std::string w = k.text(i);
  return is_type_keyword(w) || in(w, {"sizeof", "alignof", "true", "false", "const"}) || constants.count(w);
}

// `kiln_headers`: the source includes kiln's headers, whose meetings count.
Source survey(const Tokens& k, const std::vector<Function>& fs, bool kiln_headers) {
  Source src;
  for (const Function& f : fs)
    if (!f.kernel) src.graph.add_body(f.name, k, f.open, f.close);
  if (kiln_headers) src.graph.meets.insert(header_meetings().begin(), header_meetings().end());
  for (size_t i = 0; i < k.size(); ++i) {
    if (k.t[i].kind == Kind::Directive) {
      Macro m;
      if (!parse_define(k.text(i), &m)) continue;
      Tokens r(m.replacement);
      src.graph.add_body(m.name, r, 0, r.size());
      bool statements = false, constant = true;
      for (size_t j = 0; j < r.size(); ++j) {
        statements = statements || r.is(j, ";") || r.is(j, "{") || r.is(j, "}") ||
                     (r.word(j) && is_statement_keyword(r.text(j)));
        constant = constant && is_constant_token(r, j, src.constant_macros);
      }
      if (statements) src.statement_macros.insert(m.name);
      if (constant && r.size()) src.constant_macros.insert(m.name);
      continue;
    }
    if ((k.is(i, "typename") || k.is(i, "class") || k.is(i, "struct") || k.is(i, "union") || k.is(i, "enum")) &&
        k.word(i + 1))
      src.types.insert(k.text(i + 1));
    if (k.is(i, "using") && k.word(i + 1) && k.is(i + 2, "=")) src.types.insert(k.text(i + 1));
    if (k.is(i, "typedef")) {
      const size_t semi = find_outside(k, i, k.size(), ";");
      for (size_t j = semi; j-- > i;)
        if (k.word(j)) {
          src.types.insert(k.text(j));
          break;
        }
    }
  }
  src.graph.close();
  return src;
}

bool is_known_type(const std::string& w, const Source& src) {
  if (src.types.count(w) || is_type_keyword(w)) return true;
  if (w.size() > 2 && w.compare(w.size() - 2, 2, "_t") == 0) return true;  // size_t, uint32_t...
  if (in(w, {"half", "__half", "half2", "__half2", "__nv_bfloat16", "__nv_bfloat162", "dim3"})) return true;
  // CUDA's vector types: float4, uchar2, longlong1...
  const char last = w.empty() ? '\0' : w.back();
  if (last < '1' || last > '4') return false;
  const std::string base = w.substr(0, w.size() - 1);
  return in(base, {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "longlong", "ulonglong", "float",
                   "double"});
}

// ---- declarations -------------------------------------------------------

struct Declarator {
  size_t first, last;        // all its tokens
  size_t name;               // its name's token
  size_t arrays_end;         // [name + 1, arrays_end): its array bounds
  size_t init0, init1;       // the initializer, brackets included for ( and {
  char init = 0;             // 0, '=', '(' or '{'
  bool reference = false;
};

struct Declaration {
  size_t spec0, spec1;  // the declaration specifiers (the type, const, static...)
  std::vector<Declarator> declarators;
  bool block_level = false;  // static, __shared__, constexpr, extern: one for the block
  bool is_auto = false;
};

const char* const kSpecifierWords[] = {"const",      "volatile",   "static",       "register",        "extern",
                                       "constexpr",  "inline",     "__shared__",   "__constant__",    "__device__",
                                       "__restrict__", "__restrict", "__forceinline__", "__managed__", "typename"};
bool is_specifier_word(const std::string& w) {
  for (const char* s : kSpecifierWords)
    if (w == s) return true;
  return false;
}

// The '>' that closes the template argument list opened at `open`, or `end`.
size_t close_angle(const Tokens& k, size_t open, size_t end) {
  int depth = 0;
  for (size_t i = open; i < end; ++i) {
    if (k.is(i, "<")) ++depth;
    else if (k.is(i, ">")) {
      if (--depth == 0) return i;
    } else if (k.is(i, ">>")) {
      if ((depth -= 2) <= 0) return depth == 0 ? i : end;
    } else if (k.is(i, ";") || k.is(i, "{")) {
      return end;
    } else if (opens(k, i)) {
      i = match(k, i, end);
    }
  }
  return end;
}

// Whether the statement [first, semi) (semi its ';') declares variables,
// and how.
bool parse_declaration(const Tokens& k, size_t first, size_t semi, const Source& src, Declaration* d) {
  size_t i = first;
  bool saw_type = false;
  d->spec0 = first;
  while (i < semi && k.word(i)) {
    const std::string w = k.text(i);
    if (is_specifier_word(w)) {
      d->block_level = d->block_level || in(w, {"static", "extern", "constexpr", "__shared__", "__constant__"});
      ++i;
    } else if (is_type_keyword(w)) {
      saw_type = true;
      ++i;
    } else if (w == "auto") {
      saw_type = d->is_auto = true;
      ++i;
    } else if (in(w, {"struct", "class", "union", "enum"})) {
      if (!k.word(i + 1)) return false;
      saw_type = true;
      i += 2;
    } else if (!saw_type) {  // a type's name: ns::name<args>
      size_t e = i + 1;
      while (k.is(e, "::") && k.word(e + 1)) e += 2;
      if (k.is(e, "<")) {
        const size_t close = close_angle(k, e, semi);
        if (close == semi) return false;
        e = close + 1;
      }
      // An unknown name is a type where a declarator follows: `T x`, `T* x =`.
      size_t p = e;
      while (k.is(p, "*") || k.is(p, "&") || k.is(p, "const") || k.is(p, "__restrict__")) ++p;
      const bool declarator_follows = k.word(p) && !is_statement_keyword(k.text(p)) &&
                                      (k.is(p + 1, "=") || k.is(p + 1, ";") || k.is(p + 1, ",") || k.is(p + 1, "[") ||
                                       k.is(p + 1, "(") || k.is(p + 1, "{"));
      if (!is_known_type(w, src) && w != "std" && !declarator_follows) return false;
      saw_type = true;
      i = e;
    } else {
      break;
    }
  }
  if (!saw_type || i >= semi) return false;
  d->spec1 = i;
  while (i < semi) {
    Declarator v{};
    v.first = i;
    size_t end = find_outside(k, i, semi, ",");
    // A ',' inside template arguments of an initializer is left to the
    // compiler: the rewrite then fails to compile and is not used.
    while (i < end && (k.is(i, "*") || k.is(i, "&") || k.is(i, "&&") || k.is(i, "const") || k.is(i, "volatile") ||
                       k.is(i, "__restrict__") || k.is(i, "__restrict"))) {
      v.reference = v.reference || k.is(i, "&") || k.is(i, "&&");
      ++i;
    }
    if (!k.word(i) || is_specifier_word(k.text(i)) || is_type_keyword(k.text(i))) return false;
    v.name = i++;
    while (k.is(i, "[")) i = match(k, i, end) + 1;
    v.arrays_end = i;
    if (k.is(i, "=")) {
      v.init = '=', v.init0 = i + 1, v.init1 = end;
    } else if (k.is(i, "(") || k.is(i, "{")) {
      v.init = k.is(i, "(") ? '(' : '{';
      v.init0 = i, v.init1 = match(k, i, end) + 1;
      if (v.init1 != end) return false;
    } else if (i != end) {
      return false;
    }
    v.last = end;
    d->declarators.push_back(v);
    i = end + 1;
  }
  return !d->declarators.empty();
}

// ---- the rewrite of one kernel --------------------------------------------

class Rewrite {
 public:
  Rewrite(const Tokens& k, const Source& src, const Function& f, const std::string& file)
      : k_(k), src_(src), f_(f), file_(file) {}

  // The kernel's text from its start to its closing brace, rewritten.
  std::string run() {
    check_calls();
    Parser parser(k_);
    const std::vector<Stmt> body = parser.statements(f_.open + 1, f_.close);
    read_parameters();
    scopes_.emplace_back();  // the outermost scope: the assigned parameters' per-thread copies
    for (const std::string& p : assigned_params_) scopes_.back().push_back({p, declare_storage("decltype(" + p + ")")});
    const std::vector<Variable> parameters = scopes_.back();
    scopes_.emplace_back();
    std::string code = split(body);
    scopes_.clear();

    std::string out = k_.span(f_.start, f_.params_close) + (params_.empty() ? "" : ", ") + "kiln_host::Blockwise" +
                      k_.span(f_.params_close, f_.open + 1) + "\n";
    out += "const unsigned kiln_bx = blockDim.x, kiln_by = blockDim.y, kiln_n = kiln_bx * kiln_by * blockDim.z;\n";
    out += top_;
    out += "char* kiln_base = kiln_host::block_scratch(kiln_n * (sizeof(unsigned)";
    for (int v = 0; v < variables_; ++v) out += " + sizeof(kiln_type_" + std::to_string(v) + ")";
    out += ") + 64 * " + std::to_string(variables_ + 1) + ");\n";
    out += "unsigned* const kiln_wait = kiln_host::carve<unsigned>(kiln_base, kiln_n);\n";
    for (int v = 0; v < variables_; ++v) {
      const std::string t = "kiln_type_" + std::to_string(v);
      out += "static_assert(std::is_trivially_copyable<" + t + ">::value, \"\");\n";
      out += t + "* const kiln_each_" + std::to_string(v) + " = kiln_host::carve<" + t + ">(kiln_base, kiln_n);\n";
    }
    out += "for (unsigned kiln_t = 0; kiln_t < kiln_n; ++kiln_t) {\n  kiln_wait[kiln_t] = 0;\n";
    for (const Variable& p : parameters)
      out += "  kiln_each_" + std::to_string(p.id) + "[kiln_t] = " + p.name + ";\n";
    out += "}\n" + code + "\n#line " + std::to_string(k_.t[f_.close].line) + " \"" + file_ + "\"\n}";
    return out;
  }

 private:
  struct Variable {
    std::string name;
    int id;
  };

  // Calls of functions or macros that meet, warp intrinsics, statement macros.
  void check_calls() {
    for (size_t i = f_.open; i < f_.close; ++i) {
      if (!k_.word(i)) continue;
      const std::string w = k_.text(i);
      if (w == "__syncthreads") continue;
      if (is_meeting(w) || src_.graph.meets.count(w) || src_.statement_macros.count(w)) throw Unsupported{};
    }
    for (size_t i = f_.open; i < f_.close; ++i)
      if (k_.t[i].kind == Kind::Directive && directive_name(k_.text(i)) != "pragma") throw Unsupported{};  // #if...
  }

  // The parameters' names, and those the kernel assigns (each thread's own
  // copy in CUDA, so here one per thread too).
  void read_parameters() {
    const size_t close = f_.params_close;
    if (close == f_.params_open + 2 && k_.is(close - 1, "void")) throw Unsupported{};  // (void)
    for (size_t i = f_.params_open + 1; i < close;) {
      const size_t end = find_outside(k_, i, close, ",");
      std::string name;
      for (size_t j = i; j < end; ++j) {
        if (k_.is(j, "=")) break;
        if (k_.word(j) && !is_specifier_word(k_.text(j)) && !is_type_keyword(k_.text(j))) name = k_.text(j);
      }
      if (!name.empty()) params_.push_back(name);
      i = end + 1;
    }
    for (const std::string& p : params_)
      for (size_t i = f_.open + 1; i < f_.close; ++i) {
        if (!k_.word(i) || k_.text(i) != p || k_.is(i - 1, ".") || k_.is(i - 1, "->") || k_.is(i - 1, "::")) continue;
        const bool assigned = is_assignment_operator(k_, i + 1) || is_increment(k_, i + 1) ||
                              is_increment(k_, i - 1) || address_of(i);
        if (assigned) {
          assigned_params_.push_back(p);
          break;
        }
      }
  }

  // A per-thread variable's storage: `type` the declaration's words before
  // its name, `arrays` its array bounds after it.
  int declare_storage(const std::string& type, const std::string& arrays = "") {
    const int id = variables_++;
    top_ += "typedef " + type + " kiln_type_" + std::to_string(id) + arrays + ";\n";
    return id;
  }

  std::string line_of(size_t token) const {
    return "\n#line " + std::to_string(k_.t[token].line) + " \"" + file_ + "\"\n";
  }

  bool is_barrier(const Stmt& s) const {
    return s.kind == Stmt::Simple && s.last == s.head + 4 && k_.is(s.head, "__syncthreads") && k_.is(s.head + 1, "(") &&
           k_.is(s.head + 2, ")") && k_.is(s.head + 3, ";");
  }
  bool has_barrier(size_t first, size_t last) const {
    for (size_t i = first; i < last; ++i)
      if (k_.is(i, "__syncthreads")) return true;
    return false;
  }
  bool has_barrier(const Stmt& s) const { return has_barrier(s.first, s.last); }

  // Whether `name` is read after token `after` in the kernel.
  bool used_after(const std::string& name, size_t after) const {
    for (size_t i = after; i < f_.close; ++i)
      if (k_.word(i) && k_.text(i) == name && !k_.is(i - 1, ".") && !k_.is(i - 1, "->")) return true;
    return false;
  }

  // Whether the kernel takes `name`'s address (a pointer may reach it in a
  // later region).
  bool address_taken(const std::string& name) const {
    for (size_t i = f_.open + 1; i < f_.close; ++i)
      if (k_.word(i) && k_.text(i) == name && address_of(i)) return true;
    return false;
  }
  // Whether token i follows a unary & (not a binary one: `a & b`).
  bool address_of(size_t i) const {
    return i >= 2 && k_.is(i - 1, "&") &&
           !(k_.word(i - 2) || k_.t[i - 2].kind == Kind::Number || k_.is(i - 2, ")") || k_.is(i - 2, "]"));
  }

  // Each visible per-thread variable as thread `thread`'s element.
  std::string bindings(const char* thread) const {
    std::string out;
    std::set<std::string> bound;
    for (size_t s = scopes_.size(); s-- > 0;)
      for (size_t v = scopes_[s].size(); v-- > 0;) {
        const Variable& var = scopes_[s][v];
        if (!bound.insert(var.name).second) continue;
        const std::string id = std::to_string(var.id);
        out += "kiln_type_" + id + "& " + var.name + " = kiln_each_" + id + "[" + thread + "];\n";
      }
    return out;
  }

  std::string split(const std::vector<Stmt>& list) {
    std::string out;
    std::vector<const Stmt*> region;
    for (const Stmt& s : list) {
      if (is_barrier(s)) {
        out += emit_region(region);
        region.clear();
      } else if (!has_barrier(s)) {
        region.push_back(&s);
      } else {
        out += emit_region(region);
        region.clear();
        out += split_statement(s);
      }
    }
    return out + emit_region(region);
  }

  // A statement that holds a barrier. A #pragma before it (unroll) is
  // dropped: the loop it named is not there any more.
  std::string split_statement(const Stmt& s) {
    switch (s.kind) {
      case Stmt::Block: {
        scopes_.emplace_back();
        std::string out = "{\n" + split(s.body) + "}\n";
        scopes_.pop_back();
        return out;
      }
      case Stmt::If: {
        if (has_barrier(s.c0, s.c1)) throw Unsupported{};
        std::string test;
        std::string out = uniform(s.c0, s.c1, &test);
        out += "if (" + test + ") {\n" + nested(s.body[0]) + "}";
        if (s.body.size() > 1) out += " else {\n" + nested(s.body[1]) + "}";
        return out + "\n";
      }
      case Stmt::While:
      case Stmt::Do:
      case Stmt::For:
        return split_loop(s);
      default:
        throw Unsupported{};  // a barrier in an expression, a switch, a range for...
    }
  }

  std::string nested(const Stmt& s) {
    scopes_.emplace_back();
    std::string out = split(s.kind == Stmt::Block ? s.body : std::vector<Stmt>{s});
    scopes_.pop_back();
    return out;
  }

  // A loop around a barrier: its condition decided for the block, its init
  // and increment run by every thread. Threads that `continue` wait for the
  // iteration's end, those that `break` for the loop's.
  std::string split_loop(const Stmt& s) {
    if (has_barrier(s.c0, s.c1) || has_barrier(s.i0, s.i1) || has_barrier(s.n0, s.n1)) throw Unsupported{};
    const int loop = ++loops_;
    const std::string continued = std::to_string(2 * loop), broken = std::to_string(2 * loop + 1);
    scopes_.emplace_back();  // a for's init variables
    std::string out = "{\n";
    if (s.kind == Stmt::For && s.i1 > s.i0) {
      Stmt init;
      init.kind = Stmt::Simple;
      init.first = init.head = s.i0, init.last = s.i1 + 1;  // with its ';'
      out += emit_region({&init});
    }
    out += "for (;;) {\n";
    std::string test;
    if (s.kind != Stmt::Do && s.c1 > s.c0) {
      out += uniform(s.c0, s.c1, &test) + "if (!" + test + ") break;\n";
    } else if (s.kind != Stmt::Do) {  // for (;;): ends when every thread has left it
      out += "{\nbool kiln_any = false;\nfor (unsigned kiln_t = 0; kiln_t < kiln_n; ++kiln_t) kiln_any |= !kiln_wait[kiln_t];"
             "\nif (!kiln_any) break;\n}\n";
    }
    loop_stack_.push_back(loop);
    out += nested(s.body[0]);
    loop_stack_.pop_back();
    // Parked threads go on: those that continued at the iteration's end,
    // those that left after the loop.
    auto release = [&](const std::string& code) {
      return waits_.count(code) ? "for (unsigned kiln_t = 0; kiln_t < kiln_n; ++kiln_t) if (kiln_wait[kiln_t] == " +
                                      code + "u) kiln_wait[kiln_t] = 0;\n"
                                : std::string();
    };
    out += release(continued);
    if (s.kind == Stmt::For && s.n1 > s.n0) out += increment(s.n0, s.n1);
    if (s.kind == Stmt::Do) out += uniform(s.c0, s.c1, &test) + "if (!" + test + ") break;\n";
    out += "}\n" + release(broken) + "}\n";
    scopes_.pop_back();
    return out;
  }

  std::string increment(size_t first, size_t last) {
    return thread_loop(bindings("kiln_t") + line_of(first) + k_.span(first, last) + ";\n");
  }

  std::string thread_loop(const std::string& body) {
    return "for (unsigned kiln_t = 0, kiln_z = 0; kiln_z < blockDim.z; ++kiln_z)\n"
           "for (unsigned kiln_y = 0; kiln_y < kiln_by; ++kiln_y)\n"
           "for (unsigned kiln_x = 0; kiln_x < kiln_bx; ++kiln_x, ++kiln_t) {\n"
           "if (kiln_wait[kiln_t]) continue;\n"
           "kiln_host::enter_thread(kiln_x, kiln_y, kiln_z);\n" +
           body + "}\n";
  }

  // A condition around a barrier, as the block's first running thread
  // computes it (CUDA requires it to be the same for all); false where no
  // thread runs. The code that sets `*test`.
  std::string uniform(size_t first, size_t last, std::string* test) {
    for (size_t i = first; i < last; ++i)
      if (is_assignment_operator(k_, i) || is_increment(k_, i)) throw Unsupported{};  // one thread's side effects
    *test = "kiln_test_" + std::to_string(++tests_);
    return "bool " + *test + " = false;\n{\nunsigned kiln_t = 0;\n"
           "while (kiln_t < kiln_n && kiln_wait[kiln_t]) ++kiln_t;\n"
           "if (kiln_t < kiln_n) {\n"
           "kiln_host::enter_thread(kiln_t % kiln_bx, kiln_t / kiln_bx % kiln_by, kiln_t / (kiln_bx * kiln_by));\n" +
           bindings("kiln_t") + *test + " = (bool)(" + line_of(first) + k_.span(first, last) + ");\n}\n}\n";
  }

  std::string emit_region(const std::vector<const Stmt*>& region) {
    if (region.empty()) return "";
    const int label = ++labels_;
    next_label_ = "kiln_next_" + std::to_string(label);
    region_end_ = region.back()->last;
    std::string statements;
    for (const Stmt* s : region) statements += region_statement(*s);
    std::string body = bindings("kiln_t") + "{" + statements + "\n}\n" + next_label_ + ":;\n";
    return thread_loop(body);
  }

  // One statement of a region: declarations at the region's level become
  // per-thread variables or move to the top; jumps out of the region wait.
  std::string region_statement(const Stmt& s) {
    Declaration d;
    if (s.kind == Stmt::Simple && (k_.is(s.head, "typedef") || k_.is(s.head, "using"))) {
      top_ += line_of(s.first) + k_.span(s.first, s.last) + "\n";
      return "";
    }
    if (s.kind == Stmt::Simple && (k_.is(s.head, "struct") || k_.is(s.head, "class") || k_.is(s.head, "union") ||
                                   k_.is(s.head, "enum")) &&
        find_outside(k_, s.head, s.last, "{") < s.last - 1) {
      top_ += line_of(s.first) + k_.span(s.first, s.last) + "\n";
      return "";
    }
    if (s.kind == Stmt::Simple && parse_declaration(k_, s.head, s.last - 1, src_, &d)) return declaration(s, d);
    std::map<size_t, std::pair<size_t, std::string>> edits;
    jumps(s, false, false, &edits);
    std::string out = line_of(s.first);
    size_t at = s.first;
    for (const auto& [first, edit] : edits) {
      out += k_.span(at, first) + " " + edit.second + " ";
      at = edit.first;
    }
    return out + k_.span(at, s.last);
  }

  std::string declaration(const Stmt& s, const Declaration& d) {
    const std::string spec = k_.span(d.spec0, d.spec1);
    if (d.block_level || constant(d)) {
      top_ += line_of(s.first) + k_.span(s.first, s.last) + "\n";
      for (const Declarator& v : d.declarators) constants_.insert(k_.text(v.name));
      return "";
    }
    std::string out;
    for (const Declarator& v : d.declarators) {
      const std::string name = k_.text(v.name);
      if (!used_after(name, region_end_) && !address_taken(name)) {  // lives in this region only: a plain local
        out += line_of(d.spec0) + spec + " " + k_.span(v.first, v.last) + ";\n";
        continue;
      }
      if (v.reference || (d.is_auto && (v.init != '=' || k_.is(v.init0, "{"))) ||
          (v.arrays_end > v.name + 1 && k_.is(v.arrays_end - 1, "]") && k_.is(v.arrays_end - 2, "[")))
        throw Unsupported{};  // no type to store it by, or no bound
      const int id = d.is_auto ? declare_storage(deduced_type(v.init0, v.init1))
                               : declare_storage(storage_type(d, v), k_.span(v.name + 1, v.arrays_end));
      scopes_.back().push_back({name, id});
      const std::string type = "kiln_type_" + std::to_string(id);
      switch (v.init) {
        case '=':
          if (k_.is(v.init0, "{")) out += line_of(v.init0) + "{ " + type + " kiln_init = " +
                                          k_.span(v.init0, v.init1) + "; memcpy(&" + name +
                                          ", &kiln_init, sizeof kiln_init); }\n";
          else out += line_of(v.init0) + name + " = " + k_.span(v.init0, v.init1) + ";\n";
          break;
        case '(':
          out += line_of(v.init0) + name + " = " + type + k_.span(v.init0, v.init1) + ";\n";
          break;
        case '{':
          out += line_of(v.init0) + "{ " + type + " kiln_init" + k_.span(v.init0, v.init1) + "; memcpy(&" + name +
                 ", &kiln_init, sizeof kiln_init); }\n";
          break;
        default:
          break;
      }
    }
    return out;
  }

  // The type one thread's copy is kept as, up to its name: the
  // declaration's own, without what would keep it from being assigned (const
  // of the variable itself).
  std::string storage_type(const Declaration& d, const Declarator& v) {
    const bool pointer = v.name > v.first;
    std::string type;
    for (size_t i = d.spec0; i < d.spec1; ++i) {
      const std::string w = k_.text(i);
      if (in(w, {"register", "inline", "__device__", "__forceinline__"})) continue;
      if (!pointer && in(w, {"const", "volatile"})) continue;
      type += w + " ";
    }
    size_t last_star = v.first;
    for (size_t i = v.first; i < v.name; ++i)
      if (k_.is(i, "*")) last_star = i + 1;
    return type + k_.span(v.first, last_star);
  }

  // What `auto` deduces from the initializer [first, last), at the top of
  // the kernel: the per-thread variables it reads stand in by their types.
  std::string deduced_type(size_t first, size_t last) const {
    std::string expression;
    for (size_t i = first; i < last; ++i) {
      std::string token = k_.text(i);
      if (k_.word(i) && !k_.is(i - 1, ".") && !k_.is(i - 1, "->") && !k_.is(i - 1, "::"))
        for (size_t s = scopes_.size(); s-- > 0 && token == k_.text(i);)
          for (const Variable& v : scopes_[s])
            if (v.name == token) token = "std::declval<kiln_type_" + std::to_string(v.id) + "&>()";
      expression += token + " ";
    }
    return "std::decay_t<decltype(" + expression + ")>";
  }

  // A const whose initializer is made of literals, constant macros and
  // earlier such constants: one for the block, so shared array bounds that
  // name it still compile at the top.
  bool constant(const Declaration& d) {
    bool is_const = false;
    for (size_t i = d.spec0; i < d.spec1; ++i) is_const = is_const || k_.is(i, "const");
    if (!is_const) return false;
    for (const Declarator& v : d.declarators) {
      if (v.init == 0 || v.name > v.first) return false;
      std::set<std::string> known = constants_;
      known.insert(src_.constant_macros.begin(), src_.constant_macros.end());
      const size_t first = v.init == '=' ? v.init0 : v.init0 + 1, last = v.init == '=' ? v.init1 : v.init1 - 1;
      for (size_t i = first; i < last; ++i)
        if (!is_constant_token(k_, i, known)) return false;
    }
    return true;
  }

  // Jumps in a region's statement that leave the region: return (the thread
  // is done), and break or continue of a loop around a barrier.
  void jumps(const Stmt& s, bool in_loop, bool in_switch, std::map<size_t, std::pair<size_t, std::string>>* edits) {
    auto wait = [&](const std::string& code) {
      waits_.insert(code);
      (*edits)[s.head] = {s.last, "{ kiln_wait[kiln_t] = " + code + "u; goto " + next_label_ + "; }"};
    };
    switch (s.kind) {
      case Stmt::Return:
        if (s.last != s.head + 2) throw Unsupported{};  // return with a value
        wait("1");
        return;
      case Stmt::Break:
        if (in_loop || in_switch) return;
        if (loop_stack_.empty()) throw Unsupported{};
        wait(std::to_string(2 * loop_stack_.back() + 1));
        return;
      case Stmt::Continue:
        if (in_loop) return;
        if (loop_stack_.empty()) throw Unsupported{};
        wait(std::to_string(2 * loop_stack_.back()));
        return;
      case Stmt::For:
      case Stmt::RangeFor:
      case Stmt::While:
      case Stmt::Do:
        for (const Stmt& b : s.body) jumps(b, true, in_switch, edits);
        return;
      case Stmt::Switch:
        for (const Stmt& b : s.body) jumps(b, in_loop, true, edits);
        return;
      default:
        for (const Stmt& b : s.body) jumps(b, in_loop, in_switch, edits);
    }
  }

  const Tokens& k_;
  const Source& src_;
  Function f_;
  const std::string& file_;
  std::vector<std::string> params_, assigned_params_;
  std::vector<std::vector<Variable>> scopes_;  // per-thread variables by scope, the assigned parameters first
  std::set<std::string> constants_;
  std::set<std::string> waits_;  // the kiln_wait codes jumps set
  std::vector<int> loop_stack_;
  std::string top_, next_label_;
  size_t region_end_ = 0;  // the token after the region being emitted
  int variables_ = 0, labels_ = 0, loops_ = 0, tests_ = 0;
};

}  // namespace

std::string split_at_barriers(const std::string& source, const std::string& file, const std::set<int>& as_written) {
  if (source.find("__syncthreads") == std::string::npos) return source;
  const Tokens k(source);
  bool kiln_headers = false;
  for (const Token& t : k.t) {
    if (t.kind != Kind::Directive) continue;
    const std::string d = source.substr(t.begin, t.end - t.begin);
    if (directive_name(d) != "include") continue;
    const Include include = classify_include(d);
    if (include == Include::Unknown) return source;
    kiln_headers = kiln_headers || include == Include::Kiln;
  }
  const std::vector<Function> fs = functions(k);
  const Source src = survey(k, fs, kiln_headers);
  std::string out;
  size_t copied = 0;  // source offset copied so far
  bool changed = false;
  for (const Function& f : fs) {
    bool barrier = false;
    for (size_t i = f.open; i < f.close && !barrier; ++i) barrier = k.is(i, "__syncthreads");
    if (!f.kernel || !barrier) continue;
    const auto near = as_written.lower_bound(k.t[f.start].line);
    if (near != as_written.end() && *near <= k.t[f.close].line) continue;
    std::string text;
    try {
      text = Rewrite(k, src, f, file).run();
    } catch (const Unsupported&) {
      continue;
    }
    out += source.substr(copied, k.t[f.start].begin - copied) + text;
    copied = k.t[f.close].end;
    changed = true;
  }
  return changed ? out + source.substr(copied) : source;
}

}  // namespace kiln::cpu
