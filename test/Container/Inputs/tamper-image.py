"""Rewrites, in place, image INDEX (default 0) of the first module of the
first container of a program, then recomputes both container checksums, so
that only the image's own fields can tell: MODE `version` adds 1 to its
translator version, `stale` flips a bit of its source hash, `damage` flips a
bit in the middle of its bytes (whose own hash then disagrees). MODE
`as-2.1` rewrites, in place, a 2.2 container whose images all hold the whole module
(no kernel lists) as the 2.1 container an older hetgpu-cc wrote."""
import os, struct, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Inputs"))
from xxh3 import xxh3_128

path, mode = sys.argv[1], sys.argv[2]
index = int(sys.argv[3]) if len(sys.argv) > 3 else 0
data = bytearray(open(path, "rb").read())
at = data.find(b"HETGPUFB")
assert at >= 0, "no container"
total = struct.unpack_from("<Q", data, at + 16)[0]
minor = struct.unpack_from("<H", data, at + 10)[0]
# The module's bitcode blob: a u32 length, then 'BC' 0xC0DE.
bc = data.find(b"BC\xc0\xde", at + 64, at + total)
assert bc > 0, "no bitcode"
c = bc + struct.unpack_from("<I", data, bc - 4)[0] + 16   # IR, IR hash
count = struct.unpack_from("<I", data, c)[0]; c += 4
assert mode == "as-2.1" or index < count, "the module has %d images" % count
kernel_lists = []
for i in range(count if mode == "as-2.1" else index + 1):
    n = struct.unpack_from("<I", data, c)[0]; c += 4 + n   # target
    version, source = c, c + 8
    c += 8 + 16                                            # version, flags, source
    if minor >= 2:                                         # 2.2: kernel list
        kernel_lists.append(c)
        nk = struct.unpack_from("<I", data, c)[0]; c += 4
        for k in range(nk):
            c += 4 + struct.unpack_from("<I", data, c)[0]
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
elif mode == "as-2.1":
    assert minor == 2, "not a 2.2 container"
    for k in reversed(kernel_lists):
        assert struct.unpack_from("<I", data, k)[0] == 0, "an image of a kernel group"
        del data[k:k + 4]
    total -= 4 * len(kernel_lists)
    # The file keeps its size (an ELF section): zeros after the container,
    # which readers skip.
    data[at + total:at + total] = bytes(4 * len(kernel_lists))
    struct.pack_into("<H", data, at + 10, 1)
    struct.pack_into("<Q", data, at + 16, total)
else:
    sys.exit("unknown mode " + mode)
data[at + 32:at + 48] = xxh3_128(bytes(data[at + 64:at + total]))
data[at + 48:at + 64] = xxh3_128(bytes(data[at:at + 48]))
open(path, "wb").write(data)
