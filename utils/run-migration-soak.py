#!/usr/bin/env python3
# utils/run-migration-soak.py - the e2e programs under random migration.
# SPDX-License-Identifier: Apache-2.0
"""Run the end-to-end programs of test/ under HETGPU_MIGRATE=random and
check that migration changes nothing.

  run-migration-soak.py --out DIR [--seeds N] [--to LIST]... [--device D]
                        [--require-suspended] [--build-only | --prebuilt]
                        [--only KEY,...] [--logs DIR] PATH...

PATH is a test file or folder (as for utils/run-e2e-suite.py, whose recipes
are reused: build flags, arguments, CHECK lines). Every program is built
once, run once plainly on the CPU device (the reference: stdout and exit
status), then once per seed S (1..N) and per `--to` list L (default
`opencl,cpu` and `tt-sim,cpu`: the first suspension moves) with
`HETGPU_MIGRATE=random:seed=S:to=L:verbose`. A run passes when its stdout
and exit status equal the reference; a program whose two plain runs differ
(timings, addresses) is checked with its FileCheck lines instead; the
programs of EXPECTED differ by design and are reported as KNOWN. The
runtime's `hetgpu-migrate: <kernel> suspended` lines (stderr) count the
suspensions inside kernels.

Prints one line per program (`<key>: ok runs=R suspended_runs=K
suspensions=M` or `MISMATCH ...`, then per `--to` list the runs that
suspended a kernel), then `SOAK programs=P suspended_once=Q runs=R
suspensions=M mismatches=X` and `PROOF launching=L suspended_on_every_list=E
not_suspended=...`. A program launches a kernel when a run's
`hetgpu-migrate: exit: launches=N` line (printed at a normal exit) has N > 0
or a run suspended one. Exits 1 when X > 0, and with --require-suspended
also when a launching program (KNOWN ones too) was not suspended under
every `--to` list. --device D starts every run (the reference too) on D
instead of the CPU device; --build-only builds the programs into DIR with a
manifest, --prebuilt runs those (the GPU machine has no compiler:
bench/migration/run-gpu.sh --soak). --only runs just the programs whose key
(test/Runtime/assert.cu: `Runtime/assert.cu`) is in the list; --logs DIR
keeps the stdout and stderr of every mismatching run (and of its reference
run) in DIR, named after the program and the seed."""
import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no utils/__pycache__ in the source tree
spec = importlib.util.spec_from_file_location(
    "e2e", os.path.join(HERE, "run-e2e-suite.py"))
e2e = importlib.util.module_from_spec(spec)
spec.loader.exec_module(e2e)

# Programs whose output differs under migration by design, with the reason
# (docs/Migration.md, "Known limits"): reported as KNOWN, not counted.
EXPECTED = {
    "Runtime/streams-events.cu": "a watched launch (random trigger) runs to "
                                 "its end inside cudaLaunchKernel, so the "
                                 "program's check that launches are "
                                 "asynchronous fails",
    "Runtime/graph-stream-order.cu": "it checks that a graph launch returns "
                                     "before a slow kernel queued ahead of "
                                     "it ends; a watched launch (random "
                                     "trigger) runs that kernel to its end "
                                     "inside cudaLaunchKernel",
    "Runtime/bad-api-table.cu": "device memory is the 64 GiB arena, so "
                                "stray stores 4 GiB past an allocation land "
                                "in it instead of faulting",
    "Runtime/funcattr-occupancy.cu": "it prints occupancy queries made "
                                     "after a launch: once the context has "
                                     "moved to tt-sim (one block per core) "
                                     "the moved device answers them",
    "Execution/math-ulp.cu": "it prints the measured ulp error of the math "
                             "library of the device that runs each block: "
                             "blocks suspended at block entry and resumed "
                             "on OpenCL use PoCL's libm",
}

# ... and those that differ by design only when every run starts on one
# device (--device).
EXPECTED_FROM = {
    "nvidia": {
        "Runtime/trap.cu": "after its trap, NVIDIA's driver keeps the error "
                           "past cudaDeviceReset, so the reference run on "
                           "the GPU fails; a run that moved to the CPU "
                           "device before the trap recovers and passes",
        "Runtime/assert.cu": "the same after its failed device assert",
    },
}

SUSPENDED_RE = re.compile(r"^hetgpu-migrate: \S+ suspended", re.M)
EXIT_RE = re.compile(r"^hetgpu-migrate: exit: launches=(\d+)", re.M)


DEVICE = "cpu"  # --device: where every run starts


def run(t, out, env_extra):
    env = dict(os.environ, HETGPU_DEVICE=DEVICE)
    env.pop("HETGPU_MIGRATE", None)  # the reference run is a plain one
    env.update(env_extra)
    try:
        r = subprocess.run(e2e.expand_args(t, out),
                           capture_output=True, text=True, errors="replace",
                           env=env,
                           timeout=int(os.environ.get("HETGPU_SOAK_TIMEOUT",
                                                      "300")))
    except subprocess.TimeoutExpired:
        return None
    return r.returncode, r.stdout, r.stderr


