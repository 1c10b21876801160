// state.test.mjs — saveState (also into an array of stateSize) / restoreState (docs/wasm.md, "State"): a run
// restored to a saved state steps on bit for bit as it did, on the generated engine, the runtime ABA engine
// (loops, contact) and XPBD (bodies with a rod, contact); bad states are refused; fext reaches every body on every
// engine; velocities().
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { ARM_WITH_ROD, modelsDir, openModel } from './helpers.mjs';

const CASES = [
  { label: 'threelink, generated', open: () => openModel('threelink'), dt: 1e-3 },
  { label: 'fourbar, runtime ABA (a closed loop)', open: () => openModel('fourbar', { backend: 'runtime' }), dt: 1e-3 },
  { label: 'track_min, generated (contact)', open: () => openModel('track_min'), dt: 5e-5 },
  { label: 'an arm with a rod, XPBD', open: () => openModel({ text: ARM_WITH_ROD, name: 'tail' }, { engine: 'xpbd' }), dt: 5e-3 },
  {
    label: 'contact.mech, XPBD (colliders)',
    open: () => openModel({ text: readFileSync(`${modelsDir}xpbd/contact.mech`, 'utf8'), name: 'contact' }, { engine: 'xpbd' }),
    dt: 1e-2,
  },
];

/** Bytes of a Float64Array: equal bytes are equal bit for bit (NaN payloads and -0 included). */
const bits = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** n steps of dt with a joint force and a push on the last body; what the run then is. */
function run(sim, dt, n) {
  sim.tau[0] = 0.3;
  sim.fext.set([0, 0.2, 0, 0.5, 0, 1], 6 * (sim.nb - 1));
  sim.step(dt, n);
  return { state: sim.saveState(), poses: Float64Array.from(sim.poses()), q: Float64Array.from(sim.q) };
}

for (const { label, open, dt } of CASES) {
  test(`restore then step repeats the run bit for bit: ${label}`, async () => {
    const sim = await open();
    const other = await open();
    try {
      run(sim, dt, 40);
      const saved = sim.saveState();
      const first = run(sim, dt, 40);
      run(sim, dt, 25); // on past it, then back
      sim.restoreState(saved);
      assert.deepEqual(bits(sim.saveState()), bits(saved), 'the restored state reads back as saved');
      const into = new Float64Array(sim.stateSize);
      assert.equal(sim.saveState(into), into, 'saveState(into) fills the array given and returns it');
      assert.deepEqual(bits(into), bits(saved));
      const again = run(sim, dt, 40);
      assert.deepEqual(bits(again.state), bits(first.state));
      assert.deepEqual(bits(again.poses), bits(first.poses));
      assert.deepEqual(bits(again.q), bits(first.q));
      // Into a fresh Sim of the same model and engine.
      other.restoreState(saved);
      const elsewhere = run(other, dt, 40);
      assert.deepEqual(bits(elsewhere.state), bits(first.state));
    } finally {
      sim.dispose();
      other.dispose();
    }
  });
}

test('restoreState refuses a state of another length, a non-finite value, a zero quaternion; the Sim is unchanged', async () => {
  const sim = await openModel('satellite');
  try {
    sim.step(1e-3, 10);
    const good = sim.saveState();
    const n = good.length;
    assert.throws(() => sim.restoreState(good.subarray(1)), { name: 'RangeError', message: `restoreState: a state of 'satellite' has ${n} values, not ${n - 1}` });
    for (const [i, bad, what] of [[3, NaN, 'NaN'], [n - 1, Infinity, 'infinite']]) {
      const s = Float64Array.from(good);
      s[i] = bad;
      assert.throws(() => sim.restoreState(s), { name: 'RangeError', message: `restore: state[${i}] is ${what}` });
    }
    const zero = Float64Array.from(good);
    zero.fill(0, 1, 5); // time, then the floating body's quaternion
    assert.throws(() => sim.restoreState(zero), { name: 'RangeError', message: /^restore: the quaternion q\[0\.\.3\] of body '\w+' is zero/ });
    assert.throws(() => sim.restoreState(7), { name: 'TypeError', message: /restoreState: state must be an array/ });
    for (const [into, got] of [[new Float64Array(n + 1), `one of ${n + 1}`], [[...good], 'an array'], [null, 'null']]) {
      assert.throws(() => sim.saveState(into), { name: 'TypeError', message: `saveState: into must be a Float64Array of the state's ${n} values, got ${got}` });
    }
    assert.deepEqual(bits(sim.saveState()), bits(good));
    sim.step(1e-3); // and it still steps
  } finally {
    sim.dispose();
  }
});

