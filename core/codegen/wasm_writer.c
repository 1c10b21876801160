/* wasm_writer.c — see wasm_writer.h. */
#include "codegen/wasm_writer.h"

#include <stdlib.h>
#include <string.h>

static int reserve(wasm_buf *w, size_t more)
{
    if (w->failed) return -1;
    if (w->n + more <= w->cap) return 0;
    size_t cap = w->cap ? w->cap : 256;
    while (cap < w->n + more) cap *= 2;
    unsigned char *b = realloc(w->b, cap);
    if (!b) {
        w->failed = 1;
        return -1;
    }
    w->b = b;
    w->cap = cap;
    return 0;
}

void wasm_bytes(wasm_buf *w, const void *p, size_t n)
{
    if (reserve(w, n)) return;
    memcpy(w->b + w->n, p, n);
    w->n += n;
}

void wasm_byte(wasm_buf *w, unsigned v)
{
    unsigned char c = (unsigned char)v;
    wasm_bytes(w, &c, 1);
}

void wasm_u32(wasm_buf *w, uint32_t v)
{
    do {
        unsigned c = v & 0x7f;
        v >>= 7;
        wasm_byte(w, v ? c | 0x80 : c);
    } while (v);
}

void wasm_s32(wasm_buf *w, int32_t v) { wasm_s64(w, v); }

void wasm_s64(wasm_buf *w, int64_t v)
{
    for (;;) {
        unsigned c = (unsigned)v & 0x7f;
        v >>= 7; /* arithmetic shift: gcc, clang and emcc */
        if ((v == 0 && !(c & 0x40)) || (v == -1 && (c & 0x40))) {
            wasm_byte(w, c);
            return;
        }
        wasm_byte(w, c | 0x80);
    }
}

void wasm_f64(wasm_buf *w, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    for (int k = 0; k < 8; k++) wasm_byte(w, (unsigned)(u >> 8 * k) & 0xff);
}

void wasm_name(wasm_buf *w, const char *s)
{
    size_t n = strlen(s);
    wasm_u32(w, (uint32_t)n);
    wasm_bytes(w, s, n);
}

void wasm_memarg(wasm_buf *w, unsigned align, uint32_t offset)
{
    wasm_u32(w, align);
    wasm_u32(w, offset);
}

size_t wasm_begin(wasm_buf *w)
{
    size_t at = w->n;
    static const unsigned char pad[5] = { 0x80, 0x80, 0x80, 0x80, 0x00 };
    wasm_bytes(w, pad, sizeof pad);
    return at;
}

void wasm_end(wasm_buf *w, size_t at)
{
    if (w->failed) return;
    uint32_t len = (uint32_t)(w->n - at - 5);
    for (int k = 0; k < 5; k++) w->b[at + k] = (unsigned char)(((len >> 7 * k) & 0x7f) | (k < 4 ? 0x80 : 0));
}

size_t wasm_section(wasm_buf *w, unsigned id)
{
    wasm_byte(w, id);
    return wasm_begin(w);
}

void wasm_buf_free(wasm_buf *w)
{
    free(w->b);
    *w = (wasm_buf){ 0 };
}
