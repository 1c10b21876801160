// The API's shape and its errors: every bad argument gives a clear error and
// leaves the module working.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MechError, listModels, loadModelText, openModel } from '../../wasm/index.mjs';
import { listedNames, loopModelNames, terrainSceneNames, trackModelNames } from './helpers.mjs';

test('listModels lists every shipped model with its sizes', async () => {
  const models = await listModels();
  // Every shipped model has a generated module (a terrain scene its base model's); the gallery groups
  // models/loops/ (the test rigs, *_rig, apart) and models/tracks/ apart, each scene with its base.
  assert.deepEqual(models.map((m) => m.name), listedNames);
  for (const m of models) {
    assert.equal(m.backend, 'generated');
    const scene = terrainSceneNames.includes(m.name);
    const base = scene ? m.name.replace(/_(ramp|bumps)$/, '') : m.name;
    const group = m.name.endsWith('_rig') ? 'rigs' : loopModelNames.includes(base) ? 'loops' : trackModelNames.includes(base) ? 'tracks' : 'trees';
    assert.equal(m.group, group, m.name);
    assert.equal(m.module, scene ? base : undefined, m.name);
    const sim = await openModel(m.name);
    assert.equal(sim.backend, m.backend, `${m.name} opens on its own backend`);
    assert.deepEqual([sim.name, sim.description, sim.nq, sim.nv, sim.nb, sim.nact],
      [m.name, m.description, m.nq, m.nv, m.nb, m.nact]);
    assert.equal(sim.describe().inputs.length + sim.describe().actuators.length, sim.nact, 'an act slot per element input and actuator');
    assert.equal(sim.bodyNames.length, sim.nb);
    assert.equal(sim.poses().length, 7 * sim.nb);
    sim.dispose();
  }
});

test('a Sim: views, forward, step, poses, reset', async () => {
  const sim = await openModel('satellite');
  assert.deepEqual([sim.q.length, sim.qd.length, sim.tau.length, sim.act.length, sim.fext.length, sim.qdd.length],
    [sim.nq, sim.nv, sim.nv, sim.nact, 6 * sim.nb, sim.nv]);
  const q0 = Float64Array.from(sim.q);
  const qd0 = Float64Array.from(sim.qd);
  assert.equal(sim.forward(), sim.qdd);
  sim.step(1e-3, 100);
  assert.notDeepEqual([...sim.q], [...q0]);
  const poses = sim.poses();
  for (let b = 0; b < sim.nb; b++) {
    const [w, x, y, z] = poses.subarray(7 * b + 3, 7 * b + 7);
    assert.ok(Math.abs(Math.hypot(w, x, y, z) - 1) < 1e-12, `body ${b} attitude is a unit quaternion`);
  }
  sim.tau.fill(1);
  sim.reset();
  assert.deepEqual([...sim.q], [...q0]);
  assert.deepEqual([...sim.qd], [...qd0]);
  assert.ok(sim.tau.every((v) => v === 0), 'tau zeroed');
  sim.dispose();
});

