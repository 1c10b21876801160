/* test_wasm_module.c — the structure of the WebAssembly modules the code
 * generator writes (core/codegen/emit_wasm.c), for every model on the
 * command line: the header, the sections in the order and with the lengths
 * the WebAssembly core specification ("Binary Format", 5.5) requires, the
 * imports and exports of emit_wasm.h, one body per declared function, each
 * within V8's limits of locals and body size, every body ending in `end`.
 * The Node suite runs the modules (tests/node/jit-wasm.test.mjs). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "codegen/emit_wasm.h"
#include "codegen/mechgen.h"
#include "rbda/elements.h"
#include "rbda/loop_rank.h"

typedef struct {
    const unsigned char *p, *end;
    int bad;
} reader;

static uint32_t u32(reader *r)
{
    uint32_t v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
        if (r->p >= r->end) break;
        unsigned c = *r->p++;
        v |= (uint32_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) return v;
    }
    r->bad = 1;
    return 0;
}

static int byte(reader *r)
{
    if (r->p >= r->end) {
        r->bad = 1;
        return -1;
    }
    return *r->p++;
}

/* A name; 1 when it equals s. */
static int name_is(reader *r, const char *s)
{
    uint32_t n = u32(r);
    if ((size_t)(r->end - r->p) < n) {
        r->bad = 1;
        return 0;
    }
    int same = strlen(s) == n && memcmp(r->p, s, n) == 0;
    r->p += n;
    return same;
}

/* The section order of the specification (datacount before code). */
static int rank(int id)
{
    static const int order[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 10 }; /* rank of ids 0..12 */
    return id >= 0 && id <= 12 ? order[id] : -1;
}

static void check_imports(reader *r, const char *model)
{
    static const char *const names[4] = { "memory", "sin", "cos", "scratch" };
    static const int kinds[4] = { 2, 0, 0, 3 };
    CHECK(u32(r) == 4, "%s: 4 imports", model);
    for (int k = 0; k < 4; k++) {
        CHECK(name_is(r, "env") && name_is(r, names[k]), "%s: import %d is env.%s", model, k, names[k]);
        CHECK(byte(r) == kinds[k], "%s: env.%s's kind", model, names[k]);
        if (k == 0) {
            int flags = byte(r);
            u32(r);
            if (flags & 1) u32(r);
        } else if (k == 3) {
            CHECK(byte(r) == 0x7f && byte(r) == 0, "%s: env.scratch is an immutable i32", model);
        } else {
            u32(r);
        }
    }
}

static void check_exports(reader *r, const char *model, int observe)
{
    uint32_t n = u32(r);
    int seen = 0;
    for (uint32_t k = 0; k < n && !r->bad; k++) {
        const unsigned char *at = r->p;
        if (name_is(r, "fwd_dyn")) seen |= 1;
        r->p = at;
        if (name_is(r, "fwd_dyn_own_gravity")) seen |= 2;
        r->p = at;
        if (name_is(r, "observe")) seen |= 4;
        r->p = at;
        if (name_is(r, "scratch_bytes")) seen |= 8;
        byte(r);
        u32(r);
    }
    CHECK(seen == (observe ? 15 : 11), "%s: exports fwd_dyn, fwd_dyn_own_gravity, scratch_bytes%s (seen %d)", model,
          observe ? " and observe" : "", seen);
}

/* Returns the number of bodies, checking each one's locals and end. */
static uint32_t check_code(reader *r, const char *model)
{
    uint32_t n = u32(r);
    for (uint32_t k = 0; k < n && !r->bad; k++) {
        uint32_t size = u32(r);
        CHECK(size <= WASM_MAX_BODY_BYTES, "%s: body %u is %u bytes", model, k, size);
        if ((size_t)(r->end - r->p) < size || size == 0) {
            r->bad = 1;
            break;
        }
        reader body = { r->p, r->p + size, 0 };
        uint32_t groups = u32(&body), locals = 0;
        for (uint32_t g = 0; g < groups && !body.bad; g++) {
            locals += u32(&body);
            int t = byte(&body);
            CHECK(t == 0x7f || t == 0x7c || t == 0x7b, "%s: body %u: local type %#x", model, k, t);
        }
        CHECK(!body.bad && locals <= WASM_MAX_LOCALS, "%s: body %u: %u locals", model, k, locals);
        CHECK(r->p[size - 1] == 0x0b, "%s: body %u does not end in end", model, k);
        r->p += size;
    }
    return n;
}

static void check_module(const unsigned char *b, size_t n, const char *model, int observe)
{
    static const unsigned char head[8] = { 0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00 };
    CHECK(n >= 8 && memcmp(b, head, 8) == 0, "%s: header", model);
    reader r = { b + 8, b + n, 0 };
    int last = 0, seen[13] = { 0 };
    uint32_t nfunc = 0, nbody = 0;
    while (r.p < r.end && !r.bad) {
        int id = byte(&r);
        uint32_t size = u32(&r);
        CHECK(rank(id) > last, "%s: section %d out of order", model, id);
        if (rank(id) <= last || (size_t)(r.end - r.p) < size) break;
        last = rank(id);
        seen[id] = 1;
        reader s = { r.p, r.p + size, 0 };
        if (id == 2) check_imports(&s, model);
        if (id == 3) nfunc = u32(&s), s.p = s.end;
        if (id == 7) check_exports(&s, model, observe);
        if (id == 10) nbody = check_code(&s, model);
        if (id != 2 && id != 7 && id != 10) s.p = s.end;
        CHECK(!s.bad && s.p == s.end, "%s: section %d's length", model, id);
        r.p += size;
    }
    CHECK(!r.bad && r.p == r.end, "%s: the sections end with the module", model);
    CHECK(seen[1] && seen[2] && seen[3] && seen[7] && seen[8] && seen[10] && seen[11] && seen[12],
          "%s: type, import, function, export, start, code, data and datacount sections", model);
    CHECK(nfunc > 0 && nfunc == nbody, "%s: %u functions, %u bodies", model, nfunc, nbody);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        mech_error err;
        mech_model *m = mech_model_load(argv[i], &err);
        CHECK(m && !mech_loops_check(m, &err), "%s: %s", argv[i], err.message);
        if (!m) continue;
        mechgen_output o;
        wasm_buf w = { 0 };
        uint32_t scratch = 0;
        int rc = mechgen_generate(&o, m, argv[i], MECHGEN_CHEAPER);
        if (rc == 0) rc = gen_emit_wasm(&o.em, &w, &scratch, NULL);
        CHECK(rc == 0, "%s: %s", argv[i], mechgen_error(&o));
        if (rc == 0) {
            check_module(w.b, w.n, o.stem, mech_observe_len(m) > 0);
            printf("%s: %zu bytes, %u bytes of scratch\n", o.stem, w.n, scratch);
        }
        wasm_buf_free(&w);
        mechgen_output_free(&o);
        mech_model_free(m);
    }
    return failures ? 1 : 0;
}
