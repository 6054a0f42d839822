# Reference for exec-cooperative-groups.cu.
sums, info, size = [], [], []
for t in range(64):
    if t % 16 == 0:
        sums.append(sum((u << 33) | u for u in range(t, t + 16)))
    else:
        sums.append(-1)
    if t % 3 == 0:
        warp = [u for u in range(t - t % 32, t - t % 32 + 32) if u % 3 == 0]
        info.append(warp.index(t))
        size.append(len(warp))
    else:
        info.append(0xffffffff)
        size.append(0)
print("arg0: " + " ".join(map(str, sums)))
print("arg1: " + " ".join(map(str, info + size)))