test('a shipped model without a module opens on the runtime engine, refuses backend generated, draws its terrain', async () => {
  const entry = (await listModels()).find((m) => m.name === 'track_min');
  assert.ok(entry, 'track_min is listed');
  if (entry.backend !== 'runtime') return; // generated since: nothing text-only to check
  const sim = await openModel('track_min');
  assert.equal(sim.backend, 'runtime');
  await assert.rejects(openModel('track_min', { backend: 'generated' }), { name: 'RangeError', message: /'track_min' has no generated module/ });
  const model = sim.describe();
  assert.ok(model.contactDt > 0 && model.contactDt < 1e-3, `contactDt ${model.contactDt}`);
  const drive = model.tracks[0].rollers.find((r) => r.drive);
  assert.ok(drive.brake[0] > 0 && drive.brake[1] > 0, 'the drive roller has brake gains');
  // A plane at z0 = 0 with no slope: every height is 0; bad points are refused by name.
  assert.deepEqual([...sim.terrainHeights([-10, 0, 3.5], [-1, 2])], [0, 0, 0, 0, 0, 0]);
  // The ground's force per body sums to its total, on the shoes only.
  sim.step(model.contactDt, 200);
  const total = sim.groundReaction();
  const perBody = sim.groundForces();
  const { shoe0, nshoe } = model.tracks[0];
  for (let k = 0; k < 3; k++) {
    let sum = 0;
    for (let b = 0; b < sim.nb; b++) sum += perBody[3 * b + k];
    assert.ok(Math.abs(sum - total[k]) <= 1e-9 * Math.max(1, Math.abs(total[k])), `force ${k}: ${sum} against ${total[k]}`);
  }
  for (let b = 0; b < sim.nb; b++) {
    if (b < shoe0 || b >= shoe0 + nshoe) assert.deepEqual([...perBody.subarray(3 * b, 3 * b + 3)], [0, 0, 0], `body ${b}`);
  }
  assert.ok(total[2] > 0, 'the ground carries the vehicle');
  assert.throws(() => sim.terrainHeights([0, NaN], [0]), { name: 'RangeError', message: /xs\[1\] is NaN/ });
  assert.throws(() => sim.terrainHeights([], [0]), { name: 'RangeError', message: /non-empty arrays/ });
  sim.dispose();
  // A sloped plane and a grid from text: heights follow the ground law's terrain.
  const text = (await loadModelText('track_min')).replace('ground\n  plane 0\n', 'ground\n  plane 0.5 slope 10 x\n');
  const sloped = await openModel({ text, name: 'sloped' });
  const h = sloped.terrainHeights([0, 2], [0, 1]);
  const rise = 2 * Math.tan((10 * Math.PI) / 180);
  [0.5, 0.5 + rise, 0.5, 0.5 + rise].forEach((want, i) => assert.ok(Math.abs(h[i] - want) < 1e-12, `h[${i}] = ${h[i]}`));
  sloped.dispose();
  const grid = 'ground\n  grid 3 2 1 1 origin -1 0\n  row 0 0.2 0\n  row 0.1 0.3 0.1\n';
  const gridded = await openModel({ text: text.replace(/ground\n {2}plane [^\n]*\n/, grid), name: 'gridded' });
  assert.equal(gridded.describe().ground.type, 'grid');
  assert.deepEqual([...gridded.terrainHeights([-1, 0, 1], [0, 1])], [0, 0.2, 0, 0.1, 0.3, 0.1], 'the grid passes through its samples');
  assert.deepEqual([...gridded.terrainHeights([-5, 5], [0])], [0, 0], 'flat at the edge height outside');
  gridded.dispose();
});

test('the runtime engine runs text, and a shipped model by name', async () => {
  const text = await loadModelText('threelink');
  const a = await openModel({ text, name: 'mine' });
  const b = await openModel('threelink', { backend: 'runtime' });
  assert.equal(a.name, 'mine');
  assert.equal(a.backend, 'runtime');
  assert.deepEqual([...a.forward()], [...b.forward()]);
  a.dispose();
  b.dispose();
});

test('forward() on a model with an unchecked copy (threelink) names bad inputs the same way', async () => {
  // threelink's module takes its own fast path (wasm/model.c): the unchecked
  // generated copy when q and qd are within +-1e5, qdd checked after it.
  const sim = await openModel('threelink');
  const reference = Float64Array.from(sim.forward());
  for (const [view, i] of [['q', 2], ['qd', 0], ['tau', 1]]) {
    const saved = sim[view][i];
    for (const [bad, word] of [[NaN, 'NaN'], [Infinity, 'infinite'], [-Infinity, 'infinite']]) {
      sim[view][i] = bad;
      assert.throws(() => sim.forward(), { name: 'RangeError', message: new RegExp(`^forward: ${view}\\[${i}\\] is ${word}`) });
    }
    sim[view][i] = saved;
    assert.deepEqual([...sim.forward()], [...reference]);
  }
  sim.q[0] = 2e5; // beyond the unchecked copy's range: the checked one, still finite
  assert.ok(sim.forward().every(Number.isFinite));
});

