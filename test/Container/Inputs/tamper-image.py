"""Rewrites, in place, image INDEX (default 0) of the first module of the
first container of a program, then recomputes both container checksums, so
that only the image's own fields can tell: MODE `version` adds 1 to its
translator version, `stale` flips a bit of its source hash, `damage` flips a
bit in the middle of its bytes (whose own hash then disagrees)."""
import os, struct, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Inputs"))
from xxh3 import xxh3_128

path, mode = sys.argv[1], sys.argv[2]
index = int(sys.argv[3]) if len(sys.argv) > 3 else 0
data = bytearray(open(path, "rb").read())
at = data.find(b"HETGPUFB")
assert at >= 0, "no container"
total = struct.unpack_from("<Q", data, at + 16)[0]
# The module's bitcode blob: a u32 length, then 'BC' 0xC0DE.
bc = data.find(b"BC\xc0\xde", at + 64, at + total)
assert bc > 0, "no bitcode"
c = bc + struct.unpack_from("<I", data, bc - 4)[0] + 16   # IR, IR hash
count = struct.unpack_from("<I", data, c)[0]; c += 4
assert index < count, "the module has %d images" % count
for i in range(index + 1):
    n = struct.unpack_from("<I", data, c)[0]; c += 4 + n   # target
    version, source = c, c + 8
    c += 8 + 16                                            # version, flags, source
    n = struct.unpack_from("<I", data, c)[0]
    image, size = c + 4, n
    c += 4 + n + 16                                        # bytes, their hash
if mode == "version":
    struct.pack_into("<I", data, version,
                     struct.unpack_from("<I", data, version)[0] + 1)
elif mode == "stale":
    data[source] ^= 1
elif mode == "damage":
    data[image + size // 2] ^= 0x10
else:
    sys.exit("unknown mode " + mode)
data[at + 32:at + 48] = xxh3_128(bytes(data[at + 64:at + total]))
data[at + 48:at + 64] = xxh3_128(bytes(data[at:at + 48]))
open(path, "wb").write(data)
