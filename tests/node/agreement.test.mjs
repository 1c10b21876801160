// The generated module, the runtime engine and the native build agree at
// random states, for every model.  "Native" is the same core and generated C
// compiled by the host compiler (build/wasm/mech-wasm-ref, linked against the
// native mech_core and mech_generated libraries); the states are drawn there
// by mech_sample_state and set into the modules bit for bit.
//   generated WASM vs native generated      <= 1e-12  (same algorithm)
//   runtime WASM vs native runtime engine   <= 1e-12  (same algorithm: ABA, wasm/engine.c)
//   generated WASM vs runtime WASM          <= 1e-9   (different algorithms)
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import { openModel } from '../../wasm/index.mjs';
import { modelNames, modelsDir, nativeRef, scaledError } from './helpers.mjs';

const STATES = 200;

/** Set a sampled state into a Sim and return its forward dynamics (a copy). */
function forwardAt(sim, s) {
  sim.q.set(s.q);
  sim.qd.set(s.qd);
  sim.tau.set(s.tau);
  sim.fext.set(s.fext);
  return Float64Array.from(sim.forward());
}

for (const name of modelNames) {
  test(`${name}: generated, runtime and native forward dynamics agree`, async (t) => {
    const states = nativeRef('states', `${modelsDir}${name}.mech`, 42, STATES);
    const gen = await openModel(name);
    const run = await openModel(name, { backend: 'runtime' });
    try {
      assert.equal(gen.backend, 'generated');
      assert.equal(run.backend, 'runtime');
      for (const k of ['nq', 'nv', 'nb']) assert.equal(gen[k], run[k], k);
      let genNative = 0;
      let abaNative = 0;
      let genRuntime = 0;
      for (const s of states) {
        const g = forwardAt(gen, s);
        const r = forwardAt(run, s);
        genNative = Math.max(genNative, scaledError(g, s.generated));
        abaNative = Math.max(abaNative, scaledError(r, s.runtime));
        genRuntime = Math.max(genRuntime, scaledError(g, r));
      }
      t.diagnostic(`${name}: ${STATES} states; generated wasm vs native ${genNative.toExponential(2)}, ` +
        `runtime (ABA) wasm vs native ${abaNative.toExponential(2)}, generated vs runtime ${genRuntime.toExponential(2)}`);
      assert.ok(genNative <= 1e-12, `generated wasm vs native: ${genNative}`);
      assert.ok(abaNative <= 1e-12, `runtime wasm vs native ABA: ${abaNative}`);
      assert.ok(genRuntime <= 1e-9, `generated vs runtime: ${genRuntime}`);
    } finally {
      gen.dispose();
      run.dispose();
    }
  });
}

// Models in subfolders of models/ (loops, force elements) have no generated
// module; the runtime engine runs them (method 2 of RBDA §8.5 over ABA).  At
// random states, off the constraint manifold, the constraint solve can be
// ill-conditioned and amplifies the last-bit differences between the
// WebAssembly libm (musl) and glibc; so each state's gate is 1e-12 or ten
// times the spread between the two native algorithms (runtime engine vs the
// dense route) at that state, whichever is larger.
const unshipped = readdirSync(modelsDir, { recursive: true })
  .filter((f) => f.includes('/') && f.endsWith('.mech'))
  .sort();

for (const file of unshipped) {
  test(`${file}: runtime engine and native agree`, async (t) => {
    const states = nativeRef('states', `${modelsDir}${file}`, 42, 50);
    const name = file.replace(/^.*\//, '').replace(/\.mech$/, '');
    const sim = await openModel({ text: readFileSync(`${modelsDir}${file}`, 'utf8'), name });
    try {
      let native = 0;
      let spread = 0;
      for (const [i, s] of states.entries()) {
        const err = scaledError(forwardAt(sim, s), s.runtime);
        const routes = scaledError(s.runtime, s.dense);
        native = Math.max(native, err);
        spread = Math.max(spread, routes);
        assert.ok(err <= Math.max(1e-12, 10 * routes), `state ${i}: runtime wasm vs native ${err}, native routes ${routes}`);
      }
      t.diagnostic(`${file}: runtime wasm vs native ${native.toExponential(2)} (native runtime vs dense route ${spread.toExponential(2)})`);
    } finally {
      sim.dispose();
    }
  });
}