def filecheck_ok(t, text, filecheck):
    with tempfile.NamedTemporaryFile("w", suffix=".cu", delete=False) as f:
        f.write(t["checks"])
    fc = subprocess.run([filecheck, f.name, "--check-prefix=" + t["prefix"]],
                        input=text, capture_output=True, text=True)
    os.unlink(f.name)
    return fc.returncode == 0


def keep_log(folder, key, tag, r, ref):
    os.makedirs(folder, exist_ok=True)
    stem = os.path.join(folder, key.replace("/", "_") + "." + tag)
    for name, res in (("run", r), ("ref", ref)):
        with open(f"{stem}.{name}", "w") as f:
            f.write(f"exit {res[0]}\n--- stdout\n{res[1]}\n--- stderr\n"
                    f"{res[2][-20000:]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--to", action="append")
    ap.add_argument("--require-suspended", action="store_true")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--build-only", action="store_true")
    ap.add_argument("--prebuilt", action="store_true")
    ap.add_argument("--only", default="")
    ap.add_argument("--logs")
    ap.add_argument("paths", nargs="*")
    a = ap.parse_args()
    targets = a.to or ["opencl,cpu", "tt-sim,cpu"]
    os.makedirs(a.out, exist_ok=True)
    global DEVICE
    DEVICE = a.device
    cc = os.environ.get("HETGPU_CC", "hetgpu-cc")
    filecheck = os.environ.get("FILECHECK", "FileCheck")
    manifest = os.path.join(a.out, "soak.json")
    if a.prebuilt:
        data = json.load(open(manifest))
        suite, skipped = data["suite"], [tuple(r) for r in data["skipped"]]
    else:
        suite, skipped = e2e.build_all(e2e.collect(a.paths), a.out, cc)
        json.dump({"suite": suite, "skipped": skipped}, open(manifest, "w"))
    if a.build_only:
        print(f"built {len(suite)} programs into {a.out}")
        return 0
    for key, status, why in sorted(skipped):
        print(f"{key}: {status} ({why})")
    programs = suspended_once = runs = suspensions = mismatches = 0
    launching = 0
    not_suspended = []
    only = set(k for k in a.only.split(",") if k)
    for t in suite:
        if only and t["key"] not in only:
            continue
        ref = run(t, a.out, {})
        ref2 = run(t, a.out, {})
        if ref is None or ref2 is None:
            print(f"{t['key']}: SKIPPED (plain run timed out)")
            continue
        exact = ref[:2] == ref2[:2]
        programs += 1
        n_runs = n_susp_runs = n_susp = 0
        launches = 0
        per_list = {}
        bad = []
        for to in targets:
            per_list[to] = 0
            for s in range(1, a.seeds + 1):
                spec_ = f"random:seed={s}:to={to}:verbose"
                r = run(t, a.out, {"HETGPU_MIGRATE": spec_})
                n_runs += 1
                if r is None:
                    bad.append(f"{spec_}: timeout")
                    continue
                k = len(SUSPENDED_RE.findall(r[2]))
                n_susp += k
                n_susp_runs += k > 0
                per_list[to] += k > 0
                launches = max([launches, k] +
                               [int(n) for n in EXIT_RE.findall(r[2])])
                if exact:
                    same = r[:2] == ref[:2]
                else:
                    same = (r[0] == ref[0] and
                            filecheck_ok(t, r[1] + (r[2] if t["merge"]
                                                    else ""), filecheck))
                if not same:
                    bad.append(f"{spec_}: exit {r[0]} (reference {ref[0]})")
                    if a.logs:
                        keep_log(a.logs, t["key"], f"{s}.{to}", r, ref)
        runs += n_runs
        suspensions += n_susp
        suspended_once += n_susp_runs > 0
        known = (EXPECTED.get(t["key"]) or
                 EXPECTED_FROM.get(DEVICE, {}).get(t["key"]))
        if known and bad:
            word = f"KNOWN ({known})"
        else:
            mismatches += len(bad)
            word = "ok" if not bad else "MISMATCH " + "; ".join(bad[:3])
        check = "" if exact else " (FileCheck)"
        lists = " ".join(f"{to}:{n}" for to, n in per_list.items())
        if launches:
            launching += 1
            missed = [to for to, n in per_list.items() if not n]
            if missed:
                not_suspended.append(f"{t['key']} ({','.join(missed)})")
        else:
            lists += " (no migratable launch)"
        print(f"{t['key']}: {word}{check} runs={n_runs} "
              f"suspended_runs={n_susp_runs} suspensions={n_susp} "
              f"suspended_per_list={lists}")
    print(f"SOAK programs={programs} suspended_once={suspended_once} "
          f"runs={runs} suspensions={suspensions} mismatches={mismatches}")
    print(f"PROOF launching={launching} "
          f"suspended_on_every_list={launching - len(not_suspended)} "
          f"not_suspended={'; '.join(not_suspended) or '-'}")
    if a.require_suspended and not_suspended:
        return 1
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
