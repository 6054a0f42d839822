#!/usr/bin/env bash
# utils/setup.sh - install what hetGPU needs to build and test (Debian 12, apt only).
# Idempotent: when every package is present it returns at once.
set -euo pipefail
PKGS=(
  llvm-22-dev llvm-22-tools clang-22 libclang-22-dev lld-22 liblld-22-dev
  cmake ninja-build ccache python3 libgtest-dev
  spirv-tools spirv-headers llvm-spirv-15 pocl-opencl-icd ocl-icd-libopencl1 ocl-icd-opencl-dev
  qemu-user libthrust-dev libcub-dev
  libxxhash-dev libclang-rt-22-dev
)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "hetgpu setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
