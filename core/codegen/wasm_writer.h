/* wasm_writer.h — the bytes of a WebAssembly binary module: LEB128
 * integers, little-endian doubles, names, length-prefixed sections and the
 * opcodes the generator uses (the WebAssembly core specification, "Binary
 * Format", 5.1-5.5). */
#ifndef MECH_CODEGEN_WASM_WRITER_H
#define MECH_CODEGEN_WASM_WRITER_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    unsigned char *b;
    size_t n, cap;
    int failed; /* an allocation failed: the bytes are incomplete */
} wasm_buf;

enum {
    WASM_I32 = 0x7f,
    WASM_I64 = 0x7e,
    WASM_F64 = 0x7c,
    WASM_FUNC = 0x60,
    WASM_VOID = 0x40,
    /* sections */
    WASM_SEC_TYPE = 1,
    WASM_SEC_IMPORT = 2,
    WASM_SEC_FUNCTION = 3,
    WASM_SEC_GLOBAL = 6,
    WASM_SEC_EXPORT = 7,
    WASM_SEC_START = 8,
    WASM_SEC_CODE = 10,
    WASM_SEC_DATA = 11,
    WASM_SEC_DATACOUNT = 12,
    /* import and export kinds */
    WASM_EXTERN_FUNC = 0,
    WASM_EXTERN_MEMORY = 2,
    WASM_EXTERN_GLOBAL = 3,
    /* instructions */
    WASM_IF = 0x04,
    WASM_ELSE = 0x05,
    WASM_END = 0x0b,
    WASM_RETURN = 0x0f,
    WASM_CALL = 0x10,
    WASM_SELECT = 0x1b,
    WASM_LOCAL_GET = 0x20,
    WASM_LOCAL_SET = 0x21,
    WASM_LOCAL_TEE = 0x22,
    WASM_GLOBAL_GET = 0x23,
    WASM_I32_LOAD = 0x28,
    WASM_I64_LOAD = 0x29,
    WASM_F64_LOAD = 0x2b,
    WASM_F64_STORE = 0x39,
    WASM_I32_CONST = 0x41,
    WASM_I64_CONST = 0x42,
    WASM_F64_CONST = 0x44,
    WASM_I32_EQZ = 0x45,
    WASM_I64_EQZ = 0x50,
    WASM_I64_EQ = 0x51,
    WASM_F64_EQ = 0x61,
    WASM_F64_NE = 0x62,
    WASM_F64_GT = 0x64,
    WASM_F64_LE = 0x65,
    WASM_I32_ADD = 0x6a,
    WASM_I32_AND = 0x71,
    WASM_I32_OR = 0x72,
    WASM_I32_SHL = 0x74,
    WASM_I64_ADD = 0x7c,
    WASM_I64_AND = 0x83,
    WASM_I64_OR = 0x84,
    WASM_I64_SHR_U = 0x88,
    WASM_F64_ABS = 0x99,
    WASM_F64_NEG = 0x9a,
    WASM_F64_SQRT = 0x9f,
    WASM_F64_ADD = 0xa0,
    WASM_F64_SUB = 0xa1,
    WASM_F64_MUL = 0xa2,
    WASM_F64_DIV = 0xa3,
    WASM_F64_MIN = 0xa4,
    WASM_F64_MAX = 0xa5,
    WASM_I32_WRAP_I64 = 0xa7,
    WASM_I64_REINTERPRET_F64 = 0xbd,
    WASM_PREFIX_FC = 0xfc,
    WASM_MEMORY_INIT = 8,
    WASM_DATA_DROP = 9,
    WASM_MEMORY_FILL = 11,
    /* fixed-width SIMD: prefix 0xfd, then the opcode as LEB128 */
    WASM_V128 = 0x7b,
    WASM_PREFIX_FD = 0xfd,
    WASM_F64X2_SPLAT = 0x14,
    WASM_I64X2_EXTRACT_LANE = 0x1d,
    WASM_F64X2_EXTRACT_LANE = 0x21,
    WASM_F64X2_REPLACE_LANE = 0x22,
    WASM_F64X2_ADD = 0xf0,
    WASM_F64X2_SUB = 0xf1,
    WASM_F64X2_MUL = 0xf2,
};

void wasm_byte(wasm_buf *w, unsigned v);
void wasm_bytes(wasm_buf *w, const void *p, size_t n);
void wasm_u32(wasm_buf *w, uint32_t v); /* unsigned LEB128 */
void wasm_s32(wasm_buf *w, int32_t v);  /* signed LEB128   */
void wasm_s64(wasm_buf *w, int64_t v);
void wasm_f64(wasm_buf *w, double v); /* 8 bytes, little-endian */
void wasm_name(wasm_buf *w, const char *s);
/* A memory access's alignment (2^align bytes) and offset. */
void wasm_memarg(wasm_buf *w, unsigned align, uint32_t offset);

/* A length-prefixed span (a section, a function body): begin reserves a
 * 5-byte LEB128 length and returns where; end fills it in. */
size_t wasm_begin(wasm_buf *w);
void wasm_end(wasm_buf *w, size_t at);
/* A section: its id, then a span. */
size_t wasm_section(wasm_buf *w, unsigned id);

void wasm_buf_free(wasm_buf *w);

#endif
