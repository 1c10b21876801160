# embed_text.cmake — a model's .mech text as the bytes of a C array, for the
# per-model module to parse at mw_open (wasm/model.c).
#   cmake -DIN=<file.mech> -DOUT=<stem>_text.c -DNAME=<path for the comment> -P embed_text.cmake
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
# 16 bytes a line (CMake's regular expressions have no {n})
string(REPEAT "0x..," 16 line)
string(REGEX REPLACE "(${line})" "\\1\n" bytes "${bytes}")
file(WRITE ${OUT} "/* ${NAME} as bytes, written by cmake/embed_text.cmake. */
#include <stddef.h>
const unsigned char mw_model_text[] = {
${bytes}
};
const size_t mw_model_text_len = sizeof mw_model_text;
")