test('fext on a body without `fext 1` pushes it on every engine; velocities() are the poses\' rates', async () => {
  const engines = [['generated', {}], ['runtime', { backend: 'runtime' }], ['xpbd', { engine: 'xpbd' }]];
  const ends = [];
  for (const [name, options] of engines) {
    const sim = await openModel('threelink', options);
    try {
      sim.gravity.fill(0);
      const tip = 7 * 2;
      const x0 = sim.poses()[tip];
      // 5 N along +x at link3's origin: [moment about the base origin; force] = [p × F; F].
      const p = sim.poses().slice(tip, tip + 3);
      sim.fext.set([0, 5 * p[2], -5 * p[1], 5, 0, 0], 6 * 2);
      const dt = 1e-3;
      sim.step(dt, 200);
      const before = Float64Array.from(sim.poses());
      const v = sim.velocities();
      sim.fext.fill(0); // coast one step: the rate of the poses is the velocity (to first order)
      sim.step(dt);
      const after = sim.poses();
      assert.ok(after[tip] - x0 > 0.01, `${name}: link3 moved ${after[tip] - x0} m along the push`);
      for (let i = 0; i < 3; i++) {
        for (let k = 0; k < 3; k++) {
          const rate = (after[7 * i + k] - before[7 * i + k]) / dt;
          assert.ok(Math.abs(rate - v[6 * i + k]) < 1e-2 * (1 + Math.abs(rate)), `${name}: body ${i} v[${k}] ${v[6 * i + k]} vs ${rate}`);
        }
        assert.ok(Math.abs(v[6 * i + 3]) < 1e-6 && Math.abs(v[6 * i + 5]) < 1e-6, `${name}: planar: ω along y only`);
      }
      ends.push(after[tip]);
    } finally {
      sim.dispose();
    }
  }
  assert.ok(Math.abs(ends[0] - ends[1]) < 1e-9, 'generated and runtime agree');
  assert.ok(Math.abs(ends[0] - ends[2]) < 1e-2, `XPBD within 1 cm of Featherstone (${ends[2]} vs ${ends[0]})`);
});

test('restoreState checks the length before it copies: huge, negative, fractional and NaN lengths leave every Sim working', async () => {
  const other = await openModel('threelink', { backend: 'runtime' });
  const sim = await openModel('m113', { backend: 'runtime' });
  try {
    const before = Float64Array.from(other.q);
    for (const length of [2 ** 29 + 1, 2 ** 32 + 5, -1, 1.5, NaN, Infinity]) {
      assert.throws(() => sim.restoreState({ length }), Number.isInteger(length) ? /restoreState: a state of 'm113' has \d+ values, not -?\d+/ : /restoreState: state must be an array/);
    }
    assert.throws(() => sim.restoreState(new Array(2 ** 29 + 1)), /restoreState: a state of 'm113' has \d+ values, not 536870913/);
    assert.equal(sim.saveState().length, sim.stateSize);
    other.step(1e-3, 10);
    assert.ok(other.q.some((v, i) => v !== before[i]), 'the other Sim still steps');
    assert.ok(other.memoryUsage().heap > 0);
  } finally {
    sim.dispose();
    other.dispose();
  }
});
