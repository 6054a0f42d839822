# Reference for exec-migration.cu.
out = []
for b in range(3):
    v = [(b * 64 + t) % 7 for t in range(64)]
    hist = [[0] * 4 for _ in range(64)]
    for r in range(70):
        acc, s = [], 0
        for t in range(64):
            s += v[t]
            acc.append(s)
        v = [x % 1000 for x in acc]
        for t in range(64):
            hist[t][(v[t] + r) & 3] += r
    out += [v[t] * 100 + hist[t][t & 3] for t in range(64)]
print("arg1: " + " ".join(map(str, out)))
