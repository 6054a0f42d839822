# Reference for exec-tiled-matmul.cu (all values are small integers, so the
# float sums are exact).
K, M, N = 24, 16, 24
A = [float(i % 5) for i in range(1152)]
B = [float(i % 3) for i in range(1152)]
C = [sum(A[r * K + k] * B[k * N + c] for k in range(K))
     for r in range(M) for c in range(N)]
def g(x):
    return "%g" % x
print("arg0: " + " ".join(g(x) for x in A))
print("arg1: " + " ".join(g(x) for x in B))
print("arg2: " + " ".join(g(x) for x in C))
