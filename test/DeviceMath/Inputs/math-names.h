/* Expands to the name of every math builtin of Builtins.def, one a line. */
#define HETGPU_MATH_F(Name, Arity) __hetgpu_math_##Name##f
#define HETGPU_MATH_D(Name, Arity) __hetgpu_math_##Name
#include "hetgpu/IR/Builtins.def"