test('bad model text raises MechError with line and column', async () => {
  const text = 'gravity 0 0 -9.81\nbody a\n  parent base\n  joint revolute q\nend\n';
  await assert.rejects(openModel({ text, name: 'edited' }), (e) => {
    assert.ok(e instanceof MechError);
    assert.equal(e.name, 'MechError');
    assert.match(e.message, /^edited:4:/);
    assert.equal(e.line, 4);
    assert.ok(e.column > 0);
    return true;
  });
});

test('bad arguments give clear errors and the module keeps working', async () => {
  const sim = await openModel('satellite');
  const reference = Float64Array.from(sim.forward());
  const stillWorks = () => assert.deepEqual([...sim.forward()], [...reference]);

  for (const dt of [-1e-3, 0, NaN, Infinity]) {
    assert.throws(() => sim.step(dt), { name: 'RangeError', message: /^step: dt must be a positive finite/ });
  }
  assert.throws(() => sim.step('0.001'), { name: 'TypeError', message: /dt must be a number/ });
  for (const n of [-1, 1.5, NaN, 2 ** 31]) {
    assert.throws(() => sim.step(1e-3, n), { name: 'RangeError', message: /n must be a non-negative integer/ });
  }
  stillWorks();

  for (const [view, i] of [['q', 5], ['qd', 2], ['tau', 0], ['fext', 0]]) {
    const saved = sim[view][i];
    sim[view][i] = NaN;
    assert.throws(() => sim.forward(), { name: 'RangeError', message: new RegExp(`^forward: ${view}\\[${i}\\].* is NaN`) });
    assert.throws(() => sim.step(1e-3), { name: 'RangeError', message: new RegExp(`^step: ${view}\\[${i}\\].* is NaN`) });
    for (const bad of [Infinity, -Infinity]) {
      sim[view][i] = bad;
      assert.throws(() => sim.forward(), { name: 'RangeError', message: new RegExp(`^forward: ${view}\\[${i}\\].* is infinite`) });
    }
    // The largest finite magnitude passes the input check (the dynamics may then overflow).
    sim[view][i] = -Number.MAX_VALUE;
    try { sim.forward(); } catch (e) { assert.doesNotMatch(e.message, /is (NaN|infinite)/); }
    sim[view][i] = saved;
    stillWorks();
  }
  const quat = Float64Array.from(sim.q.subarray(0, 4));
  sim.q.fill(0, 0, 4);
  assert.throws(() => sim.forward(), { name: 'RangeError', message: /quaternion q\[0\.\.3\] of body 'bus' is zero/ });
  sim.q.set(quat);
  stillWorks();

  sim.tau.fill(1e300);
  assert.throws(() => sim.step(1e-3, 100), { name: 'RangeError', message: /blew up/ });
  sim.reset();
  stillWorks();

  const chain = await openModel('threelink');
  chain.fext[0] = NaN;
  chain.forward(); // forward() reads the fext of `fext 1` bodies only; step() applies every body's
  assert.throws(() => chain.step(1e-3), { name: 'RangeError', message: "step: fext[0] (body 'link1') is NaN" });
  chain.fext[0] = 0;
  chain.step(1e-3);
  assert.ok(chain.q.every(Number.isFinite));
  chain.dispose();

  await assert.rejects(openModel('satellite', { backend: 'xpbd' }), { name: 'RangeError', message: /unknown backend 'xpbd'/ });
  await assert.rejects(openModel('nosuchmodel'), { name: 'RangeError', message: /unknown model 'nosuchmodel'; shipped models: / });
  await assert.rejects(openModel({ text: 'gravity 0 0 -9.81\n' }, { backend: 'generated' }), { name: 'RangeError', message: /'generated' exists only for shipped models/ });
  await assert.rejects(openModel(42), { name: 'TypeError' });
  await assert.rejects(openModel({ text: 'x', name: 7 }), { name: 'TypeError' });
  stillWorks();
  sim.dispose();
});

