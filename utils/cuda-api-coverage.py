#!/usr/bin/env python3
"""utils/cuda-api-coverage.py - what of the CUDA runtime API hetGPU implements.

Reads the function declarations of a CUDA toolkit's cuda_runtime_api.h (grouped
by its doxygen \\defgroup sections), the declarations of hetGPU's own
runtime/include/cuda_runtime_api.h and the symbols libhetgpu-rt.so exports,
and prints a Markdown summary per group: implemented / total, and the names
that are missing (a program calling one fails to compile: the identifier is
undeclared).

  utils/cuda-api-coverage.py [--cuda /usr/local/cuda] [--lib build/lib/libhetgpu-rt.so]
  utils/cuda-api-coverage.py --check   # exit 1 if a declared function is not exported

The toolkit header is read for its list of names only (tests-only use of the
toolkit); nothing of it is copied.
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DECL = re.compile(r"\b(cuda[A-Z][A-Za-z0-9_]*)\s*\(")


def toolkit_groups(header):
    """{group title: [function names]} in the header's order."""
    groups, order, current = {}, [], "Other"
    ids = {}
    decl_buf = ""
    with open(header, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.search(r"\\defgroup\s+(CUDART_\w+)\s+(.*?)\s*(\*/)?$", line)
            if m:
                current = ids[m.group(1)] = m.group(2).strip()
                continue
            m = re.search(r"\\addtogroup\s+(CUDART_\w+)", line)
            if m:
                current = ids.get(m.group(1), m.group(1))
                continue
            if (line.startswith("extern") and "__host__" in line) or decl_buf:
                decl_buf += line
                m = DECL.search(decl_buf)
                if m:
                    name = m.group(1)
                    if current not in groups:
                        groups[current] = []
                        order.append(current)
                    if name not in groups[current]:
                        groups[current].append(name)
                    decl_buf = ""
                elif ";" in decl_buf or len(decl_buf) > 2000:
                    decl_buf = ""
    return [(g, groups[g]) for g in order]


def declared_names(header):
    text = open(header, encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"^\s*#.*$", "", text, flags=re.M)
    names = set()
    for stmt in re.split(r"[;{}]", text):
        # A declaration: the name is the first thing followed by '('.
        m = re.match(r"[^()]*\b(cuda[A-Z][A-Za-z0-9_]*)\s*\(", stmt)
        if m and not re.match(r"\s*return\b", stmt):
            names.add(m.group(1))
    return names


def exported_names(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True,
                         capture_output=True, text=True).stdout
    return {l.split()[-1] for l in out.splitlines() if l.split()[-1].startswith("cuda")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuda", default="/usr/local/cuda")
    ap.add_argument("--lib", default=os.path.join(ROOT, "build/lib/libhetgpu-rt.so"))
    ap.add_argument("--header", default=os.path.join(ROOT, "runtime/include/cuda_runtime_api.h"))
    ap.add_argument("--check", action="store_true",
                    help="only check that every declared function is exported")
    a = ap.parse_args()

    ours = declared_names(a.header)
    exported = exported_names(a.lib)
    unexported = sorted(ours - exported)
    if a.check:
        for n in unexported:
            print(f"declared but not exported by {os.path.basename(a.lib)}: {n}")
        print(f"{len(ours)} declared, {len(unexported)} not exported")
        return 1 if unexported else 0

    groups = toolkit_groups(os.path.join(a.cuda, "include/cuda_runtime_api.h"))
    have = ours & exported
    total_all = impl_all = 0
    print("| group | implemented | missing (undeclared in hetGPU's headers) |")
    print("| --- | --- | --- |")
    seen = set()
    for title, names in groups:
        names = [n for n in names if n not in seen]
        seen.update(names)
        if not names:
            continue
        impl = [n for n in names if n in have]
        missing = [n for n in names if n not in have]
        total_all += len(names)
        impl_all += len(impl)
        miss = ", ".join(f"`{n}`" for n in missing) if missing else "-"
        print(f"| {title} | {len(impl)}/{len(names)} | {miss} |")
    extra = sorted(have - seen)
    print(f"\n{impl_all} of {total_all} toolkit functions implemented.")
    if extra:
        print("Implemented, not in this toolkit's header: " +
              ", ".join(f"`{n}`" for n in extra))
    return 0


if __name__ == "__main__":
    sys.exit(main())
