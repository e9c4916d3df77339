"""A kernel's CPU form without fibers: a whole block in one call, its threads
run as loops between the barriers.

On the CPU a block's threads are fibers that switch at every
``cuda.syncthreads()``: about 45 ns a thread a barrier, so a tiled matmul or
a shared-memory reduction spent most of its time switching. CUDA lets a
barrier stand only where the whole block reaches it alike (uniform control
flow), so a kernel whose barriers are statements in its body, or in ``if``,
``while`` and ``for ... in range()`` statements around them, can run as CPU
implementations of CUDA and OpenCL run it: the statements between two
barriers (a region) as one loop over the block's threads, each thread's
locals kept in an array of the block's size, a loop or ``if`` around a
barrier decided once for the block (by its first thread still running), and
a thread that returns skipped by the regions after. Shared arrays are one
per block already (``__shared__`` is thread_local on the CPU, one block to
an OS thread), so their declarations move to the top.

What this does not take keeps fibers: warp intrinsics and block votes,
libcu++'s cuda::barrier, barriers in device functions or under other statements, a captured array's
copy() or a local array with an alignment= (local arrays are one per thread
in the block's scratch memory),
assigned parameters, ``break``/``continue`` of a loop that holds a barrier,
loops over anything but ``range()``. The GPU compiles the kernel as written:
the C++ holds both forms, the CPU one under ``#ifndef __CUDA_ARCH__``
(its trailing ``kiln_host::Blockwise`` parameter tells the runtime to call it
once a block; src/cpu/barrier_regions.cpp gives CUDA C kernels the same form).
"""
import ast

from . import types as T
from .constructs import local_arrays
from .constructs.warp_and_block import Statement
from .emit import Emitter
from .function import leaves_loop, without_last_continue

# What needs the threads of a block (or a warp) to meet anywhere else than
# at a plain barrier (libcu++'s cuda::barrier waits in a loop of its own, in
# linked CUDA C): kernels with these keep their fibers.
_MEETINGS = ("_sync(", "__syncwarp", "__activemask", "__syncthreads_", "cuda/barrier")


def lines(typed, c_name, module, kernel_lines):
    """The kernel's C++ lines in its blockwise form, or None where it keeps
    fibers (see the module's docstring). `kernel_lines` are its ordinary form."""
    body = typed.f.node.body
    normal = "\n".join(module.linked + module.definitions + module.constants + kernel_lines)
    if module.cooperative:  # a cooperative launch runs each block's threads as fibers
        return None
    if "__syncthreads()" not in "\n".join(kernel_lines) or any(m in normal for m in _MEETINGS) or \
            any("__syncthreads" in d for d in module.linked + module.definitions):
        return None
    if not _splittable(typed, body) or _assigns_parameters(typed) or _local_arrays_keep_fibers(typed):
        return None
    return BlockwiseEmitter(typed, c_name).lines


def _is_barrier(typed, node):
    if not isinstance(node, ast.Call):
        return False
    construct = typed.construct(node.func)
    return isinstance(construct, Statement) and construct.code == "__syncthreads()"


def _has_barrier(typed, node):
    return any(_is_barrier(typed, n) for n in ast.walk(node))


def _barrier_statement(typed, s):
    return isinstance(s, ast.Expr) and _is_barrier(typed, s.value)


def _splittable(typed, statements):
    """Every barrier in `statements` is a statement of its own, reached only
    through if, while and range() loops that nothing leaves early."""
    for s in statements:
        if _barrier_statement(typed, s) or not _has_barrier(typed, s):
            continue
        if isinstance(s, ast.If):
            if not (_splittable(typed, s.body) and _splittable(typed, s.orelse)):
                return False
        elif isinstance(s, (ast.For, ast.While)):
            if s.orelse or leaves_loop(without_last_continue(s.body)) or (isinstance(s, ast.For) and typed.iterations.get(s) is not None):
                return False
            if not _splittable(typed, s.body):
                return False
        else:
            return False
    return True


def _assigns_parameters(typed):
    params = set(typed.f.params)
    return any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id in params
               for n in ast.walk(typed.f.node))


