#!/usr/bin/env bash
# translate-e2e.sh OUTDIR PLUGIN 'GLOB'... : compiles each CUDA program with
# hetgpu-cc, translates its hetIR for gfx90a, gfx942 and gfx1100 with
# hetgpu-translate (files named *_errors.cu are skipped), and checks every kernel's code object metadata
# (llvm-readobj --notes): wavefront size of the arch, kernarg/LDS sizes
# and register counts present. Prints one line per file and arch:
#   <file> <arch>: <n> kernels, wave<w>, ok
# or "<file> <arch>: FAILED <why>".
out=$1; shift
# The device math library is built next to the pass plugin (arg 2).
libdir=$(dirname "$1"); shift
export HETGPU_MATH_LIBRARY=${HETGPU_MATH_LIBRARY:-$libdir}
for pattern in "$@"; do
for f in $pattern; do
  name=$(basename "$f")
  case $name in *_errors.cu) continue ;; esac
  if ! hetgpu-cc -c "$f" -o "$out/$name.o" 2>"$out/$name.cc.err"; then
    echo "$name: FAILED hetgpu-cc: $(head -c 300 "$out/$name.cc.err")"
    continue
  fi
  for arch in gfx90a gfx942 gfx1100; do
    case $arch in gfx1100) wave=32 ;; *) wave=64 ;; esac
    hsaco="$out/$name.$arch.hsaco"
    if ! hetgpu-translate --target=amdgpu --arch=$arch "$out/$name.o" -o "$hsaco" 2>"$hsaco.err"; then
      if grep -q "no device code" "$hsaco.err"; then
        echo "$name $arch: no device code"
        continue
      fi
      echo "$name $arch: FAILED hetgpu-translate: $(head -c 400 "$hsaco.err")"
      continue
    fi
    notes=$(llvm-readobj --notes "$hsaco")
    n=$(grep -c '^    \.name:' <<<"$notes")
    why=""
    [ "$(grep -c "\.wavefront_size: *$wave\$" <<<"$notes")" = "$n" ] || why="$why wavefront"
    for key in kernarg_segment_size group_segment_fixed_size vgpr_count sgpr_count private_segment_fixed_size; do
      [ "$(grep -c "^    \.$key: *[0-9]" <<<"$notes")" = "$n" ] || why="$why $key"
    done
    grep -q "amdhsa.target: *amdgcn-amd-amdhsa--$arch" <<<"$notes" || why="$why target"
    if [ -n "$why" ] || [ "$n" = 0 ]; then
      echo "$name $arch: FAILED metadata:$why ($n kernels)"
    else
      echo "$name $arch: $n kernels, wave$wave, ok"
    fi
  done
done
done
