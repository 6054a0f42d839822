#!/usr/bin/env python3
# test/Execution/run-prebuilt.py - run GPU execution tests whose programs
# were built elsewhere (the device machine has no compiler).
# SPDX-License-Identifier: Apache-2.0
#
#   run-prebuilt.py BINDIR TEST.cu...
#
# For each TEST.cu, runs BINDIR/<stem> with the environment given (e.g.
# HETGPU_DEVICE=nvidia) and checks, like FileCheck with literal patterns,
# that the `// CHECK:` lines appear in order on stdout, that no `CHECK-NOT:`
# text appears after the last match, and that `// MSG:` lines appear on
# stderr. Prints PASS/FAIL per test and a summary; exits 1 on any failure.
import os
import re
import subprocess
import sys
import time


def patterns(src, prefix):
    out = []
    for line in open(src):
        m = re.match(r"\s*//\s*%s:\s?(.*)$" % re.escape(prefix), line)
        if m:
            out.append(m.group(1).rstrip())
    return out


def check_in_order(text, pats):
    pos = 0
    for p in pats:
        i = text.find(p, pos)
        if i < 0:
            return "missing '%s'" % p
        pos = i + len(p)
    return None


def main(argv):
    bindir, tests = argv[1], argv[2:]
    failed = 0
    for src in tests:
        stem = os.path.splitext(os.path.basename(src))[0]
        exe = os.path.join(bindir, stem)
        t0 = time.time()
        try:
            r = subprocess.run([exe], capture_output=True, text=True, timeout=300)
            out, err, rc = r.stdout, r.stderr, r.returncode
        except Exception as e:  # missing binary, timeout
            out, err, rc = "", str(e), -1
        why = check_in_order(out, patterns(src, "CHECK"))
        if not why:
            for p in patterns(src, "CHECK-NOT"):
                if p in out:
                    why = "unexpected '%s'" % p
        if not why:
            why = check_in_order(err, patterns(src, "MSG"))
        if not why and rc != 0 and "PASS" not in out:
            why = "exit status %d" % rc
        dt = time.time() - t0
        if why:
            failed += 1
            print("FAIL %s (%.1fs): %s" % (stem, dt, why))
            sys.stdout.write("  stdout: " + out[-3000:].replace("\n", "\n  stdout: ") + "\n")
            sys.stdout.write("  stderr: " + err[-2000:].replace("\n", "\n  stderr: ") + "\n")
        else:
            print("PASS %s (%.1fs)" % (stem, dt))
    print("%d of %d passed" % (len(tests) - failed, len(tests)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
