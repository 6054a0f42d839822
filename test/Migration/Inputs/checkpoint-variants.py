"""Reads a memory-only checkpoint (version 4) and writes variants of it with
recomputed checksums, each lying in one field: OUT.<name>. The launch
variants name kernel KERNEL and point its first (pointer) argument into or
far past the checkpoint's first allocation."""
import os, struct, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Inputs"))
from xxh3 import xxh3_128

src, out, kernel = sys.argv[1], sys.argv[2], sys.argv[3].encode()
d = open(src, "rb").read()
assert struct.unpack_from("<II", d) == (0x4b434748, 4), "not a version 4 checkpoint"
p, pos = d[32:], 0
def take(n):
    global pos
    b = p[pos:pos + n]; pos += n; return b
def blob():
    return take(struct.unpack("<Q", take(8))[0])
blob(); dev = struct.unpack("<I", take(4))[0]; taken = blob()
take(24); take(8); blob(); blob()
allocs = []
for _ in range(struct.unpack("<Q", take(8))[0]):
    base = struct.unpack("<Q", take(8))[0]; allocs.append((base, blob()))
base = allocs[0][0]

def image(kernel=b"", grid=(1, 1, 1), block=(1, 1, 1), dyn=0, args=b"", state=b""):
    s = lambda b: struct.pack("<Q", len(b)) + b
    q = s(kernel) + struct.pack("<I", dev) + s(taken) + struct.pack("<6I", *grid, *block)
    q += struct.pack("<Q", dyn) + s(args) + s(state) + struct.pack("<Q", len(allocs))
    for a, b in allocs:
        q += struct.pack("<Q", a) + s(b)
    return struct.pack("<IIQ", 0x4b434748, 4, len(q)) + xxh3_128(q) + q

def args(ptr, size=36):   # (int *, int) + the 3 hidden parameters
    return (struct.pack("<Qi", ptr, 7) + bytes(size)) [:size]

variants = {
    "dynshared": image(dyn=2**64 - 1),
    "block": image(block=(2048, 1, 1)),
    "grid": image(grid=(0, 1, 1)),
    "wildptr": image(kernel, args=args(base + 2**34)),
    "argsize": image(kernel, args=args(base, 12)),
    "devshared": image(kernel, dyn=1 << 29, args=args(base)),
}
for name, data in variants.items():
    open(out + "." + name, "wb").write(data)