test('describe, energy and gravity', async () => {
  const gen = await openModel('satellite');
  const run = await openModel('satellite', { backend: 'runtime' });
  const d = gen.describe();
  assert.deepEqual(d, run.describe());
  assert.equal(d.name, 'satellite');
  assert.deepEqual(d.bodies.map((b) => b.name), gen.bodyNames);
  assert.equal(d.bodies[0].joint, 'floating');
  assert.ok(d.shapes.every((s) => s.body >= 0 && s.body < gen.nb && s.rot.length === 9));

  const e = gen.energy();
  assert.equal(e.total, e.kinetic + e.potential);
  assert.deepEqual(run.energy(), e);
  gen.step(1e-4, 1000);
  assert.ok(Math.abs(gen.energy().total - e.total) < 1e-3 * Math.max(1, Math.abs(e.total)), 'energy roughly kept');

  assert.deepEqual([...gen.gravity], d.gravity, 'gravity is an input of every engine');
  assert.deepEqual([...run.gravity], d.gravity);
  for (const sim of [gen, run]) {
    sim.reset();
    sim.gravity.set([3.1, -4.7, 8.2]);
  }
  const a = gen.forward(), b = run.forward();
  const scale = Math.max(1, ...b.map(Math.abs));
  assert.ok(a.every((x, i) => Math.abs(x - b[i]) <= 1e-12 * scale), 'the generated code reads the new gravity as ABA does');
  // step(dt, n) picks the generated copy once per call: a gravity changed between calls is read by the next one.
  for (const g of [[3.1, -4.7, 8.2], d.gravity, [0, 9.81, 0]]) {
    for (const sim of [gen, run]) {
      sim.gravity.set(g);
      sim.step(1e-3, 50);
    }
    assert.ok([...gen.q].every((x, i) => Math.abs(x - run.q[i]) <= 1e-9), `stepped alike under gravity ${g}`);
  }
  run.gravity.set([0, 0, 0]);
  run.qd.fill(0);
  assert.ok(run.forward().every((a) => a === 0), 'no gravity, no motion');
  run.gravity[2] = NaN;
  assert.throws(() => run.forward(), { name: 'RangeError', message: /gravity\[2\] is NaN/ });
  gen.dispose();
  run.dispose();
});

test('a generated or jit Sim\'s forward() reads a gravity written through a view taken at any time', async () => {
  // Until the gravity view is handed out the gravity is the model's, and forward() does not compare it.
  const text = await loadModelText('threelink');
  for (const open of [() => openModel('threelink'), () => openModel({ text, name: 'threelink' }, { backend: 'jit' })]) {
    const sim = await open();
    const run = await openModel('threelink', { backend: 'runtime' });
    sim.qd.fill(0.3);
    run.qd.fill(0.3);
    const own = Float64Array.from(sim.forward());
    const g = sim.gravity; // kept, written later
    assert.deepEqual(Float64Array.from(sim.forward()), own, `${sim.backend}: the same call at the model's gravity`);
    g[0] = 2.5;
    run.gravity[0] = 2.5;
    const a = sim.forward(), b = run.forward();
    const scale = Math.max(1, ...b.map(Math.abs));
    assert.ok(a.some((x, i) => x !== own[i]), `${sim.backend}: the new gravity moved qdd`);
    assert.ok(a.every((x, i) => Math.abs(x - b[i]) <= 1e-12 * scale), `${sim.backend}: as the runtime engine reads it`);
    g[2] = NaN;
    assert.throws(() => sim.forward(), { name: 'RangeError', message: /gravity\[2\] is NaN/ });
    sim.dispose();
    run.dispose();
  }
});

