# Reference for exec-warp-shuffle-uniform.cu: CUDA's shuffle semantics
# (a source outside the lane's width-segment gives the lane's own value,
# except that xor may read earlier segments).
out = []
for t in range(64):
    lane, base = t % 32, t - t % 32
    v = lambda l: (base + l) * 3 + 1
    def src(w, j):
        lo = lane - lane % w
        return v(j) if lo <= j < lo + w else v(lane)
    out.append(v(5))
    out.append(v(lane - lane % 8 + 3))
    out.append(v(lane ^ 1))
    # xor with 6 at width 4 leaves the 4-lane segment: CUDA returns the
    # source from an earlier segment, the own value for a later one.
    j = lane ^ 6
    out.append(v(j) if j < lane - lane % 4 + 4 else v(lane))
    out.append(src(32, lane - 3))
    out.append(src(16, lane + 5))
print("arg0: " + " ".join(map(str, out)))
