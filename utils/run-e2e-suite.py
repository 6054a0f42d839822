#!/usr/bin/env python3
# utils/run-e2e-suite.py - the end-to-end CUDA programs of test/, on any device.
# SPDX-License-Identifier: Apache-2.0
"""Build the end-to-end test programs with hetgpu-cc and run them on DEVICE.

  run-e2e-suite.py --device D --out DIR [--build-only | --prebuilt] PATH...

PATH is a test file or folder. A test takes part when one RUN line runs the
built program on a device (`env HETGPU_DEVICE=cpu %t ... | FileCheck %s`);
its `hetgpu-cc ... %s -o %t` line gives the build flags. The program passes
when its output satisfies the file's CHECK lines for the prefix that RUN line
uses (lines naming the device they were written for, `device:`, are left
out) and, unless the RUN line expects failure (`not`), it exits 0.

--build-only builds every program into DIR with a manifest (DIR/suite.json)
and runs nothing: the GPU machine has no compiler, so programs are built here
and run there with --prebuilt (FileCheck is taken from $FILECHECK or PATH).

Prints `<folder>/<name>: PASS`, `XFAIL (<reason>)` for the known gaps in
EXPECTED, `UNSUPPORTED (<reason>)` or `FAIL: <last output lines>`, then
`N unexpected results`; exits 1 when N > 0."""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

# Programs that cannot pass on a device, with the reason (docs/ per target).
EXPECTED = {
    "nvidia": {
        "Runtime/assert.cu": "checks recovery after a device-side assert; on "
                             "NVIDIA's driver the error is sticky for the "
                             "process (as CUDA documents): cudaDeviceReset "
                             "and every later call return it",
        "Runtime/trap.cu": "checks recovery after __trap(); sticky on "
                           "NVIDIA's driver, as for assert.cu",
    },
    "opencl": {},
    "tt-sim": {
        "Runtime/funcattr-occupancy.cu": "expects the CPU device's occupancy "
                                         "(8 blocks of 256 threads per SM); "
                                         "a tt-sim core runs one block at a "
                                         "time, so it reports 1",
    },
}

RUN_RE = re.compile(r"//\s*RUN:\s?(.*)$")
# A RUN line for one named device (not `all` or a list: such a program
# needs several devices and is not part of a one-device suite).
EXEC_RE = re.compile(r"(\bnot\s+)?env\s+HETGPU_DEVICE=(?!all\b)\w[\w-]*\s+%t(\S*)(.*)$")


def run_lines(src):
    """RUN lines with `\\` continuations joined."""
    out, cur = [], ""
    for line in src.splitlines():
        m = RUN_RE.search(line)
        if not m:
            continue
        text = m.group(1).rstrip()
        if text.endswith("\\"):
            cur += text[:-1] + " "
            continue
        out.append(cur + text)
        cur = ""
    return out


def describe(path):
    """The build and run recipe of one test file, or a reason to skip it."""
    src = open(path).read()
    if "HETGPU_LIBCUDA=" in src:
        return None, "tests a stand-in NVIDIA driver"
    runs = run_lines(src)
    build = exe = None
    for r in runs:
        m = EXEC_RE.search(r)
        if m and exe is None:
            exe = m
        if build is None and r.startswith("hetgpu-cc") and "%s" in r:
            build = r
    if exe is None:
        return None, None
    if build is None:
        return None, "built from several sources"
    suffix = exe.group(2)
    rest = exe.group(3)
    merge = "2>&1" in rest
    args, fc = rest.split("|", 1) if "|" in rest else (rest, "")
    args = [a for a in shlex.split(args.replace("2>&1", ""))]
    prefix = "CHECK"
    m = re.search(r"--check-prefix[=\s]+(\S+)", fc)
    if m:
        prefix = m.group(1)
    flags = shlex.split(build)[1:]
    keep, skip = [], False
    for f in flags:
        if skip:
            skip = False
            continue
        if f == "-o":
            skip = True
            continue
        if f == "%s":
            continue
        keep.append(f.replace("%S", os.path.dirname(path)))
    checks = [l for l in src.splitlines()
              if not (prefix in l and "device:" in l)]
    return {"flags": keep, "args": args, "merge": merge,
            "expect_fail": bool(exe.group(1)), "prefix": prefix,
            "checks": "\n".join(checks) + "\n",
            "suffix": suffix}, None


