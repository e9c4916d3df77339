"""CUDA devices: discovery, the current device, queries and ``detect()``.

In CPU mode (no GPU) device 0 is the host, so that a
CuPy program that selects, synchronises or asks the memory of its device
runs unchanged: ``with Device(0):``, ``synchronize()`` and ``mem_info`` work
(the host's memory). ``compute_capability`` ('90') and the attributes of
the kernel language (launch limits, warp size, cooperative launch, shared
memory; the CPU threads blocks run on as the multiprocessors) describe what
the CPU backend runs, as Numba's face does; what only a GPU has
(``pci_bus_id``, ``uuid``, its clocks and caches) raises CUDAError saying so."""
import os

from .. import _core
from .._core import Device as _ArrayDevice
from .backend import BUILT_WITH_CUDA, CUDAError, core


def device_count():
    """Number of CUDA devices (0 without a driver)."""
    return core()._cuda_device_count() if BUILT_WITH_CUDA else 0


def is_available():
    """Whether a CUDA driver and at least one device are present."""
    return device_count() > 0


def host_mode():
    """Whether there is no GPU: then device 0 of kiln.cuda is the host. (With
    a GPU and KILN_DEVICE=cpu, arrays go to the CPU, but the GPU and its
    runtime are still there, so kiln.cuda speaks of them.)"""
    return not is_available()


def _unavailable_reason():
    return core()._cuda_unavailable_reason() if BUILT_WITH_CUDA else "kiln was built without CUDA"


def get_device_id():
    """The current device of this thread (0, the host, in CPU mode)."""
    return 0 if host_mode() else core()._cuda_current_device()


def get_compute_capability():
    """CuPy's: the current device's compute capability ('90' for sm_90; in
    CPU mode the level of the kernel language the CPU backend runs)."""
    return Device().compute_capability


def host_memory_info():
    """(free bytes, total bytes) of the host's memory."""
    page = os.sysconf("SC_PAGE_SIZE")
    return os.sysconf("SC_AVPHYS_PAGES") * page, os.sysconf("SC_PHYS_PAGES") * page


def _index(device):
    if device is None:
        return get_device_id()
    if isinstance(device, Device):
        return device.id
    if isinstance(device, _ArrayDevice):
        if device.type != "cuda":
            raise ValueError(f"device: {device} is not a CUDA device")
        return device.index
    if isinstance(device, str):
        return _index(_ArrayDevice(device))
    return int(device)


