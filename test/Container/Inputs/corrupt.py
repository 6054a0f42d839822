"""Mutates a hetGPU container in many ways and checks that hetgpu-objdump
rejects every damaged copy with a 'container:' message and exit code 1
(never a crash, never success). Structural mutations recompute both
checksums (XXH3-128, from libxxhash through ctypes) so that the deeper
bounds and consistency checks are exercised too."""
import os, struct, subprocess, sys, tempfile
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Inputs"))
from xxh3 import xxh3_128

def reseal(buf):
    buf = bytearray(buf)
    buf[32:48] = xxh3_128(bytes(buf[64:]))
    buf[48:64] = xxh3_128(bytes(buf[:48]))
    return bytes(buf)

objdump, path = sys.argv[1], sys.argv[2]
orig = open(path, "rb").read()
total = struct.unpack_from("<Q", orig, 16)[0]
assert total == len(orig), "container size mismatch"
cases = []
for cut in sorted(set([0, 7, 8, 47, 48, 63, 64, 80, len(orig) // 2, len(orig) - 1])):
    cases.append(("truncated at %d" % cut, orig[:cut]))
for pos in range(0, len(orig), max(1, len(orig) // 40)):
    b = bytearray(orig); b[pos] ^= 0x5A
    cases.append(("byte %d flipped" % pos, bytes(b)))
b = bytearray(orig); b[8:10] = struct.pack("<H", 9)
cases.append(("version 9", reseal(b)))
b = bytearray(orig); b[24:28] = struct.pack("<I", 0x7FFFFFFF)
cases.append(("huge module count", reseal(b)))
b = bytearray(orig); b[8:10] = struct.pack("<H", 1)
cases.append(("version 1 (FNV checksums)", reseal(b)))
b = bytearray(orig); b[28:32] = struct.pack("<I", 1)
cases.append(("unknown flags", reseal(b)))
# Module record starts at 64: kind, ir major, ir minor, kernel count.
b = bytearray(orig); b[76:80] = struct.pack("<I", 0xFFFFFFFF)
cases.append(("huge kernel count", reseal(b)))
b = bytearray(orig); b[64:68] = struct.pack("<I", 77)
cases.append(("unknown module kind", reseal(b)))
b = bytearray(orig); b[84:88] = struct.pack("<I", 0xFFFFFF00)
cases.append(("huge kernel-name length", reseal(b)))
# The first kernel's parameters: after its two names, u32 count, then
# {kind, size, align, offset} each.
name_len = struct.unpack_from("<I", orig, 84)[0]
dem_at = 88 + name_len
dem_len = struct.unpack_from("<I", orig, dem_at)[0]
params_at = dem_at + 4 + dem_len
nparams = struct.unpack_from("<I", orig, params_at)[0]
assert nparams >= 2, "the first kernel needs two parameters"
p0 = params_at + 4
buf_at = p0 + 16 * nparams
b = bytearray(orig); b[p0 + 12:p0 + 16] = struct.pack("<I", 0x10000)
cases.append(("parameter offset outside the buffer", reseal(b)))
b = bytearray(orig); b[p0 + 16 + 12:p0 + 32] = struct.pack("<I", 4)
cases.append(("parameter 1 overlapping parameter 0", reseal(b)))
b = bytearray(orig); b[p0 + 4:p0 + 8] = struct.pack("<I", 4)
cases.append(("pointer of 4 bytes", reseal(b)))
b = bytearray(orig); b[p0 + 8:p0 + 12] = struct.pack("<I", 3)
cases.append(("alignment 3", reseal(b)))
b = bytearray(orig); b[buf_at:buf_at + 4] = struct.pack("<I", 0xFFFFFFF0)
cases.append(("parameter buffer size past the end of its parameters", reseal(b)))
b = bytearray(orig); b[buf_at + 4:buf_at + 12] = struct.pack("<Q", 2**64 - 1)
cases.append(("static shared 2^64-1", reseal(b)))
b = bytearray(orig); b[buf_at + 16:buf_at + 20] = struct.pack("<I", 4096)
cases.append(("launch bound of 4096 threads", reseal(b)))
b = bytearray(orig) + b"\0" * 8
b[16:24] = struct.pack("<Q", len(b))
cases.append(("trailing bytes", reseal(b)))

bad = 0
with tempfile.TemporaryDirectory() as d:
    for name, data in cases:
        f = os.path.join(d, "c.bin")
        open(f, "wb").write(data)
        r = subprocess.run([objdump, f], capture_output=True, text=True,
                           errors="replace")
        # With the magic intact the container reader must name the problem;
        # without it the input is not a container and any clear error will do.
        magic_ok = data[:8] == b"HETGPUFB"
        if r.returncode != 1 or "error" not in r.stderr or (
                magic_ok and "container:" not in r.stderr):
            bad += 1
            print("FAIL %s: exit %d, stderr %r" % (name, r.returncode, r.stderr[:200]))
print("checked %d damaged containers, %d accepted or crashed" % (len(cases), bad))
sys.exit(1 if bad else 0)
