# long-format.py: a hetIR module whose kernel prints a 40000-character
# format (test/Targets/SPIRV/long-table.test).
fmt = "x" * 40000 + "\n"
n = len(fmt) + 1
print('target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"')
print('target triple = "unknown-hetgpu-unknown"')
print('@.fmt = private unnamed_addr constant [%d x i8] c"%s\\0A\\00", align 1' % (n, fmt[:-1]))
print('define void @k() #0 {')
print('  %r = call i32 @__hetgpu_printf(ptr @.fmt, ptr null)')
print('  ret void')
print('}')
print('declare i32 @__hetgpu_printf(ptr, ptr)')
print('attributes #0 = { "hetgpu-kernel" }')
print('!hetgpu.ir.version = !{!0}')
print('!0 = !{i32 1, i32 0}')
