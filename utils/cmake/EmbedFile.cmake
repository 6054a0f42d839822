# EmbedFile.cmake -DINPUT=<file> -DOUTPUT=<file.inc>: writes the bytes of
# INPUT as a comma-separated list of hex literals for an array initialiser
# (device code that the compiler libraries carry: runtime/device).
file(READ ${INPUT} hex HEX)
string(LENGTH "${hex}" len)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" body "${body}")
file(WRITE ${OUTPUT}.tmp "// Generated from ${INPUT}: do not edit.\n${body}\n")
file(RENAME ${OUTPUT}.tmp ${OUTPUT})
