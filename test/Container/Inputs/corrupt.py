"""Mutates a hetGPU container in many ways and checks that hetgpu-objdump
rejects every damaged copy with a 'container:' message and exit code 1
(never a crash, never success). Structural mutations recompute both
checksums so that the deeper bounds checks are exercised too."""
import os, struct, subprocess, sys, tempfile

def fnv(data):
    h = 0xcbf29ce484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h

def reseal(buf):
    buf = bytearray(buf)
    buf[32:40] = struct.pack("<Q", fnv(buf[48:]))
    buf[40:48] = struct.pack("<Q", fnv(buf[:40]))
    return bytes(buf)

objdump, path = sys.argv[1], sys.argv[2]
orig = open(path, "rb").read()
total = struct.unpack_from("<Q", orig, 16)[0]
assert total == len(orig), "container size mismatch"
cases = []
for cut in sorted(set([0, 7, 8, 47, 48, 60, len(orig) // 2, len(orig) - 1])):
    cases.append(("truncated at %d" % cut, orig[:cut]))
for pos in range(0, len(orig), max(1, len(orig) // 40)):
    b = bytearray(orig); b[pos] ^= 0x5A
    cases.append(("byte %d flipped" % pos, bytes(b)))
b = bytearray(orig); b[8:10] = struct.pack("<H", 9)
cases.append(("version 9", reseal(b)))
b = bytearray(orig); b[24:28] = struct.pack("<I", 0x7FFFFFFF)
cases.append(("huge module count", reseal(b)))
# Module record starts at 48: kind, ir major, ir minor, kernel count.
b = bytearray(orig); b[60:64] = struct.pack("<I", 0xFFFFFFFF)
cases.append(("huge kernel count", reseal(b)))
b = bytearray(orig); b[48:52] = struct.pack("<I", 77)
cases.append(("unknown module kind", reseal(b)))
b = bytearray(orig); b[68:72] = struct.pack("<I", 0xFFFFFF00)
cases.append(("huge kernel-name length", reseal(b)))
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
