// The jit (docs/wasm.md, "Jit"): openModel(..., { backend: 'jit' }) generates the model's WebAssembly in the
// runtime module, instantiates it on the runtime's memory and runs it through the runtime's generated engine.
//   jit vs build-time generated module   forward, observe, poses, energy at 200 states, q and qd after 300
//                                         steps: bit-identical where the generator in WebAssembly folded the
//                                         same constants as the native one (reported per model), else
//                                         <= 1e-12 scaled (1e-9 after the steps); see "Jit" in docs/wasm.md
//   jit vs runtime engine (ABA)           <= 1e-9 scaled (different algorithms, as agreement.test.mjs)
// Bad text rejects with a MechError; disposed Sims give their table slots back; generateCode returns the
// functions the build's mechgen writes.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';

import { MechError, generateCode, loadModelText, openModel } from '../../wasm/index.mjs';
import { badDir, modelFile, modelNames, nativeRef, root, scaledError, setState } from './helpers.mjs';

const STATES = 200;
const STEPS = 300;

/** The scaled error of a against b (0 when bit-identical), gated at `gate`. */
function agree(a, b, what, gate) {
  assert.equal(a.length, b.length, `${what}: length`);
  let same = true;
  for (let i = 0; i < a.length; i++) same &&= Object.is(a[i], b[i]);
  const e = same ? 0 : scaledError(a, b);
  assert.ok(e <= gate, `${what}: jit vs build-time ${e}`);
  return e;
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
      let vsBuild = 0;
      for (const s of states) {
        for (const sim of [jit, gen, run]) setState(sim, s);
        const a = Float64Array.from(jit.forward());
        vsBuild = Math.max(vsBuild, agree(a, gen.forward(), 'forward', 1e-12));
        vsRuntime = Math.max(vsRuntime, scaledError(a, run.forward()));
        vsBuild = Math.max(vsBuild, agree(jit.observe(), gen.observe(), 'observe', 1e-12));
        vsBuild = Math.max(vsBuild, agree(Float64Array.from(jit.poses()), gen.poses(), 'poses', 1e-12));
        const [ej, eg] = [jit.energy(), gen.energy()];
        vsBuild = Math.max(vsBuild, agree([ej.kinetic, ej.potential], [eg.kinetic, eg.potential], 'energy', 1e-12));
      }
      assert.ok(vsRuntime <= 1e-9, `jit vs runtime: ${vsRuntime}`);
      const dt = gen.describe().contactDt || 1e-3;
      for (const sim of [jit, gen]) {
        sim.reset();
        sim.step(dt, STEPS);
      }
      const stepped = Math.max(agree(jit.q, gen.q, `q after ${STEPS} steps`, 1e-9),
        agree(jit.qd, gen.qd, `qd after ${STEPS} steps`, 1e-9));
      t.diagnostic(`${name}: ${STATES} states (forward, observe, poses, energy) vs the build-time module: ` +
        `${vsBuild === 0 ? 'bit-identical' : vsBuild.toExponential(2)}; after ${STEPS} steps of ${dt} s: ` +
        `${stepped === 0 ? 'bit-identical' : stepped.toExponential(2)}; vs runtime ABA ${vsRuntime.toExponential(2)}`);
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

// The generator's temporaries are numbered in the order it builds its expression nodes, which follows the
// order the C compiler evaluates function arguments in (gcc natively, clang in emcc): the runtime module's C
// is the build's text exactly where that order does not matter (threelink, fourlink), elsewhere the same
// exported functions and descriptor with the same operation counts (docs/wasm.md, "Jit").
test('generateCode: the C the build\'s mechgen writes, and a module that validates', async () => {
  const counts = (c) => c.split('\n').filter((l) => /^ \* \d+ (operations|with gravity|more for)/.test(l)).join('\n');
  const functions = (c) => c.split('\n').filter((l) => /^void mechgen_|^const mech_generated/.test(l)).join('\n');
  for (const name of modelNames) {
    const file = modelFile(name);
    const rel = file.slice(root.length);
    const text = readFileSync(file, 'utf8');
    const c = await generateCode(text, { target: 'c', name: rel });
    const built = readFileSync(`${root}build/generated/${name}.c`, 'utf8');
    assert.equal(typeof c, 'string');
    if (name === 'threelink' || name === 'fourlink') assert.equal(c, built, `${name}.c`);
    assert.equal(functions(c), functions(built), `${name}.c: its functions`);
    assert.equal(counts(c), counts(built), `${name}.c: its operation counts`);
    const wasm = await generateCode(text, { target: 'wasm', name: rel });
    assert.ok(wasm instanceof Uint8Array);
    assert.ok(WebAssembly.validate(wasm), `${name}.wasm validates`);
  }
  await assert.rejects(generateCode('body\n', { target: 'c' }), MechError);
  await assert.rejects(generateCode('gravity 0 0 -9.81\n', { target: 'js' }), RangeError);
});
