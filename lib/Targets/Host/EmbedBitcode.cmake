# EmbedBitcode.cmake -DINPUT=<file> -DOUTPUT=<file.inc>: the bytes of INPUT
# as a comma-separated list of hex literals, for an array initialiser.
file(READ ${INPUT} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
file(WRITE ${OUTPUT}.tmp "// Generated from ${INPUT}: do not edit.\n${body}\n")
file(RENAME ${OUTPUT}.tmp ${OUTPUT})
