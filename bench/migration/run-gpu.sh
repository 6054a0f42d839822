#!/bin/sh
# bench/migration/run-gpu.sh BUILD_DIR - migration checks on an NVIDIA GPU
# (for the `device` tool). Prints PASS/FAIL per check.
# SPDX-License-Identifier: Apache-2.0
#  * nvidia -> nvidia: test/Migration/migrate-cpu.cu suspended at random safe
#    points on the GPU and resumed there, output equal to an unmigrated run;
#  * cpu <-> nvidia: resuming on another device is not implemented yet
#    (docs/Migration.md), reported as NOT-IMPLEMENTED, not PASS.
B=${1:-build-mig}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
"$B/bin/hetgpu-cc" "$HERE/../../test/Migration/migrate-cpu.cu" -o "$T/m" || { echo "FAIL build"; exit 1; }
rc=0
HETGPU_DEVICE=nvidia "$T/m" > "$T/ref" || rc=1
for s in 1 2 3; do
  if HETGPU_DEVICE=nvidia HETGPU_MIGRATE=random:seed=$s:verbose "$T/m" > "$T/o$s" 2> "$T/e$s" &&
     diff -q "$T/ref" "$T/o$s" >/dev/null && grep -q 'hetgpu-migrate:' "$T/e$s"; then
    echo "PASS nvidia->nvidia seed=$s"
  else
    echo "FAIL nvidia->nvidia seed=$s"; rc=1
  fi
done
echo "NOT-IMPLEMENTED cpu->nvidia, nvidia->cpu (cross-device resume)"
rm -rf "$T"
exit $rc
