// fuzz-boundary.test.mjs — random lengths and values into every entry point of Sim that crosses into
// WebAssembly, on a generated Featherstone model, the runtime engine (a tracked vehicle) and an XPBD scene with
// rods, from a fixed PRNG state so that every run makes the same calls. What must hold after each call: no trap
// (WebAssembly.RuntimeError), every throw a MechError, TypeError or RangeError with a message, the views valid
// after the memory grew, and an accepted call leaves a finite state (q, qd, poses).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { openModel } from '../../wasm/index.mjs';
import { modelsDir } from './helpers.mjs';

const CALLS = 12000;

/** mulberry32 (Tommy Ettinger's 32-bit generator): uniform in [0, 1). */
function prng(state) {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const random = prng(0x2545f491);
const pick = (list) => list[Math.floor(random() * list.length)];

const NUMBERS = [NaN, Infinity, -Infinity, 1e308, -1e308, 0, -0, 1, -1, 2, 1.5, 0.5, 1e-3, 1e-300, 2 ** 29 + 1,
  2 ** 31, 2 ** 31 - 1, 2 ** 32 + 1, -(2 ** 31), 5e-324];
const OTHERS = ['x', '1', '', {}, [], null, undefined, true, [1, 2], () => 1, 1n, Symbol('s')];

/** A random value: mostly numbers, sometimes anything. */
const value = () => (random() < 0.8 ? pick(NUMBERS) : pick(OTHERS));

/** A random array-like for an entry point that wants `n` numbers. */
function arrayLike(n) {
  const lengths = [n, n - 1, n + 1, 0, -1, NaN, 1.5, 2 ** 29 + 1, 2 ** 31, 1e9];
  switch (Math.floor(random() * 8)) {
    case 0: return { length: pick(lengths) };
    case 1: return new Float32Array(Math.max(0, n));
    case 2: return new Int32Array(Math.max(0, n + pick([-1, 0, 1])));
    case 3: return Array.from({ length: Math.max(0, n) }, () => (random() < 0.1 ? value() : random()));
    case 4: return new Float64Array(Math.max(0, n)).fill(pick(NUMBERS));
    case 5: return Object.assign(new Float64Array(Math.max(0, n)), { length: pick(lengths) });
    case 6: return pick(OTHERS);
    default: return new Float64Array(Math.max(0, n + pick([-1, 1, 0])));
  }
}

/** The calls, each (sim) => void; the ones that change the state are marked. */
const CALLS_OF = [
  { name: 'step', changes: true, call: (s) => s.step(pick([1e-3, 1e-4, ...NUMBERS.slice(0, 6)]), pick([0, 1, 2, 3, 10, ...NUMBERS]), pick([undefined, undefined, { budgetMs: 20 }, { budgetMs: value() }, value()])) },
  { name: 'forward', changes: false, call: (s) => s.forward() },
  { name: 'restoreState', changes: true, call: (s) => s.restoreState(random() < 0.3 ? s.saveState() : arrayLike(s.stateSize)) },
  { name: 'restoreState (a value spoilt)', changes: true, call: (s) => { const st = s.saveState(); st[Math.floor(random() * st.length)] = pick(NUMBERS); s.restoreState(st); } },
  { name: 'saveState', changes: false, call: (s) => s.saveState(random() < 0.5 ? undefined : arrayLike(s.stateSize)) },
  { name: 'view write', changes: false, call: (s) => { const v = s[pick(['q', 'qd', 'tau', 'act', 'fext', 'gravity'])]; if (v.length) v[Math.floor(random() * v.length)] = random() < 0.5 ? pick(NUMBERS) : random() - 0.5; } },
  { name: 'rampRate', changes: false, call: (s) => s.rampRate(value()) },
  { name: 'setRampRate', changes: false, call: (s) => s.setRampRate(random() < 0.5 ? Math.floor(random() * s.nb) : value(), value()) },
  { name: 'brakeTorque', changes: false, call: (s) => s.brakeTorque(random() < 0.5 ? Math.floor(random() * s.nb) : value(), value(), value()) },
  { name: 'energy', changes: false, call: (s) => s.energy() },
  { name: 'contacts', changes: false, call: (s) => s.contacts() },
  { name: 'observe', changes: false, call: (s) => s.observe() },
  { name: 'find', changes: false, call: (s) => s.find(pick(['poi', 'tsda', 'rsda', 'act', value()]), pick(['x', value()])) },
  { name: 'poses', changes: false, call: (s) => s.poses() },
  { name: 'velocities', changes: false, call: (s) => s.velocities() },
  { name: 'groundForces', changes: false, call: (s) => { s.groundForces(); s.groundReaction(); } },
  { name: 'terrainHeights', changes: false, call: (s) => s.terrainHeights(arrayLike(3), arrayLike(2)) },
  { name: 'rodNodes', changes: false, call: (s) => s.rodNodes(random() < 0.5 ? 0 : value()) },
  { name: 'rodFrames', changes: false, call: (s) => s.rodFrames(random() < 0.5 ? 0 : value()) },
  { name: 'rodCentreline', changes: false, call: (s) => s.rodCentreline(random() < 0.5 ? 0 : value(), pick([undefined, 4, ...NUMBERS]), pick([undefined, { frames: true }, value()])) },
  { name: 'residuals', changes: false, call: (s) => s.residuals() },
  { name: 'describe', changes: false, call: (s) => s.describe() },
  { name: 'reset', changes: true, call: (s) => s.reset() },
];

/** A Sim's q, qd and poses are all finite (poses() itself may refuse a state it cannot place: then q, qd). */
function finiteState(sim) {
  const values = [...sim.q, ...sim.qd];
  try {
    values.push(...sim.poses());
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
  }
  return values.every(Number.isFinite);
}

test(`${CALLS} random calls across the boundary: no trap, typed errors, valid views, no silent NaN`, async () => {
  const bowling = { text: readFileSync(`${modelsDir}xpbd/bowling.mech`, 'utf8'), name: 'bowling' };
  const sims = [await openModel('threelink', { stepBudgetMs: 50 }),
    await openModel('m113', { backend: 'runtime', stepBudgetMs: 50 }),
    await openModel(bowling, { engine: 'xpbd', stepBudgetMs: 50 })];
  const counts = {};
  const grown = [];
  const { linear } = sims[1].memoryUsage();
  for (let k = 0; k < CALLS; k++) {
    const sim = pick(sims);
    const { name, changes, call } = pick(CALLS_OF);
    const where = `call ${k}: ${name} on ${sim.name} (${sim.engine})`;
    let accepted = true;
    try {
      call(sim);
    } catch (e) {
      accepted = false;
      assert.ok(!(e instanceof WebAssembly.RuntimeError), `${where}: a trap: ${e.message}`);
      assert.ok(['MechError', 'TypeError', 'RangeError'].includes(e?.name), `${where}: threw ${e?.name}: ${e?.message}`);
      assert.ok(typeof e.message === 'string' && e.message.length > 0, `${where}: an error without a message`);
      counts[e.name] = (counts[e.name] ?? 0) + 1;
    }
    if (accepted && changes) assert.ok(finiteState(sim), `${where}: accepted, and left a state that is not finite`);
    if (!accepted && !finiteState(sim)) sim.reset(); // a blow-up said so; start again from the file's state
    if (k % 1000 === 999) {
      // The memory grows under the Sims (large models opened in the runtime module and kept): their views stay
      // valid, read again through the getters.
      const q = sims[1].q;
      const chain = Array.from({ length: 1000 }, (_, i) => `body b${i}\n  parent ${i ? `b${i - 1}` : 'base'}\n  joint revolute y\n  mass 1\n  inertia 1 1 1\nend\n`);
      const grow = await openModel({ text: `gravity 0 0 -9.81\n${chain.join('')}`, name: 'grow' });
      grow.step(1e-3, 1);
      grow.terrainHeights(new Float64Array(999), new Float64Array(1000));
      grown.push(grow);
      for (const s of sims) {
        assert.equal(s.q.length, s.nq);
        assert.equal(s.q.buffer, s.qd.buffer);
        assert.ok(s.q.buffer.byteLength > 0);
      }
      assert.ok(q.length === 0 || q.buffer === sims[1].q.buffer, 'an old view is either detached or still the memory');
    }
  }
  assert.ok(sims[1].memoryUsage().linear > linear, 'the memory grew during the run');
  for (const s of grown) s.dispose();
  for (const s of sims) s.dispose();
  assert.ok(Object.keys(counts).length > 0);
});