def collect(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += [os.path.join(p, n) for n in sorted(os.listdir(p))
                      if n.endswith(".cu")]
        else:
            files.append(p)
    return files


def key_of(path):
    return os.path.basename(os.path.dirname(os.path.abspath(path))) + "/" + \
        os.path.basename(path)


def build_all(files, out, cc):
    suite, results = [], []
    for f in files:
        key = key_of(f)
        recipe, why = describe(f)
        if recipe is None:
            if why:
                results.append((key, "UNSUPPORTED", why))
            continue
        exe = os.path.join(out, key.replace("/", "_")[:-3])
        b = subprocess.run([cc, *recipe["flags"], f, "-o", exe],
                           capture_output=True, text=True)
        if b.returncode != 0:
            results.append((key, "FAIL", "build: " + b.stderr.strip()[-300:]))
            continue
        recipe.update(key=key, exe=os.path.basename(exe))
        suite.append(recipe)
    return suite, results


def expand_args(t, out):
    """The program's command line, %t (lit's per-test temporary path) made
    a path beside the program."""
    exe = os.path.join(out, t["exe"])
    return [exe] + [a.replace("%t", exe) for a in t["args"]]


def run_one(t, out, device, filecheck):
    env = dict(os.environ, HETGPU_DEVICE=device)
    try:
        r = subprocess.run(expand_args(t, out),
                           stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT if t["merge"]
                           else subprocess.PIPE,
                           text=True, errors="replace", env=env,
                           timeout=int(os.environ.get("HETGPU_SUITE_TIMEOUT",
                                                      "600")))
    except subprocess.TimeoutExpired:
        return False, "timeout"
    text = r.stdout
    ok = t["expect_fail"] == (r.returncode != 0)
    if not ok:
        text += "\nexit status %d" % r.returncode
    with tempfile.NamedTemporaryFile("w", suffix=".cu", delete=False) as f:
        f.write(t["checks"])
    fc = subprocess.run([filecheck, f.name, "--check-prefix=" + t["prefix"]],
                        input=text, capture_output=True, text=True)
    os.unlink(f.name)
    if fc.returncode != 0:
        ok = False
        text += "\n" + (fc.stderr.strip().splitlines() or ["FileCheck"])[0]
    return ok, text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--build-only", action="store_true")
    ap.add_argument("--prebuilt", action="store_true")
    ap.add_argument("paths", nargs="*")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    manifest = os.path.join(a.out, "suite.json")
    if a.prebuilt:
        data = json.load(open(manifest))
        suite, results = data["suite"], [tuple(r) for r in data["results"]]
    else:
        cc = os.environ.get("HETGPU_CC", "hetgpu-cc")
        suite, results = build_all(collect(a.paths), a.out, cc)
        json.dump({"suite": suite, "results": results}, open(manifest, "w"))
    if a.build_only:
        print(f"built {len(suite)} programs into {a.out}")
        return 0
    filecheck = os.environ.get("FILECHECK", "FileCheck")
    for t in suite:
        ok, text = run_one(t, a.out, a.device, filecheck)
        why = EXPECTED.get(a.device, {}).get(t["key"])
        if why:
            results.append((t["key"], "XPASS" if ok else "XFAIL", why))
        elif ok:
            results.append((t["key"], "PASS", ""))
        else:
            tail = " | ".join(text.strip().splitlines()[-3:])
            results.append((t["key"], "FAIL", tail))
    bad = 0
    for key, status, why in sorted(results):
        if status in ("FAIL", "XPASS"):
            bad += 1
        if status == "PASS":
            print(f"{key}: PASS")
        elif status == "FAIL":
            print(f"{key}: FAIL: {why}")
        else:
            print(f"{key}: {status} ({why})")
    print(f"{bad} unexpected results")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
