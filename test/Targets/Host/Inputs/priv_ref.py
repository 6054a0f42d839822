# Reference for exec-private-array.cu: simulate the block in lockstep.
import sys
n = int(sys.argv[1])
out = []
for b in range(2):
    B = 40
    a = [[t * 100 + i + b * 7 for i in range(8)] for t in range(B)]
    acc = [0] * B
    for r in range(n):
        s = [a[t][(t + r) & 7] for t in range(B)]
        for t in range(B):
            acc[t] += s[(t + 1) % B]
            a[t][(t * 3 + r) & 7] += acc[t] & 15
    out += [acc[t] + a[t][t & 7] for t in range(B)]
print("arg0: " + " ".join(map(str, out)))
