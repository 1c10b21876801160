// The Featherstone constraint solve through the JavaScript API (docs/contact.md, "The constraint solve"): the floor
// toggle on a runtime, generated and jit Sim, contacts() and contactForces() on Featherstone (a box at rest: its
// normal forces sum to its weight), the three backends agreeing on a shipped model dropped on the floor, bad floor
// arguments refused, and a scene stepped in separate Node processes giving the same state bit for bit (runtime and jit).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { openModel } from '../../wasm/index.mjs';
import { BOX, boxHash } from './contact-scene.mjs';

test('a box dropped on the floor rests on it; contacts and forces are reported', async () => {
  const sim = await openModel({ text: BOX, name: 'box' }, { backend: 'runtime' });
  try {
    assert.equal(sim.floor, null);
    assert.deepEqual(sim.contacts(), new Float64Array(0));
    sim.setFloor(true);
    assert.equal(sim.floor, 0);
    sim.step(1e-3, 3000);
    const points = sim.contacts();
    const forces = sim.contactForces();
    assert.equal(points.length / 6, forces.length / 4);
    assert.ok(points.length / 6 >= 4, `${points.length / 6} contacts`);
    let fn = 0;
    for (let k = 0; k < forces.length; k += 4) fn += forces[k];
    assert.ok(Math.abs(fn - 3 * 9.81) < 0.01 * 3 * 9.81, `normal forces ${fn} N against a weight of ${3 * 9.81} N`);
    for (let k = 0; k < points.length; k += 6) assert.ok(Math.abs(points[k + 5] - 1) < 1e-12, 'the normal is +z');
    const stats = sim.solverStats();
    assert.ok(stats.rows >= 12 && stats.sweeps >= 1, JSON.stringify(stats));
    sim.setFloor(false);
    assert.equal(sim.floor, null);
  } finally {
    sim.dispose();
  }
});

test('the floor on the generated, runtime and jit backends gives the same run', async () => {
  const runs = [];
  for (const backend of ['generated', 'runtime', 'jit']) {
    const sim = await openModel('satellite', { backend });
    sim.setFloor(true, 8);
    sim.step(1e-3, 1500);
    runs.push(Float64Array.from(sim.q));
    assert.ok(sim.contacts().length > 0, `${backend}: the satellite lies on the floor`);
    sim.dispose();
  }
  for (const q of runs.slice(1)) {
    const d = Math.max(...q.map((v, i) => Math.abs(v - runs[0][i])));
    assert.ok(d < 1e-8, `backends differ by ${d}`);
  }
});

test('bad floor arguments and engines are refused', async () => {
  const sim = await openModel('threelink', { backend: 'runtime' });
  assert.throws(() => sim.setFloor(1), TypeError);
  assert.throws(() => sim.setFloor(true, NaN), RangeError);
  sim.dispose();
  const x = await openModel('threelink', { engine: 'xpbd' });
  assert.throws(() => x.setFloor(true), /floor: engine 'xpbd'/);
  x.dispose();
  const t = await openModel('track_min');
  assert.throws(() => t.setFloor(true), /has a ground/);
  t.dispose();
});

test('two processes step the scene to the same state bit for bit, on the runtime and the jit', async () => {
  const url = new URL('./contact-scene.mjs', import.meta.url).href;
  const child = (backend) => execFileSync(process.execPath, ['--input-type=module', '-e',
    `const m = await import(${JSON.stringify(url)}); console.log(await m.boxHash('${backend}'));`], { encoding: 'utf8' }).trim();
  for (const backend of ['runtime', 'jit']) {
    const here = await boxHash(backend);
    assert.equal(child(backend), here, backend);
    assert.equal(child(backend), here, `${backend}, a second child`);
  }
});
