# Reference for exec-warp-shuffle.cu: CUDA's shuffle semantics.
out = []
for t in range(64):
    lane, base = t % 32, t - t % 32
    v = lambda l: (base + l) * 10 + 1
    def seg(w, l, delta, up):
        lo = l - l % w
        j = l - delta if up else l + delta
        return v(j) if lo <= j < lo + w else v(l)
    out.append(v((lane + 3) % 32))
    out.append(seg(8, lane, 2, True))
    out.append(seg(16, lane, 3, False))
    if lane & 1:
        out.append(v(lane ^ 2))
    else:
        out.append(v(lane + 2) if lane + 2 < 32 else v(lane))
print("arg0: " + " ".join(map(str, out)))
