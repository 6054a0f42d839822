"""Rewrites, in place, the first container of a program: the byval
parameter of its first kernel gets SIZE bytes, the parameters after it
are re-laid out and both checksums recomputed, so the container reader
sees consistent tables that contradict the IR."""
import os, struct, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Inputs"))
from xxh3 import xxh3_128

path, size = sys.argv[1], int(sys.argv[2])
data = bytearray(open(path, "rb").read())
at = data.find(b"HETGPUFB")
assert at >= 0, "no container"
total = struct.unpack_from("<Q", data, at + 16)[0]
c = at + 64                                  # first module
c += 20                                      # kind, ir version, counts
n = struct.unpack_from("<I", data, c)[0]; c += 4 + n   # name
n = struct.unpack_from("<I", data, c)[0]; c += 4 + n   # demangled
np = struct.unpack_from("<I", data, c)[0]; c += 4
params = [list(struct.unpack_from("<4I", data, c + 16 * i)) for i in range(np)]
assert any(p[0] == 2 for p in params), "no byval parameter"
off = 0
for p in params:
    if p[0] == 2:
        p[1] = size
    off = (off + p[2] - 1) & ~(p[2] - 1)
    p[3] = off
    off += p[1]
for i, p in enumerate(params):
    struct.pack_into("<4I", data, c + 16 * i, *p)
struct.pack_into("<I", data, c + 16 * np, off)   # parameter buffer size
data[at + 32:at + 48] = xxh3_128(bytes(data[at + 64:at + total]))
data[at + 48:at + 64] = xxh3_128(bytes(data[at:at + 48]))
open(path, "wb").write(data)
