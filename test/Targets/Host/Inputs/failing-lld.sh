#!/bin/sh
# A linker that fails, for emit-options.ll.
echo "ld.lld: error: pretend failure" >&2
exit 1
