// The code generator's WebAssembly back end (docs/codegen.md, "WebAssembly back end"): for every shipped model,
// the module `mechgen --wasm` writes, instantiated on a memory of its own, against the build-time module (the
// generated C compiled by emcc -O2) at random states: qdd at the model's gravity (fwd_dyn_own_gravity and
// fwd_dyn), at another gravity (fwd_dyn: the general copy or the gravity shift), and observe.  The lowering
// keeps the C's operations and their order, so every value must be bit-identical.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { test } from 'node:test';

import { openModel } from '../../wasm/index.mjs';
import { modelFile, modelNames, nativeRef, root, setState } from './helpers.mjs';

const STATES = 200;
const mechgen = `${root}build/core/codegen/mechgen`;
const dir = mkdtempSync(`${tmpdir()}/jit-wasm-`);
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

/** `mechgen --wasm` on a model file: the module's bytes. */
function mechgenWasm(file, stem) {
  const out = `${dir}/${stem}.wasm`;
  execFileSync(mechgen, ['--wasm', out, file], { stdio: ['ignore', 'ignore', 'inherit'] });
  return readFileSync(out);
}

const PAGE = 65536;
const SCRATCH = 16 * PAGE;   // 1 MiB for the module's scratch area
const ARRAYS = 2 * PAGE;     // q qd tau fext act gravity out, one 64 KiB block each

/** The module instantiated on a memory of its own, with views of its argument arrays. */
function instantiateJit(bytes) {
  const memory = new WebAssembly.Memory({ initial: 64 });
  const scratch = new WebAssembly.Global({ value: 'i32', mutable: false }, SCRATCH);
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes),
    { env: { memory, sin: Math.sin, cos: Math.cos, scratch } });
  assert.ok(exports.scratch_bytes.value <= 16 * PAGE, `scratch_bytes ${exports.scratch_bytes.value}`);
  const at = (k) => ARRAYS + k * PAGE;
  const view = (k, n) => new Float64Array(memory.buffer, at(k), n);
  return { exports, at, view };
}

/** Bit-identical, entry for entry (NaN payloads aside: none expected). */
function sameBits(a, b, what) {
  assert.equal(a.length, b.length, `${what}: length`);
  for (let i = 0; i < a.length; i++) {
    if (!Object.is(a[i], b[i])) assert.fail(`${what}[${i}]: jit ${a[i]} vs build-time ${b[i]}`);
  }
}

for (const name of modelNames) {
  test(`${name}: the mechgen --wasm module is bit-identical to the build-time module`, async (t) => {
    const bytes = mechgenWasm(modelFile(name), name);
    assert.ok(WebAssembly.validate(bytes), 'WebAssembly.validate');
    const jit = instantiateJit(bytes);
    const x = jit.exports;
    const states = nativeRef('states', modelFile(name), 7, STATES);
    const sim = await openModel(name);
    try {
      assert.equal(sim.backend, 'generated');
      const { nq, nv, nb, nact } = sim;
      const nobs = x.observe ? sim.observe().length : 0;
      const other = [0.3, -0.2, -9.0];
      const own = Float64Array.from(sim.gravity);
      for (const s of states) {
        for (const [k, v, n] of [[0, s.q, nq], [1, s.qd, nv], [2, s.tau, nv], [3, s.fext, 6 * nb], [4, s.act, nact]]) {
          jit.view(k, n).set(v);
        }
        setState(sim, s);
        x.fwd_dyn_own_gravity(jit.at(0), jit.at(1), jit.at(2), jit.at(3), jit.at(4), jit.at(6));
        sameBits(jit.view(6, nv), sim.forward(), 'fwd_dyn_own_gravity');
        jit.view(5, 3).set(own);
        x.fwd_dyn(jit.at(0), jit.at(1), jit.at(2), jit.at(3), jit.at(4), jit.at(5), jit.at(6));
        sameBits(jit.view(6, nv), sim.forward(), 'fwd_dyn at the model\'s gravity');
        jit.view(5, 3).set(other);
        sim.gravity.set(other);
        x.fwd_dyn(jit.at(0), jit.at(1), jit.at(2), jit.at(3), jit.at(4), jit.at(5), jit.at(6));
        sameBits(jit.view(6, nv), sim.forward(), 'fwd_dyn at another gravity');
        sim.gravity.set(own);
        if (nobs) {
          x.observe(jit.at(0), jit.at(1), jit.at(6));
          sameBits(jit.view(6, nobs), sim.observe(), 'observe');
        }
      }
      t.diagnostic(`${name}: ${STATES} states, ${bytes.length} bytes: qdd (own gravity, fwd_dyn, another gravity)` +
        `${nobs ? ' and observe' : ''} bit-identical`);
    } finally {
      sim.dispose();
    }
  });
}
