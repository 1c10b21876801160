// bounds.test.mjs — sizes checked before any copy into WebAssembly memory, round trips of the state that cannot
// fail, and XPBD's refusals as MechErrors naming the body.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import { MechError, generateCode, openModel } from '../../wasm/index.mjs';
import { listedNames, modelFile, modelsDir, treeModelNames } from './helpers.mjs';

test('openModel and generateCode refuse a 200 MiB text before copying it: the memory does not grow', async () => {
  const probe = await openModel('threelink', { backend: 'runtime' });
  const before = probe.memoryUsage();
  const big = `# ${'x'.repeat(200 * 2 ** 20)}\n`;
  const bytes = new Uint8Array(200 * 2 ** 20);
  for (const text of [big, bytes]) {
    for (const options of [undefined, { engine: 'xpbd' }, { backend: 'jit' }]) {
      await assert.rejects(openModel({ text, name: 'big.mech' }, options), (e) => e instanceof MechError &&
        /^big\.mech: text too large: (over 4194304 bytes \(209715203 characters\)|209715200 bytes), at most 4194304$/.test(e.message));
    }
    await assert.rejects(generateCode(text, { target: 'c', name: 'big.mech' }), { name: 'MechError', message: /^big\.mech: text too large/ });
  }
  await assert.rejects(openModel({ text: 'gravity 0 0 -9.81\n', name: 'n'.repeat(5 * 2 ** 20) }), { name: 'RangeError', message: /^a model's name may have at most 4194304 characters/ });
  assert.deepEqual(probe.memoryUsage(), before);
  probe.dispose();
});

test('XPBD refuses a body it cannot invert with a MechError naming the body and its line', async () => {
  const text = 'gravity 0 0 -9.81\nbody arm\n  parent base\n  joint revolute y\n  mass 1\n  inertia 1e-110 1e-110 1e-110\nend\n';
  await assert.rejects(openModel({ text, name: 'tiny.mech' }, { engine: 'xpbd' }), (e) => e instanceof MechError &&
    e.line === 2 && e.column === 6 &&
    e.message === "tiny.mech:2:6: body 'arm': XPBD needs a positive mass and an inertia it can invert (mass 1 kg, inertia determinant 0)");
  const featherstone = await openModel({ text, name: 'tiny.mech' }); // ABA divides by other quantities
  featherstone.dispose();
});

/** Every run to round-trip: the shipped models on both Featherstone backends, the XPBD scenes and trees. */
function runs() {
  const xpbdScenes = readdirSync(`${modelsDir}xpbd`).filter((f) => f.endsWith('.mech')).map((f) => f.slice(0, -5));
  return [
    ...listedNames.flatMap((name) => ['generated', 'runtime'].map((backend) => [name, { backend }])),
    ...xpbdScenes.map((name) => [{ text: readFileSync(`${modelsDir}xpbd/${name}.mech`, 'utf8'), name }, { engine: 'xpbd' }]),
    ...treeModelNames.map((name) => [name, { engine: 'xpbd' }]),
  ];
}

test('whatever saveState returns, restoreState takes, and the run goes on bit for bit', async () => {
  const bits = (a) => Buffer.from(a.buffer).toString('hex');
  // The gantry with a centre of mass 1e300 away: on XPBD its residuals overflow to infinity after a few steps.
  const gantry = readFileSync(modelFile('gantry'), 'utf8').replace('com 0 0 -0.1', 'com 0 0 1e300');
  const cases = [...runs(), [{ text: gantry, name: 'gantry_far' }, { engine: 'xpbd' }]];
  for (const [source, options] of cases) {
    const sim = await openModel(source, options);
    const dt = sim.engine === 'xpbd' ? 1e-3 : 1e-4;
    try {
      sim.step(dt, 3);
    } catch {
      sim.dispose();
      continue; // a model that cannot take these steps has no state of them to round-trip
    }
    const saved = sim.saveState();
    sim.restoreState(saved);
    assert.equal(bits(sim.saveState()), bits(saved), `${sim.name} ${sim.backend} ${sim.engine}`);
    const twin = await openModel(source, options);
    twin.restoreState(saved);
    for (const s of [sim, twin]) {
      try {
        s.step(dt, 2);
      } catch { /* the same error on both: compared through the states below */ }
    }
    assert.equal(bits(twin.saveState()), bits(sim.saveState()), `${sim.name} ${sim.backend} ${sim.engine} after restore`);
    sim.dispose();
    twin.dispose();
  }
});

test('the gantry with a far centre of mass round-trips on XPBD: its infinite residuals are reports', async () => {
  const gantry = readFileSync(modelFile('gantry'), 'utf8').replace('com 0 0 -0.1', 'com 0 0 1e300');
  const sim = await openModel({ text: gantry, name: 'gantry_far' }, { engine: 'xpbd' });
  sim.step(1e-3, 3);
  const { primal } = sim.residuals();
  const saved = sim.saveState();
  sim.restoreState(saved);
  assert.deepEqual(sim.residuals().primal, primal);
  sim.dispose();
});

test('residuals() on a Featherstone Sim is a RangeError, like every refusal of an engine', async () => {
  const sim = await openModel('threelink');
  assert.throws(() => sim.residuals(), { name: 'RangeError', message: "residuals: Sim 'threelink' runs engine 'featherstone', not 'xpbd'" });
  sim.dispose();
});