class Device:
    """A CUDA device (CuPy's ``cupy.cuda.Device``); ``with Device(1):`` makes it current."""

    def __init__(self, device=None):
        self._host = host_mode()
        self.id = 0 if self._host and device is None else _index(device)
        if self._host and self.id != 0:
            raise CUDAError(f"CUDA device {self.id} is not available: in CPU mode kiln has one device, "
                            f"the host (device 0) ({_unavailable_reason()})")
        if not self._host and not 0 <= self.id < device_count():
            reason = "" if is_available() else f": {_unavailable_reason()}"
            raise CUDAError(f"CUDA device {self.id} is not available ({device_count()} found){reason}")
        self._previous = []

    def use(self):
        if not self._host:
            core()._cuda_set_current_device(self.id)

    def __enter__(self):
        self._previous.append(get_device_id())
        self.use()
        return self

    def __exit__(self, *exc):
        previous = self._previous.pop()
        if not self._host:
            core()._cuda_set_current_device(previous)

    def synchronize(self):
        """Wait for the device's work (on the host there is none left: each call finishes before it returns)."""
        if not self._host:
            core()._cuda_synchronize(self.id)

    def _gpu_only(self, what):
        if self._host:
            raise CUDAError(f"{what}: device 0 is the host in CPU mode, which has none "
                            f"({_unavailable_reason()})")

    @property
    def _info(self):
        self._gpu_only("device information")
        return core()._cuda_device_info(self.id)

    @property
    def name(self):
        return "host CPU" if self._host else self._info["name"]

    @property
    def compute_capability(self):
        """'90' for sm_90, as CuPy gives it."""
        return f"{self._attribute('ComputeCapabilityMajor')}{self._attribute('ComputeCapabilityMinor')}"

    def _attribute(self, name):
        """Attribute `name` (CuPy's name): the driver's; in CPU mode the
        host's (``_core._cpu_device_attributes``), a CUDAError for one only
        a GPU has."""
        if not self._host:
            return core()._cuda_device_attribute(self.id, _ATTRIBUTES[name])
        value = _core._cpu_device_attributes().get(name)
        if value is None:
            self._gpu_only(name)
        return value

    @property
    def mem_info(self):
        """(free bytes, total bytes): of the host's memory in CPU mode."""
        return host_memory_info() if self._host else core()._cuda_mem_info(self.id)

    @property
    def pci_bus_id(self):
        info = self._info
        return f"{info['pci_domain']:04x}:{info['pci_bus']:02x}:{info['pci_device']:02x}.0"

    @property
    def uuid(self):
        return self._info["uuid"]

    @property
    def attributes(self):
        """The driver's device attributes by CuPy's names (in CPU mode, those the host has)."""
        if self._host:
            return dict(_core._cpu_device_attributes())
        return {name: core()._cuda_device_attribute(self.id, code) for name, code in _ATTRIBUTES.items()}

    def __eq__(self, other):
        if isinstance(other, Device):
            return other.id == self.id
        if isinstance(other, _ArrayDevice):
            return other.type == "cpu" if self._host else other.type == "cuda" and other.index == self.id
        return NotImplemented

    def __hash__(self):
        return hash(("cuda", self.id))

    def __repr__(self):
        return "<CUDA Device 0 (the host, in CPU mode)>" if self._host else f"<CUDA Device {self.id}>"


def synchronize():
    """Wait for all work on the current device (nothing to wait for in CPU
    mode: work on the CPU is done when its call returns)."""
    if not host_mode():
        core()._cuda_synchronize(get_device_id())


def detect():
    """Print the CUDA devices as Numba's ``cuda.detect()`` does; True when one is usable."""
    if not is_available():
        reason = core()._cuda_unavailable_reason() if BUILT_WITH_CUDA else "kiln was built without CUDA"
        print(f"CUDA is not available: {reason}")
        return False
    n = device_count()
    print(f"Found {n} CUDA devices")
    supported = 0
    for i in range(n):
        info = core()._cuda_device_info(i)
        ok = (info["major"], info["minor"]) >= (5, 0)
        supported += ok
        print(f"id {i}    {info['name'].encode()!r:>40}    {'[SUPPORTED]' if ok else '[NOT SUPPORTED] (CC < 5.0)'}")
        print(f"{'Compute Capability':>40}: {info['major']}.{info['minor']}")
        print(f"{'PCI Device ID':>40}: {info['pci_device']}")
        print(f"{'PCI Bus ID':>40}: {info['pci_bus']}")
        print(f"{'UUID':>40}: {info['uuid']}")
        print(f"{'Watchdog':>40}: {'Enabled' if info['kernel_timeout'] else 'Disabled'}")
        print(f"{'FP32/FP64 Performance Ratio':>40}: {info['fp32_per_fp64']}")
    print("Summary:")
    print(f"\t{supported}/{n} devices are supported")
    return supported > 0


