#!/usr/bin/env python3
"""run-suite.py DEVICE OUTDIR DIR... : build every CUDA program of the given
test folders with hetgpu-cc and run it with HETGPU_DEVICE=DEVICE.

Prints one line per program: `<folder>/<name>: PASS`, or `XFAIL (<reason>)`
for the known gaps listed below, or `FAIL: <last lines of output>`. A
program passes when its output satisfies the file's own CHECK lines (those
naming the device they were written for, `device:`, are left out) and,
where its RUN lines do not expect failure (`not`), it exits 0."""
import os
import re
import subprocess
import sys
import tempfile

# Programs that cannot pass on a device, with the reason (docs/targets/SPIRV.md).
EXPECTED = {
    "opencl": {
        "Execution/warp.cu": "warp operations in warp-divergent code need "
                             "32-wide sub-groups; PoCL has none",
    },
}


def main():
    device, out, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, HETGPU_DEVICE=device)
    failed = 0
    for d in dirs:
        for name in sorted(os.listdir(d)):
            if not name.endswith(".cu"):
                continue
            key = os.path.basename(d.rstrip("/")) + "/" + name
            src = open(os.path.join(d, name)).read()
            if "HETGPU_LIBCUDA=" in src:
                print(f"{key}: UNSUPPORTED (tests a stand-in NVIDIA driver)")
                continue
            exe = os.path.join(out, key.replace("/", "_")[:-3])
            build = subprocess.run(["hetgpu-cc", "-O2", "-I", d,
                                    os.path.join(d, name), "-o", exe],
                                   capture_output=True, text=True)
            if build.returncode != 0:
                print(f"{key}: FAIL: build: {build.stderr.strip()[-300:]}")
                failed += 1
                continue
            runs = [l for l in src.splitlines() if "RUN:" in l]
            merge = any("2>&1" in l for l in runs if "FileCheck" in l)
            expect_fail = any(re.search(r"\bnot\b", l) for l in runs
                              if "%t" in l and "hetgpu-cc" not in l)
            try:
                run = subprocess.run([exe], stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT if merge
                                     else subprocess.PIPE,
                                     text=True, env=env, timeout=600)
                text = run.stdout
                ok = expect_fail or run.returncode == 0
                checks = [l for l in src.splitlines()
                          if not ("CHECK" in l and "device:" in l)]
                with tempfile.NamedTemporaryFile("w", suffix=".cu",
                                                 delete=False) as f:
                    f.write("\n".join(checks) + "\n")
                fc = subprocess.run(["FileCheck", f.name], input=text,
                                    capture_output=True, text=True)
                os.unlink(f.name)
                if fc.returncode != 0:
                    ok = False
                    text += "\n" + fc.stderr.strip().splitlines()[0]
            except subprocess.TimeoutExpired:
                text, ok = "timeout", False
            why = EXPECTED.get(device, {}).get(key)
            if why:
                print(f"{key}: {'XPASS' if ok else 'XFAIL'} ({why})")
                failed += ok
            elif ok:
                print(f"{key}: PASS")
            else:
                tail = " | ".join(text.strip().splitlines()[-3:])
                print(f"{key}: FAIL: {tail}")
                failed += 1
    print(f"{failed} unexpected results")
    return 0


if __name__ == "__main__":
    sys.exit(main())
