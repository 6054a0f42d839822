# Reference for exec-warp-uniform-ops.cu: 2 blocks of 48 threads, warps of
# 32 and 16 lanes; votes over the lanes that exist (and have not exited),
# shuffles as in shfl_uniform_ref.py (a source outside the lane's segment
# or not in the warp gives the own value).
out = []
for t in range(96):
    blk, tb = t // 48, t % 48
    lane, base = tb % 32, t - tb % 32
    lanes = range(32) if tb < 32 else range(16)
    v = lambda l: (base + l) * 7 + 3
    ballot = lambda p, ls=lanes: sum(1 << l for l in ls if p(l))

    def shfl(j, lo, w):
        return v(j) if lo <= j < lo + w and j in lanes else v(lane)

    out.append(ballot(lambda l: v(l) & 1))
    out.append(1 if ballot(lambda l: v(l) % 13 == 0) else 0)
    out.append(1 if all(v(l) % 5 != 0 for l in lanes) else 0)
    out.append(shfl(lane + 3, lane - lane % 8, 8))
    out.append(shfl(lane - 5, lane - lane % 16, 16))
    out.append(shfl(lane ^ 6, 0, 32))
    out.append(shfl(lane - lane % 4 + 1, lane - lane % 4, 4))
    r = lambda l: v(l ^ 2) if (l ^ 2) in lanes else v(l)
    out.append(ballot(lambda l: r(l) % 3 == 0))
    out.append(ballot(lambda l: l < 12 and v(l) & 2) if lane < 12
               else 0xdeadbeef)
    if lane % 5 == 4 and blk == 1:
        out.append(0)
    else:
        alive = [l for l in lanes if not (l % 5 == 4 and blk == 1)]
        out.append(ballot(lambda l: v(l) & 4, alive))
print("arg0: " + " ".join(map(str, out)))
