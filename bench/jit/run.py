#!/usr/bin/env python3
"""bench/jit/run.py - first-launch and whole-process cost, cold and warm.

  run.py cpu [--build BUILD] [--runs N]
      here: hetGPU's CPU device against PoCL (bench/jit/ocl_first.cpp) on the
      same cores.
  run.py stage BUILD DIR
      builds jit_bench.cu and bench/nvidia/bench.cu with hetgpu-cc (and with
      nvcc when /usr/local/cuda/bin/nvcc exists) into DIR, for the GPU machine.
  run.py gpu DIR [--runs N]
      on the GPU machine: hetGPU on the NVIDIA device against nvcc's build
      (and, cold, the build with an sm_90 image: --offload-arch=sm_90).
  run.py aot [--build BUILD] [--runs N]
      here: cold first launch on the CPU device of jit_bench.cu built
      without and with a host image (--offload-arch=host), and the ratio.

Configurations per program: "cold" (an empty JIT cache for every run, and
the driver's own compute cache off: CUDA_CACHE_DISABLE=1, POCL_KERNEL_CACHE=0)
and "warm" (the cache the first run filled); SETUP is the host work the
program does between initialising the runtime and its first launch (0 and
200 ms). Each line gives the median over the runs of the program's own
FIRST / ALL lines and of the whole process's wall time, and the ratio
hetGPU / baseline of the same run.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def run_once(cmd, env):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    wall = (time.perf_counter() - t0) * 1000
    vals = {"WALL": wall}
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) >= 2 and f[0] in ("INIT", "SETUP", "FIRST", "ALL", "WARM"):
            vals[f[0]] = float(f[1])
        if f and f[0] == "RESULT":
            vals["OK"] = f[1] == "ok"
        # bench.cu checks each kernel: "KERNEL name ms ok|WRONG".
        if f and f[0] == "KERNEL":
            vals["OK"] = vals.get("OK", True) and f[-1] == "ok"
    if p.returncode != 0:
        vals["OK"] = False
        sys.stderr.write(" ".join(cmd) + f": exit {p.returncode}\n{p.stderr[-2000:]}\n")
    return vals


def measure(cmd, base_env, cold, runs, cache_var):
    """Median of each value over `runs` runs; a fresh cache per run if cold."""
    samples = []
    cache = tempfile.mkdtemp(prefix="hetgpu-jit-bench-")
    try:
        env = dict(base_env)
        env[cache_var] = cache
        if not cold:
            run_once(cmd, env)  # fills the cache
        for _ in range(runs):
            if cold:
                shutil.rmtree(cache, ignore_errors=True)
                os.makedirs(cache)
            samples.append(run_once(cmd, env))
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    out = {}
    for k in ("WALL", "FIRST", "ALL"):
        v = [s[k] for s in samples if k in s]
        out[k] = statistics.median(v) if v else float("nan")
    out["OK"] = all(s.get("OK", False) for s in samples)
    return out


def report(rows):
    print(f"{'program':<22}{'cache':<6}{'setup':>6}  {'side':<8}"
          f"{'FIRST ms':>10}{'ALL ms':>10}{'process ms':>12}")
    for name, cache, setup, side, v, base in rows:
        line = (f"{name:<22}{cache:<6}{setup:>6}  {side:<8}{v['FIRST']:>10.2f}"
                f"{v['ALL']:>10.2f}{v['WALL']:>12.1f}")
        if base:
            r = lambda k: v[k] / base[k] if base[k] > 0 else float("nan")
            line += f"   ratio FIRST {r('FIRST'):.2f} ALL {r('ALL'):.2f} process {r('WALL'):.2f}"
        if not v["OK"]:
            line += "   WRONG RESULT"
        print(line, flush=True)


def cpu(args):
    build = args.build
    tmp = tempfile.mkdtemp(prefix="hetgpu-jit-")
    hg = os.path.join(tmp, "jit-hetgpu")
    ocl = os.path.join(tmp, "jit-ocl")
    subprocess.run([os.path.join(build, "bin/hetgpu-cc"), "-O3",
                    os.path.join(HERE, "jit_bench.cu"), "-o", hg], check=True)
    subprocess.run(["g++", "-O2", "-std=c++17", os.path.join(HERE, "ocl_first.cpp"),
                    "-o", ocl, "-lOpenCL"], check=True)
    env = dict(os.environ, HETGPU_DEVICE="cpu")
    rows = []
    for setup in ("0", "200"):
        for cold in (True, False):
            tag = "cold" if cold else "warm"
            penv = dict(env, POCL_KERNEL_CACHE="0" if cold else "1")
            base = measure([ocl, setup], penv, cold, args.runs, "POCL_CACHE_DIR")
            mine = measure([hg, setup], env, cold, args.runs, "HETGPU_CACHE_DIR")
            rows.append(("jit_bench (128 kern.)", tag, setup, "PoCL", base, None))
            rows.append(("jit_bench (128 kern.)", tag, setup, "hetGPU", mine, base))
    report(rows)
    shutil.rmtree(tmp, ignore_errors=True)


def aot(args):
    build = args.build
    tmp = tempfile.mkdtemp(prefix="hetgpu-aot-")
    plain = os.path.join(tmp, "jit-hetgpu")
    image = os.path.join(tmp, "jit-hetgpu-aot")
    cc = os.path.join(build, "bin/hetgpu-cc")
    src = os.path.join(HERE, "jit_bench.cu")
    subprocess.run([cc, "-O3", src, "-o", plain], check=True)
    subprocess.run([cc, "-O3", "--offload-arch=host", src, "-o", image], check=True)
    env = dict(os.environ, HETGPU_DEVICE="cpu")
    rows = []
    for setup in ("0",):
        base = measure([plain, setup], env, True, args.runs, "HETGPU_CACHE_DIR")
        mine = measure([image, setup], env, True, args.runs, "HETGPU_CACHE_DIR")
        warm = measure([plain, setup], env, False, args.runs, "HETGPU_CACHE_DIR")
        rows.append(("jit_bench (128 kern.)", "cold", setup, "JIT", base, None))
        rows.append(("jit_bench (128 kern.)", "cold", setup, "image", mine, base))
        rows.append(("jit_bench (128 kern.)", "warm", setup, "JIT", warm, base))
    print("ratios: against the cold JIT run")
    report(rows)
    shutil.rmtree(tmp, ignore_errors=True)


def stage(args):
    os.makedirs(args.dir, exist_ok=True)
    cc = os.path.join(args.build, "bin/hetgpu-cc")
    for src, name in ((os.path.join(HERE, "jit_bench.cu"), "jit"),
                      (os.path.join(ROOT, "bench/nvidia/bench.cu"), "bench")):
        subprocess.run([cc, "-O3", src, "-o", os.path.join(args.dir, name + "-hetgpu")], check=True)
        subprocess.run([cc, "-O3", "--offload-arch=sm_90", src, "-o",
                        os.path.join(args.dir, name + "-hetgpu-aot")], check=True)
        nvcc = "/usr/local/cuda/bin/nvcc"
        if os.path.exists(nvcc):
            subprocess.run([nvcc, "-O3", "-arch=sm_90", src, "-o",
                            os.path.join(args.dir, name + "-nvcc")], check=True)


def gpu(args):
    d = args.dir
    env = dict(os.environ, HETGPU_DEVICE="nvidia")
    rows = []
    progs = (("jit", "jit_bench (128 kern.)", ["{s}"]),
             ("bench", "bench.cu (11 kern.)", ["0.01", "1"]))
    for name, label, argv in progs:
        for setup in (("0", "200") if name == "jit" else ("0",)):
            a = [x.format(s=setup) for x in argv]
            nv = os.path.join(d, name + "-nvcc")
            base = measure([nv] + a, env, False, args.runs, "HETGPU_UNUSED") \
                if os.path.exists(nv) else None
            for cold in (True, False):
                tag = "cold" if cold else "warm"
                henv = dict(env, CUDA_CACHE_DISABLE="1" if cold else "0")
                mine = measure([os.path.join(d, name + "-hetgpu")] + a, henv, cold,
                               args.runs, "HETGPU_CACHE_DIR")
                if base and cold:
                    rows.append((label, "-", setup, "nvcc", base, None))
                rows.append((label, tag, setup, "hetGPU", mine, base))
            aotbin = os.path.join(d, name + "-hetgpu-aot")
            if os.path.exists(aotbin):
                henv = dict(env, CUDA_CACHE_DISABLE="1")
                mine = measure([aotbin] + a, henv, True, args.runs, "HETGPU_CACHE_DIR")
                rows.append((label, "cold", setup, "sm_90 img", mine, base))
    report(rows)


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="mode", required=True)
    c = sub.add_parser("cpu")
    c.add_argument("--build", default=os.path.join(ROOT, "build"))
    c.add_argument("--runs", type=int, default=3)
    s = sub.add_parser("stage")
    s.add_argument("build")
    s.add_argument("dir")
    a = sub.add_parser("aot")
    a.add_argument("--build", default=os.path.join(ROOT, "build"))
    a.add_argument("--runs", type=int, default=3)
    g = sub.add_parser("gpu")
    g.add_argument("dir")
    g.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    {"cpu": cpu, "stage": stage, "gpu": gpu, "aot": aot}[args.mode](args)


if __name__ == "__main__":
    main()