# CUdevice_attribute codes from cuda.h, under CuPy's attribute names.
_ATTRIBUTES = {
    "MaxThreadsPerBlock": 1, "MaxBlockDimX": 2, "MaxBlockDimY": 3, "MaxBlockDimZ": 4,
    "MaxGridDimX": 5, "MaxGridDimY": 6, "MaxGridDimZ": 7, "MaxSharedMemoryPerBlock": 8,
    "TotalConstantMemory": 9, "WarpSize": 10, "MaxPitch": 11, "MaxRegistersPerBlock": 12,
    "ClockRate": 13, "TextureAlignment": 14, "MultiProcessorCount": 16,
    "KernelExecTimeout": 17, "Integrated": 18, "CanMapHostMemory": 19, "ComputeMode": 20,
    "ConcurrentKernels": 31, "EccEnabled": 32, "PciBusId": 33, "PciDeviceId": 34,
    "MemoryClockRate": 36, "GlobalMemoryBusWidth": 37, "L2CacheSize": 38,
    "MaxThreadsPerMultiProcessor": 39, "AsyncEngineCount": 40, "UnifiedAddressing": 41,
    "PciDomainId": 50, "ComputeCapabilityMajor": 75, "ComputeCapabilityMinor": 76,
    "StreamPrioritiesSupported": 78, "GlobalL1CacheSupported": 79, "LocalL1CacheSupported": 80,
    "MaxSharedMemoryPerMultiprocessor": 81, "MaxRegistersPerMultiprocessor": 82,
    "ManagedMemory": 83, "MultiGpuBoard": 84, "SingleToDoublePrecisionPerfRatio": 87,
    "PageableMemoryAccess": 88, "ConcurrentManagedAccess": 89, "CooperativeLaunch": 95,
    "MaxSharedMemoryPerBlockOptin": 97,
}

# CUDA's enum names (CU_DEVICE_ATTRIBUTE_ without the prefix: Numba's and
# PyCUDA's spellings) for CuPy's names above.
ENUM_NAMES = {
    "MAX_THREADS_PER_BLOCK": "MaxThreadsPerBlock", "MAX_BLOCK_DIM_X": "MaxBlockDimX",
    "MAX_BLOCK_DIM_Y": "MaxBlockDimY", "MAX_BLOCK_DIM_Z": "MaxBlockDimZ", "MAX_GRID_DIM_X": "MaxGridDimX",
    "MAX_GRID_DIM_Y": "MaxGridDimY", "MAX_GRID_DIM_Z": "MaxGridDimZ",
    "MAX_SHARED_MEMORY_PER_BLOCK": "MaxSharedMemoryPerBlock", "TOTAL_CONSTANT_MEMORY": "TotalConstantMemory",
    "WARP_SIZE": "WarpSize", "MAX_PITCH": "MaxPitch", "MAX_REGISTERS_PER_BLOCK": "MaxRegistersPerBlock",
    "CLOCK_RATE": "ClockRate", "TEXTURE_ALIGNMENT": "TextureAlignment",
    "MULTIPROCESSOR_COUNT": "MultiProcessorCount", "KERNEL_EXEC_TIMEOUT": "KernelExecTimeout",
    "INTEGRATED": "Integrated", "CAN_MAP_HOST_MEMORY": "CanMapHostMemory", "COMPUTE_MODE": "ComputeMode",
    "CONCURRENT_KERNELS": "ConcurrentKernels", "ECC_ENABLED": "EccEnabled", "PCI_BUS_ID": "PciBusId",
    "PCI_DEVICE_ID": "PciDeviceId", "MEMORY_CLOCK_RATE": "MemoryClockRate",
    "GLOBAL_MEMORY_BUS_WIDTH": "GlobalMemoryBusWidth", "L2_CACHE_SIZE": "L2CacheSize",
    "MAX_THREADS_PER_MULTIPROCESSOR": "MaxThreadsPerMultiProcessor", "ASYNC_ENGINE_COUNT": "AsyncEngineCount",
    "UNIFIED_ADDRESSING": "UnifiedAddressing", "PCI_DOMAIN_ID": "PciDomainId",
    "COMPUTE_CAPABILITY_MAJOR": "ComputeCapabilityMajor", "COMPUTE_CAPABILITY_MINOR": "ComputeCapabilityMinor",
    "MAX_SHARED_MEMORY_PER_MULTIPROCESSOR": "MaxSharedMemoryPerMultiprocessor",
    "MAX_REGISTERS_PER_MULTIPROCESSOR": "MaxRegistersPerMultiprocessor", "MANAGED_MEMORY": "ManagedMemory",
    "MULTI_GPU_BOARD": "MultiGpuBoard", "COOPERATIVE_LAUNCH": "CooperativeLaunch",
    "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN": "MaxSharedMemoryPerBlockOptin",
}

