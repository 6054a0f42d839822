# CompileOptional.cmake -DCC=<clang> -DFLAGS=<;-list> -DSRC=<file> -DOBJ=<file>
# Compiles one math-library source for the device; when it does not compile
# (the library is developed in parallel), writes an empty object instead and
# warns: kernels that call the missing functions then fail to translate with
# "math builtin ... is not implemented by the device math library".
execute_process(COMMAND ${CC} ${FLAGS} -c ${SRC} -o ${OBJ}
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  string(SUBSTRING "${err}" 0 600 head)
  message(WARNING "rvmc: ${SRC} does not compile for RISC-V; its math "
    "functions are left out of the device runtime:\n${head}")
  file(WRITE ${OBJ}.c "/* ${SRC} did not compile */\n")
  execute_process(COMMAND ${CC} ${FLAGS} -c ${OBJ}.c -o ${OBJ}
    RESULT_VARIABLE rc2)
  if(NOT rc2 EQUAL 0)
    message(FATAL_ERROR "rvmc: cannot compile an empty device object")
  endif()
endif()
