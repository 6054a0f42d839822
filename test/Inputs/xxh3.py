"""XXH3-128 for the tests that rewrite containers and checkpoints, from
Debian's libxxhash (the library the runtime uses) through ctypes: the
16 bytes the readers expect (low then high 64 bits, little endian)."""
import ctypes, ctypes.util, struct

class _Hash128(ctypes.Structure):
    _fields_ = [("low64", ctypes.c_uint64), ("high64", ctypes.c_uint64)]

_lib = ctypes.CDLL(ctypes.util.find_library("xxhash") or "libxxhash.so.0")
_lib.XXH3_128bits.restype = _Hash128
_lib.XXH3_128bits.argtypes = [ctypes.c_char_p, ctypes.c_size_t]

def xxh3_128(data):
    h = _lib.XXH3_128bits(bytes(data), len(data))
    return struct.pack("<QQ", h.low64, h.high64)
