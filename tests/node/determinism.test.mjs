// 10 000 steps are bitwise identical: twice in one module instance, and in a
// fresh instance (index.mjs imported again under another URL, which gives it
// its own module cache and so freshly instantiated WebAssembly memory).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import * as api from '../../wasm/index.mjs';
import { modelNames } from './helpers.mjs';

const STEPS = 10_000;
const DT = 1e-4;   // elbow's light wrist spins up and blows up within 2.5 s at 1e-3

/** q and qd after STEPS steps from the initial state, unforced but for gravity. */
async function trajectory(openModel, name, backend) {
  const sim = await openModel(name, { backend, stepBudgetMs: Infinity });
  try {
    sim.step(DT, STEPS / 2);
    sim.step(DT, STEPS / 2);
    return new Uint8Array(Float64Array.from([...sim.q, ...sim.qd]).buffer);
  } finally {
    sim.dispose();
  }
}

const fresh = await import(`../../wasm/index.mjs?instance=fresh`);
assert.notEqual(fresh.openModel, api.openModel, 'the fresh import must be a separate module instance');

for (const name of modelNames) {
  for (const backend of ['generated', 'runtime']) {
    test(`${name} (${backend}): ${STEPS} steps are bitwise reproducible`, async () => {
      const first = await trajectory(api.openModel, name, backend);
      const second = await trajectory(api.openModel, name, backend);
      const third = await trajectory(fresh.openModel, name, backend);
      assert.ok(first.some((b) => b !== 0), 'the state moved');
      assert.deepEqual(second, first, 'second run in the same instance');
      assert.deepEqual(third, first, 'fresh module instance');
    });
  }
}
