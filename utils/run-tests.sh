#!/usr/bin/env bash
# utils/run-tests.sh - set up, build, and run every test (lit suites, which
# include the GoogleTest unit tests and the end-to-end CUDA programs). Ends
# with one line "N passed, N failed".
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/utils/setup.sh" || exit 1
"$root/utils/build.sh" || { echo "0 passed, 1 failed"; exit 1; }
build="${HETGPU_BUILD_DIR:-$root/build}"
lit="$(command -v lit || echo /usr/lib/llvm-22/bin/lit)"
report="$build/test-results.xml"
"$lit" -sv --xunit-xml-output="$report" "$build/test" "$@"
rc=$?
python3 - "$report" <<'PY'
import sys, xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except Exception:
    print("0 passed, 1 failed"); sys.exit(0)
suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
total = fail = skip = 0
for s in suites:
    total += int(s.get("tests", 0)); fail += int(s.get("failures", 0)) + int(s.get("errors", 0))
    skip += int(s.get("skipped", 0))
print(f"{total - fail - skip} passed, {fail} failed, {skip} skipped")
PY
exit $rc
