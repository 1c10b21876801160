// The generated module, the runtime engine and the native build agree at
// random states, for every model.  "Native" is the same core and generated C
// compiled by the host compiler (build/wasm/mech-wasm-ref, linked against the
// native mech_core and mech_generated libraries); the states are drawn there
// by mech_sample_loop_state (for models with loops: near the closure
// manifold, torn a little, as their native validation does; random act) and
// set into the modules bit for bit.
//   generated WASM vs native generated      <= 1e-12  (same algorithm)
//   runtime WASM vs native runtime engine   <= 1e-12  (same algorithm: ABA, wasm/engine.c)
//   generated WASM vs runtime WASM          <= 1e-9   (different algorithms)
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { openModel } from '../../wasm/index.mjs';
import { modelFile, modelNames, nativeRef, scaledError, setState } from './helpers.mjs';

const STATES = 200;

/** Set a sampled state into a Sim and return its forward dynamics (a copy). */
function forwardAt(sim, s) {
  setState(sim, s);
  return Float64Array.from(sim.forward());
}

for (const name of modelNames) {
  test(`${name}: generated, runtime and native forward dynamics agree`, async (t) => {
    const states = nativeRef('states', modelFile(name), 42, STATES);
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

// Joint angles beyond ±1e5 rad (mech_sincos.h's range) take the generated code's checked copy, which falls
// back to libm; within it forward() calls the unchecked copy directly (docs/codegen.md, "Two copies").
test('threelink: angles beyond the inline sin/cos range agree with the runtime engine', async () => {
  const gen = await openModel('threelink');
  const run = await openModel('threelink', { backend: 'runtime' });
  try {
    for (const q0 of [1e5, 1e5 + 0.5, -3e5 + 0.25, 1e12 + 1]) {
      const s = { q: [q0, -0.4, 0.7], qd: [0.3, -0.2, 0.1], tau: [0.5, 0, -0.3], fext: new Array(18).fill(0), act: [] };
      const g = forwardAt(gen, s);
      const r = forwardAt(run, s);
      assert.ok(scaledError(g, r) <= 1e-9, `q0 = ${q0}: generated ${[...g]} vs runtime ${[...r]}`);
    }
  } finally {
    gen.dispose();
    run.dispose();
  }
});
