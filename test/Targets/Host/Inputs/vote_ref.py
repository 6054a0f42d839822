# Reference for exec-warp-vote.cu.
out = []
for t in range(48):
    lane, warp = t % 32, t // 32
    lanes = range(32) if warp == 0 else range(16)
    full = sum(1 << l for l in lanes)
    out.append(sum(1 << l for l in lanes if l % 3 == 0))
    out.append(sum(1 << l for l in lanes if l < 20 and l & 1) if lane < 20 else 0xdeadbeef)
    if lane >= 8:
        out.append(sum(1 << l for l in lanes if l >= 8))
    else:
        out.append(0xff | 0x80000000)
    out.append(1 if warp == 1 else 0)
    out.append(1)
    out.append(0 if lane < 10 else 0xdeadbeef)
    out.append(sum(1 << l for l in lanes if l // 4 == lane // 4))
    out.append(len(lanes))
print("arg0: " + " ".join(map(str, out)))
