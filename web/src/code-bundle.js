// code-bundle.js — generated code as files a person builds and runs on their own: the C of a model
// (generateCode's target 'c') with the header it includes, the two project headers those include, and a main.c
// that evaluates one step; the WebAssembly module (target 'wasm') with a loader of a few lines. Pure functions:
// download.js zips and saves what they return.

const num = (x) => (Number.isFinite(x) ? String(x) : '0');

/** The descriptor's name and sizes in generated C (mechgen writes `const mech_generated mechgen_<c> = {`). */
export function describeC(c) {
  const name = /^const mech_generated (mechgen_\w+) = \{/m.exec(c)?.[1];
  const size = (key) => Number(new RegExp(`\\.${key} = (\\d+)`).exec(c)?.[1]);
  if (!name) throw new Error('the generated C has no mech_generated descriptor');
  return { descriptor: name, nq: size('nq'), nv: size('nv'), nb: size('nb'), nact: size('nact') };
}

/**
 * `<stem>.h`: a declaration of each external definition in `c` (every function not static, and the
 * descriptor), including sim/generated.h as mechgen's own header does. Static functions stay out, those
 * whose `static …` mechgen writes on the line before the definition too.
 */
export function headerFor(stem, c) {
  const guard = `MECHGEN_${stem.toUpperCase().replace(/\W/g, '_')}_H`;
  // A definition: `void mechgen_…(` at the start of a line whose line before is not `static …`, its parameter list
  // (no parentheses inside) closed before the `{` line.
  const lines = c.split('\n');
  const functions = [];
  lines.forEach((line, i) => {
    if (!line.startsWith('void mechgen_') || lines[i - 1]?.startsWith('static')) return;
    let end = i;
    while (end < lines.length - 1 && !lines[end].includes(')')) end++;
    if (lines[end + 1] === '{') functions.push(`${lines.slice(i, end + 1).join('\n')};`);
  });
  return `/* ${stem}.h — what ${stem}.c defines: its forward dynamics (mech_fwd_dyn_fn in sim/generated.h) and its
 * descriptor. */
#ifndef ${guard}
#define ${guard}

#include "sim/generated.h"

${functions.join('\n')}
extern const mech_generated ${describeC(c).descriptor};

#endif
`;
}

/**
 * main.c: one semi-implicit Euler step of 1 ms from (q, qd) (the model's initial state; zeros when it is not
 * known or not of the generated sizes), printing qdd and the new state.
 */
export function mainFor(stem, c, q, qd) {
  const { descriptor, nq, nv } = describeC(c);
  const known = q?.length === nq && qd?.length === nv;
  const list = (values, n) => (known ? Array.from(values, num) : Array(n).fill('0')).join(', ');
  return `/* main.c — ${stem}'s generated forward dynamics, one step of 1 ms (semi-implicit Euler):
 *   cc -O2 main.c ${stem}.c -lm -o ${stem} && ./${stem}
 * Layouts of q, qd, tau and qdd: sim/generated.h (mech_fwd_dyn_fn). */
#include <stdio.h>

#include "${stem}.h"

/* ${known ? 'the initial state of the model the page had open' : 'zeros: the page had no state of these sizes'} */
static double q[${nq}] = { ${list(q, nq)} };
static double qd[${nv}] = { ${list(qd, nv)} };
static double tau[${nv}], qdd[${nv}];

int main(void)
{
    const mech_generated *g = &${descriptor};
    const double dt = 1e-3;
    g->fwd_dyn(q, qd, tau, NULL, NULL, g->gravity, qdd); /* no external forces, no actuator inputs */
    for (int i = 0; i < g->nv; i++) qd[i] += dt * qdd[i];
    /* q moves by qd where each coordinate has its own rate; a free or ball joint's quaternion needs its own
     * update (docs/conventions.md in the mech sources), so q is printed as it was then. */
    if (g->nq == g->nv)
        for (int i = 0; i < g->nq; i++) q[i] += dt * qd[i];
    printf("%s, t = %g s\\n", g->name, dt);
    for (int i = 0; i < g->nv; i++) printf("qdd[%d] = %.17g  qd[%d] = %.17g\\n", i, qdd[i], i, qd[i]);
    for (int i = 0; i < g->nq; i++) printf("q[%d] = %.17g\\n", i, q[i]);
    return 0;
}
`;
}

/**
 * The C zip's files under the folder `<stem>/`: the generated C, its header, sim/generated.h and
 * spatial/mech_sincos.h (`headers`: their texts, keyed by those paths) and main.c.
 */
export function cFiles(stem, c, headers, q, qd) {
  return [
    { name: `${stem}/main.c`, data: mainFor(stem, c, q, qd) },
    { name: `${stem}/${stem}.c`, data: c },
    { name: `${stem}/${stem}.h`, data: headerFor(stem, c) },
    ...Object.entries(headers).map(([path, text]) => ({ name: `${stem}/${path}`, data: text })),
  ];
}

/**
 * `<stem>.mjs`: loads `<stem>.wasm` (mechgen --wasm: imports env.memory, env.sin, env.cos, env.scratch; exports
 * fwd_dyn_own_gravity with generated.h's signature on addresses) in Node and prints qdd at (q, qd), the model's
 * initial state (zeros when not known).
 */
export function loaderFor(stem, { nq, nv }, q, qd) {
  const state = (values, n) => `[${(values?.length === n ? Array.from(values, num) : Array(n).fill('0')).join(', ')}]`;
  return `// ${stem}.mjs — ${stem}.wasm's forward dynamics once, at the model's initial state: node ${stem}.mjs
import { readFile } from 'node:fs/promises'; // in a browser: await (await fetch(url)).arrayBuffer()
const memory = new WebAssembly.Memory({ initial: 64 }), scratch = 1024; // 4 MiB; the module's work area from 1024
const env = { memory, sin: Math.sin, cos: Math.cos, scratch: new WebAssembly.Global({ value: 'i32' }, scratch) };
const { instance } = await WebAssembly.instantiate(await readFile(new URL('./${stem}.wasm', import.meta.url)), { env });
let at = scratch + 8 * Math.ceil(instance.exports.scratch_bytes.value / 8); // then q, qd, tau, qdd (float64)
const [q, qd, tau, qdd] = [${nq}, ${nv}, ${nv}, ${nv}].map((n) => new Float64Array(memory.buffer, (at += 8 * n) - 8 * n, n));
q.set(${state(q, nq)});
qd.set(${state(qd, nv)});
instance.exports.fwd_dyn_own_gravity(q.byteOffset, qd.byteOffset, tau.byteOffset, 0, 0, qdd.byteOffset); // fext, act: none
console.log('qdd =', Array.from(qdd));
`;
}
