# test/lit.cfg.py - lit configuration of hetGPU's test suite.
import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "hetGPU"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".ll", ".cu", ".c", ".cpp", ".test"]
config.excludes = ["Inputs", "Doubles", "lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.hetgpu_obj_root, "test")

bindir = os.path.join(config.hetgpu_obj_root, "bin")
libdir = os.path.join(config.hetgpu_obj_root, "lib")
llvm_config.with_environment("PATH", bindir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
config.environment["FILECHECK_OPTS"] = "--enable-var-scope"
# Tests get their own JIT cache, so they never read a user's.
config.environment["HETGPU_CACHE_DIR"] = os.path.join(config.test_exec_root, "jit-cache")
for var in ("HETGPU_DEVICE", "HETGPU_LOG", "HETGPU_MIGRATE"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

config.substitutions.append(("%shlibext", ".so"))
config.substitutions.append(("%hetgpu_plugin", os.path.join(libdir, "HetGPUPasses.so")))
config.substitutions.append(("%hetgpu_clang_plugin", os.path.join(libdir, "HetGPUClang.so")))
config.substitutions.append(("%hetgpu_src", config.hetgpu_src_root))
config.substitutions.append(("%hetgpu_libdir", libdir))
config.substitutions.append(("%hetgpu_obj_root", config.hetgpu_obj_root))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%clangxx", config.clangxx))

llvm_config.use_default_substitutions()
tools = ["opt", "llvm-as", "llvm-dis", "llvm-link", "llc", "llvm-readobj", "llvm-objdump", "not", "FileCheck", "count", "split-file"]
llvm_config.add_tool_substitutions(tools, [config.llvm_tools_dir])

for t in config.hetgpu_targets.split(";"):
    config.available_features.add("target-" + t.lower())
# built-target-<class>: the lowering target's folder was built (end-to-end
# runtime tests need the host target).
_enabled = os.path.join(config.hetgpu_obj_root, "include", "hetgpu", "Targets", "EnabledTargets.def")
if os.path.exists(_enabled):
    import re
    for _m in re.finditer(r"HETGPU_ENABLED_TARGET\((\w+)\)", open(_enabled).read()):
        config.available_features.add("built-target-" + _m.group(1).lower())
if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))
if getattr(config, "in_process_lld", "") == "ON":
    config.available_features.add("in-process-lld")
# libFuzzer (Debian libclang-rt-22-dev) and clang-22: test/Fuzz runs the
# targets of fuzz/ for a few seconds each.
if shutil.which("clang++-22") and os.path.exists(
        "/usr/lib/llvm-22/lib/clang/22/lib/linux/libclang_rt.fuzzer-x86_64.a"):
    config.available_features.add("libfuzzer")
if shutil.which("spirv-val"):
    config.available_features.add("spirv-val")
# Debian's libthrust-dev / libcub-dev (test/Libraries).
if os.path.exists("/usr/include/thrust/version.h") and os.path.exists("/usr/include/cub/cub.cuh"):
    config.available_features.add("thrust")
# CPack's .deb and dpkg-deb to unpack it (test/Driver/deb-package.test).
if shutil.which("cpack") and shutil.which("dpkg-deb"):
    config.available_features.add("cpack-deb")
if shutil.which("qemu-riscv64"):
    config.available_features.add("qemu-riscv64")
if os.path.exists("/etc/OpenCL/vendors/pocl.icd"):
    config.available_features.add("pocl")
# GPU tests live in test/Execution and need `REQUIRES: gpu-<name>`; the
# device machine sets HETGPU_TEST_GPUS=nvidia.
for g in os.environ.get("HETGPU_TEST_GPUS", "").split(","):
    if g:
        config.available_features.add("gpu-" + g)
# HETGPU_TEST_DEVICES=tt-sim (comma list; one device per lit run): run the
# end-to-end tests written for the CPU device (`env HETGPU_DEVICE=cpu %t`)
# on that device instead; `test-device-<name>` lets a test say it cannot.
for _d in os.environ.get("HETGPU_TEST_DEVICES", "").split(",")[:1]:
    if _d and _d != "cpu":
        config.substitutions.insert(0, ("HETGPU_DEVICE=cpu", "HETGPU_DEVICE=" + _d))
        config.available_features.add("test-device-" + _d)
# %test_device: the device those tests run on, for FileCheck prefixes of
# device-specific lines (`--check-prefixes=CHECK,NAME-%test_device
# --allow-unused-prefixes`, `NAME-cpu:`, `NAME-tt-sim:`).
config.substitutions.append(
    ("%test_device",
     os.environ.get("HETGPU_TEST_DEVICES", "").split(",")[0] or "cpu"))