test('modules import nothing but the memory-growth notification and the stage clock', async () => {
  const { readFile, readdir } = await import('node:fs/promises');
  const dist = new URL('../../wasm/dist/', import.meta.url);
  for (const file of (await readdir(dist)).filter((f) => f.endsWith('.wasm'))) {
    const module = await WebAssembly.compile(await readFile(new URL(file, dist)));
    const imports = WebAssembly.Module.imports(module).map((i) => `${i.module}.${i.name}`);
    assert.deepEqual(imports.filter((i) => i !== 'env.mech_now_ms'), ['env.emscripten_notify_memory_growth'], file);
  }
});

test('the runtime engine runs force elements, with act as their inputs', async () => {
  const text = `gravity 0 0 -9.81
body arm
  parent base
  joint revolute y
  mass 1
  com 0.5 0 0
  inertia 0.001 0.08 0.08
end
rsda motor
  joint arm
  k 5
  c 0.2
  input
end
`;
  const sim = await openModel({ text, name: 'motor' });
  assert.equal(sim.nact, 1);
  const passive = sim.forward()[0];
  sim.act[0] = 2;
  const driven = sim.forward()[0];
  assert.ok(Math.abs(driven - passive - 2 / 0.33) < 1e-9, 'act adds its torque through the joint inertia (0.08 + 1·0.5²)');
  sim.act[0] = NaN;
  assert.throws(() => sim.forward(), { name: 'RangeError', message: /^forward: act\[0\] is NaN/ });
  sim.dispose();
});

test('mangled model text never traps the runtime engine', async () => {
  const text = new TextEncoder().encode(await loadModelText('satellite'));
  let seed = 12345;
  const random = (n) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  let opened = 0;
  for (let trial = 0; trial < 300; trial++) {
    const bytes = Uint8Array.from(text);
    for (let k = 0; k < 1 + random(8); k++) bytes[random(bytes.length)] = random(256);
    try {
      const sim = await openModel({ text: bytes, name: 'mangled' });
      sim.step(1e-4, 10);
      sim.dispose();
      opened++;
    } catch (e) {
      assert.ok(e instanceof MechError || e instanceof RangeError, `${e}`);
    }
  }
  const sim = await openModel('satellite', { backend: 'runtime' });
  assert.ok(sim.forward().every(Number.isFinite), `still working after 300 mangled texts (${opened} parsed)`);
  sim.dispose();
});

test('observe and find: generated and runtime agree, every name round-trips', async () => {
  for (const name of ['springpend', 'slidercrank', 'hmmwv']) {
    const gen = await openModel(name);
    const run = await openModel(name, { backend: 'runtime' });
    try {
      const d = gen.describe();
      for (let i = 0; i < gen.qd.length; i++) {
        gen.qd[i] = run.qd[i] = Math.sin(1 + i);
      }
      const a = gen.observe();
      const b = run.observe();
      assert.ok(a.length > 0 && a.length === b.length, `${name}: observe length`);
      for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i] - b[i]) <= 1e-12 * Math.max(1, Math.abs(b[i])), `${name}: observe[${i}] ${a[i]} vs ${b[i]}`);
      for (const input of d.inputs) assert.equal(gen.find('act', input.name), input.act, `${name}: act slot of ${input.name}`);
      assert.equal(gen.find('poi', 'no_such_name'), -1);
      assert.equal(run.find('tsda', 'no_such_name'), -1);
      assert.throws(() => gen.find('body', 'chassis'), { name: 'RangeError', message: /unknown kind 'body'/ });
    } finally {
      gen.dispose();
      run.dispose();
    }
  }
  const chain = await openModel('threelink');
  assert.deepEqual(chain.observe(), new Float64Array(0), 'nothing declared: no values');
  assert.equal(chain.find('poi', 'tip'), -1);
  chain.dispose();
  const pend = await openModel('springpend');
  const l = pend.find('tsda', 'tip_spring');
  assert.ok(l >= 0, 'springpend has tsda tip_spring');
  assert.ok(pend.observe()[l] > 0, 'a spring length is positive');
  pend.dispose();
});