def _array_statements(typed):
    return [s for s in ast.walk(typed.f.node) if isinstance(s, ast.Assign) and
            isinstance(s.targets[0], ast.Name) and s.targets[0].id in typed.arrays]


def _local_arrays_keep_fibers(typed):
    """Whether a local array is a captured array's copy(), which takes its
    values where its statement stands (a loop's body copies anew each time),
    or asks for an alignment= (the block's scratch memory aligns each
    thread's array only to its element)."""
    for s in _array_statements(typed):
        _, kind, _, values = local_arrays.describe(typed, s.value)
        if kind == "local" and (values is not None or local_arrays.alignment(typed, s.value)):
            return True
    return False


class BlockwiseEmitter(Emitter):
    """The blockwise form of a kernel (see the module's docstring): the
    ordinary emitter's statements, placed in loops over the block's threads."""

    def _function(self, c_name):
        typed = self.typed
        params = [f"{T.c_name(ty)} {name}" for name, ty in zip(self.f.params, typed.arg_types)
                  if not isinstance(ty, T.ConstantArg)]
        self.lines.append(f"KILN_JIT_NAMED_KERNEL {c_name}({', '.join(params + ['kiln_host::Blockwise'])}) {{")
        self._depth = 1
        self._labels = []
        self._count = 0
        self.line("const unsigned kiln_bx = blockDim.x, kiln_by = blockDim.y, kiln_n = kiln_bx * blockDim.y * "
                  "blockDim.z;")
        self.line("bool kiln_done[kiln_n];  // a thread that returned")
        self.per_thread = [name for name in typed.locals if name not in self.f.params]
        for name in self.per_thread:
            self.line(f"{T.c_name(typed.locals[name])} kiln_each_{name}[kiln_n];")
        self.line("for (unsigned kiln_t = 0; kiln_t < kiln_n; ++kiln_t) {")
        self.line("  kiln_done[kiln_t] = false;")
        for name in self.per_thread:
            self.line(f"  kiln_each_{name}[kiln_t] = {{}};")
        self.line("}")
        self.thread_arrays = {}  # name -> (ArrayType, shape): one per thread, in the block's scratch memory
        for s in _array_statements(typed):
            name = s.targets[0].id
            ty, kind, shape, _ = local_arrays.describe(typed, s.value, name)
            if kind == "local":
                self.thread_arrays[name] = (ty, shape)
                continue
            self.line(f'#line {s.lineno} "{self.f.filename}"')  # shared and constant arrays: one per block
            local_arrays.declare(self, name, s.value)
        if self.thread_arrays:
            types = {name: f"kiln_local_{name}" for name in self.thread_arrays}
            for name, (ty, shape) in self.thread_arrays.items():
                self.line(f"typedef {T.c_name(ty.dtype)} {types[name]}{''.join(f'[{d}]' for d in shape)};")
            size = " + ".join(f"sizeof({t})" for t in types.values())
            self.line(f"char* kiln_base = kiln_host::block_scratch(kiln_n * ({size}) + {64 * len(types)});")
            for name, (ty, shape) in self.thread_arrays.items():
                self.line(f"{types[name]}* const kiln_all_{name} = kiln_host::carve<{types[name]}>(kiln_base, kiln_n);")
                self.direct[name] = (f"kiln_all_{name}[kiln_t]", shape)
        self._split(self.f.node.body)
        self._depth = 0
        self.lines.append("}")

    def _split(self, statements):
        """Regions between the barriers, and the statements around barriers."""
        region = []
        for s in statements:
            if _barrier_statement(self.typed, s):
                self._region(region)
                region = []
            elif _has_barrier(self.typed, s):
                self._region(region)
                region = []
                self.line(f'#line {s.lineno} "{self.f.filename}"')
                getattr(self, "_split_" + type(s).__name__)(s)
            else:
                region.append(s)
        self._region(region)

    def _bind(self, thread):
        """Each local's name as this thread's element, each local array's as a
        view of this thread's (indexed directly through kiln_all_<name>)."""
        for name in self.per_thread:
            self.line(f"auto& {name} = kiln_each_{name}[{thread}];")
        for name, (ty, shape) in self.thread_arrays.items():
            data = f"reinterpret_cast<{T.c_name(ty.dtype)}*>(kiln_all_{name}[{thread}])"
            self.line(local_arrays.view_line(ty, name, data, shape))

    def _region(self, statements):
        if not statements:
            return
        self._count += 1
        label = f"kiln_next_{self._count}"
        self.line("for (unsigned kiln_t = 0, kiln_z = 0; kiln_z < blockDim.z; ++kiln_z)")
        self.line("  for (unsigned kiln_y = 0; kiln_y < kiln_by; ++kiln_y)")
        self.line("    for (unsigned kiln_x = 0; kiln_x < kiln_bx; ++kiln_x, ++kiln_t) {")
        self._depth += 3
        self.line("if (kiln_done[kiln_t]) continue;")
        self.line("kiln_host::enter_thread(kiln_x, kiln_y, kiln_z);")
        self._bind("kiln_t")
        self._labels.append(label)
        self.block(statements)
        self._labels.pop()
        self.line(f"{label}:;")
        self._depth -= 3
        self.line("    }")

    def _uniform(self, assignments):
        """`assignments` ((C++ variable, code)) computed as the block's first
        running thread computes them; none where every thread has returned
        (the variables keep what they held)."""
        self.line("{")
        self._depth += 1
        self.line("unsigned kiln_t = 0;")
        self.line("while (kiln_t < kiln_n && kiln_done[kiln_t]) ++kiln_t;")
        self.line("if (kiln_t < kiln_n) {")
        self._depth += 1
        self.line("kiln_host::enter_thread(kiln_t % kiln_bx, kiln_t / kiln_bx % kiln_by, kiln_t / (kiln_bx * kiln_by));")
        self._bind("kiln_t")
        for variable, code in assignments:
            self.line(f"{variable} = {code};")
        self._depth -= 1
        self.line("}")
        self._depth -= 1
        self.line("}")

    def _split_If(self, s):
        self._count += 1
        test = f"kiln_if_{self._count}"
        self.line(f"bool {test} = false;")
        self._uniform([(test, f"(bool)({self.expr(s.test)})")])
        self.line(f"if ({test}) {{")
        self._nested_split(s.body)
        if s.orelse:
            self.line("} else {")
            self._nested_split(s.orelse)
        self.line("}")

    def _split_While(self, s):
        self._count += 1
        test = f"kiln_while_{self._count}"
        self.line("while (true) {")
        self._depth += 1
        self.line(f"bool {test} = false;")
        self._uniform([(test, f"(bool)({self.expr(s.test)})")])
        self.line(f"if (!{test}) break;")
        self._split(s.body)
        self._depth -= 1
        self.line("}")

    def _split_For(self, s):
        self._count += 1
        n = self._count
        start, stop, step = self.range_bounds(s.iter)
        self.line(f"long long kiln_start_{n} = 0, kiln_stop_{n} = 0, kiln_step_{n} = 1;")
        self._uniform([(f"kiln_start_{n}", start), (f"kiln_stop_{n}", stop), (f"kiln_step_{n}", step)])
        self.line(f"if (kiln_step_{n} == 0) kiln_stop_{n} = kiln_start_{n};")
        counter = f"kiln_i_{n}"
        self.line(f"for (long long {counter} = kiln_start_{n}; kiln_step_{n} > 0 ? {counter} < kiln_stop_{n} : "
                  f"{counter} > kiln_stop_{n}; {counter} += kiln_step_{n}) {{")
        self._depth += 1
        self.line(f"for (unsigned kiln_t = 0; kiln_t < kiln_n; ++kiln_t) kiln_each_{s.target.id}[kiln_t] = {counter};")
        self._split(s.body)
        self._depth -= 1
        self.line("}")

    def _nested_split(self, statements):
        self._depth += 1
        self._split(statements)
        self._depth -= 1

    # A thread that returns is done: the regions after it skip it.
    def _leave(self):
        return f"{{ kiln_done[kiln_t] = true; goto {self._labels[-1]}; }}"

    def _stmt_Return(self, s):
        self.line(self._leave())

    def _assign(self, target, value, s):
        if isinstance(target, ast.Name) and target.id in self.typed.arrays:
            return  # declared at the top
        super()._assign(target, value, s)
