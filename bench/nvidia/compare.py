#!/usr/bin/env python3
# bench/nvidia/compare.py - ratio hetGPU/nvcc per kernel from bench.cu runs.
# SPDX-License-Identifier: Apache-2.0
#
# Usage: compare.py --nvcc RUN.txt [RUN.txt ...] --hetgpu RUN.txt [RUN.txt ...]
# Each kernel's time is the minimum over the runs given for that compiler.
import math
import sys


def parse(paths):
    kernels, first, launch, ok = {}, [], [], True
    for p in paths:
        for line in open(p):
            f = line.split()
            if not f:
                continue
            if f[0] == "KERNEL":
                kernels[f[1]] = min(kernels.get(f[1], 1e30), float(f[2]))
                ok &= f[3] == "ok"
            elif f[0] == "FIRST":
                first.append(float(f[1]))
            elif f[0] == "LAUNCH":
                launch.append(float(f[1]))
    return kernels, first, launch, ok


def main(argv):
    groups, cur = {"--nvcc": [], "--hetgpu": []}, None
    for a in argv[1:]:
        if a in groups:
            cur = a
        elif cur:
            groups[cur].append(a)
    nv, nfirst, nlaunch, nok = parse(groups["--nvcc"])
    hg, hfirst, hlaunch, hok = parse(groups["--hetgpu"])
    print("%-16s %12s %12s %8s" % ("kernel", "nvcc ms", "hetGPU ms", "ratio"))
    logs, worst = [], 0.0
    for k in nv:
        if k not in hg:
            print("%-16s %12.4f %12s" % (k, nv[k], "missing"))
            continue
        r = hg[k] / nv[k]
        logs.append(math.log(r))
        worst = max(worst, r)
        print("%-16s %12.4f %12.4f %8.3f" % (k, nv[k], hg[k], r))
    if logs:
        print("geomean ratio %.3f, worst %.3f over %d kernels" %
              (math.exp(sum(logs) / len(logs)), worst, len(logs)))
    print("first launch ms: nvcc %s, hetGPU %s (cold JIT cache first)" %
          (nfirst, hfirst))
    print("launch+sync us: nvcc %s, hetGPU %s" % (nlaunch, hlaunch))
    print("results: nvcc %s, hetGPU %s" % ("ok" if nok else "FAIL",
                                           "ok" if hok else "FAIL"))
    return 0 if (nok and hok) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
