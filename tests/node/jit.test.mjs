// The jit (docs/wasm.md, "Jit"): openModel(..., { backend: 'jit' }) generates the model's WebAssembly in the
// runtime module, instantiates it on the runtime's memory and runs it through the runtime's generated engine.
//   jit vs build-time generated module   bit-identical: forward, observe, poses, energy, 300 steps
//                                         (the same operations in the same order, the same step)
//   jit vs runtime engine (ABA)           <= 1e-9 scaled (different algorithms, as agreement.test.mjs)
// Bad text rejects with a MechError; disposed Sims give their table slots back; generateCode returns what the
// build's mechgen writes.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';

import { MechError, generateCode, loadModelText, openModel } from '../../wasm/index.mjs';
import { badDir, modelFile, modelNames, nativeRef, root, scaledError } from './helpers.mjs';

const STATES = 200;
const STEPS = 300;

function setState(sim, s) {
  sim.q.set(s.q);
  sim.qd.set(s.qd);
  sim.tau.set(s.tau);
  sim.fext.set(s.fext);
  sim.act.set(s.act);
}

function sameBits(a, b, what) {
  assert.equal(a.length, b.length, `${what}: length`);
  for (let i = 0; i < a.length; i++) {
    if (!Object.is(a[i], b[i])) assert.fail(`${what}[${i}]: jit ${a[i]} vs build-time ${b[i]}`);
  }
}

for (const name of modelNames) {
  test(`${name}: jit, build-time generated and runtime engine agree`, async (t) => {
    const states = nativeRef('states', modelFile(name), 11, STATES);
    const jit = await openModel(name, { backend: 'jit' });
    const gen = await openModel(name);
    const run = await openModel(name, { backend: 'runtime' });
    try {
      assert.equal(jit.backend, 'jit');
      for (const k of ['nq', 'nv', 'nb', 'nact', 'name']) assert.equal(jit[k], gen[k], k);
      let vsRuntime = 0;
      for (const s of states) {
        for (const sim of [jit, gen, run]) setState(sim, s);
        const a = Float64Array.from(jit.forward());
        sameBits(a, gen.forward(), 'forward');
        vsRuntime = Math.max(vsRuntime, scaledError(a, run.forward()));
        sameBits(jit.observe(), gen.observe(), 'observe');
        sameBits(Float64Array.from(jit.poses()), gen.poses(), 'poses');
        const [ej, eg] = [jit.energy(), gen.energy()];
        assert.ok(Object.is(ej.total, eg.total), `energy ${ej.total} vs ${eg.total}`);
      }
      assert.ok(vsRuntime <= 1e-9, `jit vs runtime: ${vsRuntime}`);
      for (const sim of [jit, gen]) {
        sim.reset();
        sim.step(1e-3, STEPS);
      }
      sameBits(jit.q, gen.q, `q after ${STEPS} steps`);
      sameBits(jit.qd, gen.qd, `qd after ${STEPS} steps`);
      t.diagnostic(`${name}: ${STATES} states bit-identical to the build-time module (forward, observe, poses, ` +
        `energy), ${STEPS} steps too; vs runtime ABA ${vsRuntime.toExponential(2)}`);
    } finally {
      jit.dispose();
      gen.dispose();
      run.dispose();
    }
  });
}

test('malformed texts reject with a MechError, from openModel and generateCode', async () => {
  const files = readdirSync(badDir).filter((f) => f.endsWith('.mech')).sort();
  assert.ok(files.length > 0);
  for (const file of files) {
    const text = new Uint8Array(readFileSync(`${badDir}${file}`));
    for (const attempt of [
      () => openModel({ text, name: file }, { backend: 'jit' }),
      () => generateCode(text, { target: 'wasm', name: file }),
      () => generateCode(text, { target: 'c', name: file }),
    ]) {
      const error = await attempt().then((r) => { r.dispose?.(); return r; }, (e) => e);
      assert.ok(error instanceof MechError, `${file}: expected a MechError, got ${error}`);
    }
  }
  const sim = await openModel('threelink', { backend: 'jit' });
  assert.equal(sim.forward().length, 3, 'the jit still works');
  sim.dispose();
});

test('an over-constrained loop is refused with a MechError', async () => {
  const text = readFileSync(`${root}tests/overconstrained_fourbar.mech`, 'utf8');
  await assert.rejects(openModel({ text, name: 'overconstrained' }, { backend: 'jit' }), MechError);
});

test('open and dispose 200 times: the table slots are reused, the heap given back', async () => {
  const text = await loadModelText('threelink');
  const first = await openModel({ text, name: 'threelink' }, { backend: 'jit' });
  const before = first.memoryUsage();
  first.dispose();
  let table = 0;
  for (let i = 0; i < 200; i++) {
    const sim = await openModel({ text, name: 'threelink' }, { backend: 'jit' });
    sim.forward();
    const usage = sim.memoryUsage();
    table = Math.max(table, usage.table);
    assert.equal(usage.heap, before.heap, `heap in use at open ${i + 1}`);
    sim.dispose();
  }
  assert.ok(table <= before.table, `the function table grew from ${before.table} to ${table} slots`);
});

test('generateCode: the C the build\'s mechgen writes, and the module mechgen --wasm writes', async () => {
  for (const name of ['threelink', 'fourbar', 'hmmwv_pitman', 'track_min']) {
    const file = modelFile(name);
    const rel = file.slice(root.length);
    const text = readFileSync(file, 'utf8');
    const c = await generateCode(text, { target: 'c', name: rel });
    assert.equal(typeof c, 'string');
    assert.equal(c, readFileSync(`${root}build/generated/${name}.c`, 'utf8'), `${name}.c`);
    const wasm = await generateCode(text, { target: 'wasm', name: rel });
    assert.ok(wasm instanceof Uint8Array);
    assert.ok(WebAssembly.validate(wasm), `${name}.wasm validates`);
  }
  await assert.rejects(generateCode('body\n', { target: 'c' }), MechError);
  await assert.rejects(generateCode('gravity 0 0 -9.81\n', { target: 'js' }), RangeError);
});
