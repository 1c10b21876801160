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

import { MechError, generateCode, listModels, loadModelText } from '../../wasm/index.mjs';
import { fourbars } from '../fixtures/heavy_models.mjs';
import { badDir, modelFile, modelNames, nativeRef, openModel, root, scaledError, setState } from './helpers.mjs';

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

// forward() on a jit Sim runs the jitted module's own fast path (core/codegen/emit_wasm.h), which declines
// everything but the plain case to the runtime's mw_forward: each case below must give the build-time module's
// qdd bit for bit, or its error message word for word.
test('jit forward(): the build-time module\'s qdd and errors, case by case', async () => {
  /** qdd, or the error's class and message, after set(sim). */
  const outcome = (sim, set) => {
    set(sim);
    try {
      return Array.from(sim.forward(), (x) => Object.is(x, -0) ? '-0' : x);
    } catch (e) {
      return `${e.constructor.name}: ${e.message}`;
    }
  };
  for (const name of ['gantry', 'threelink', 'satellite', 'trolley', 'fourbar', 'springpend', 'hmmwv_pitman']) {
    const jit = await openModel(name, { backend: 'jit' });
    const gen = await openModel(name);
    const q0 = Float64Array.from(gen.q), g0 = Float64Array.from(gen.gravity);
    const cases = {
      'initial state': () => {},
      'q[0] NaN': (sim) => { sim.q[0] = NaN; },
      'last qd Infinity': (sim) => { sim.qd[sim.nv - 1] = Infinity; },
      'tau[0] NaN': (sim) => { sim.tau[0] = NaN; },
      'fext NaN': (sim) => { sim.fext.fill(NaN); },
      'act NaN': (sim) => { if (sim.nact) sim.act[0] = NaN; },
      'qd 1e300': (sim) => { sim.qd.fill(1e300); },
      'q[0] 1e6 (beyond the sin/cos range)': (sim) => { sim.q[0] = 1e6; },
      'another gravity': (sim) => { sim.gravity.set([0.5, -1.5, -3]); },
      'gravity with a zero of the other sign': (sim) => {
        sim.gravity.set(g0.map((x) => (x === 0 ? (Object.is(x, -0) ? 0 : -0) : x)));
      },
      'gravity NaN': (sim) => { sim.gravity[2] = NaN; },
    };
    try {
      for (const [what, set] of Object.entries(cases)) {
        const reset = (sim) => {
          sim.reset();
          sim.q.set(q0);
          sim.qd.fill(0.25);
          sim.tau.fill(0.5);
          sim.fext.fill(0);
          sim.act.fill(0);
          sim.gravity.set(g0);
          set(sim);
        };
        assert.deepEqual(outcome(jit, reset), outcome(gen, reset), `${name}, ${what}`);
      }
    } finally {
      gen.dispose();
    }
    jit.dispose();
    assert.throws(() => jit.forward(), /has been disposed/, `${name}: a disposed jit Sim`);
  }
});

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
  const text = readFileSync(`${root}tests/fixtures/overconstrained_fourbar.mech`, 'utf8');
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

// The generator numbers its expression nodes in the order it builds them, and it never leaves that order to the
// C compiler (no call takes two arguments that build nodes: core/codegen/sym_spatial.c), so the generator compiled
// by clang into the runtime module writes the C the build's mechgen (gcc) writes, byte for byte, on every shipped
// model (docs/wasm.md, "Jit").
test('generateCode: the C the build\'s mechgen writes, and a module that validates', async () => {
  // A terrain scene (`module` naming its base model) runs on its base model's module: no C of its own.
  const shipped = (await listModels()).filter((m) => m.backend === 'generated' && !m.module).map((m) => m.name);
  assert.deepEqual([...modelNames].sort(), shipped.sort(), 'every model of the manifest (wasm/dist/models.json)');
  /** Where a and b first differ, as "line N". */
  const firstDiff = (a, b) => {
    const x = a.split('\n'), y = b.split('\n');
    let k = 0;
    while (k < x.length && x[k] === y[k]) k++;
    return `line ${k + 1}: ${JSON.stringify(x[k])} vs ${JSON.stringify(y[k])}`;
  };
  for (const name of modelNames) {
    const file = modelFile(name);
    const rel = file.slice(root.length);
    const text = readFileSync(file, 'utf8');
    const c = await generateCode(text, { target: 'c', name: rel });
    const built = readFileSync(`${root}build/generated/${name}.c`, 'utf8');
    assert.equal(typeof c, 'string');
    assert.ok(c === built, `${name}.c: generateCode's C differs from build/generated/${name}.c at ${c === built ? '' : firstDiff(c, built)}`);
    const wasm = await generateCode(text, { target: 'wasm', name: rel });
    assert.ok(wasm instanceof Uint8Array);
    assert.ok(WebAssembly.validate(wasm), `${name}.wasm validates`);
  }
  await assert.rejects(generateCode('body\n', { target: 'c' }), MechError);
  await assert.rejects(generateCode('gravity 0 0 -9.81\n', { target: 'js' }), RangeError);
});

test('generateCode: a name that would end its comment, string or #include line in the C is refused, saying why', async () => {
  const text = await loadModelText('threelink');
  for (const [name, why] of [['x */ int evil(void){return 1;} /*', "'\\*/'"], ['a"b', 'a quote'], ['a\\b', 'a backslash'],
    ['m\n#include <stdio.h>', 'a control character']]) {
    for (const target of ['c', 'wasm']) {
      await assert.rejects(generateCode(text, { target, name }), (e) => e instanceof MechError &&
        new RegExp(`cannot be written into generated C: it holds ${why}`).test(e.message), `${JSON.stringify(name)} (${target})`);
    }
  }
  assert.match(await generateCode(text, { target: 'c', name: 'my model (v2)' }), /generated from my model \(v2\)/);
});

test('a model the generator refuses is named by its file, never a bare ": "', async () => {
  const text = 'body a\n  parent base\n  joint revolute z\n  mass 1\n  com 1e300 0 0\n  inertia 1 1 1\nend\n';
  for (const target of ['c', 'wasm']) {
    await assert.rejects(generateCode(text, { target, name: 'm' }), (e) => e instanceof MechError && /^m: a constant evaluates to/.test(e.message), target);
  }
});

/** A planar chain of nb links closed to the base by a point-on-line loop every nb / nloop links. */
function chainWithLoops(nb, nloop) {
  let text = 'gravity 0 0 -9.81\n';
  for (let i = 0; i < nb; i++) {
    text += `body b${i}\n  parent ${i ? `b${i - 1}` : 'base'}\n  joint revolute y\n  pos ${i ? 0.1 : 0} 0 0\n  mass 1\n` +
      `  com 0.05 0 0\n  inertia 0.001 0.001 0.001\n  q0 ${7 + (i % 5)}\nend\n`;
  }
  for (let l = 0; l < nloop; l++) {
    text += `loop c${l}\n  type point-on-line\n  pred base\n  ppos ${0.05 * l} 0 0\n  paxis y\n` +
      `  succ b${(l + 1) * Math.floor(nb / nloop) - 1}\n  spos 0.1 0 0\nend\n`;
  }
  return text;
}

test('a model too large to generate is refused from its estimated size at once, naming the size and the limit', async () => {
  const text = chainWithLoops(240, 60);
  await generateCode('gravity 0 0 -9.81\n', { target: 'c' }).catch(() => {}); // the runtime module loaded first
  for (const [target, limit] of [['wasm', 'bytes of WebAssembly in one function \\(at most 7654321\\)'],
    ['c', 'bytes of C source \\(at most 33554432\\)']]) {
    const t0 = performance.now();
    await assert.rejects(generateCode(text, { target, name: 'chain.mech' }), (e) => e instanceof MechError &&
      new RegExp(`^chain.mech: the model is too large to generate: about \\d+ operations, an estimated \\d+ ${limit}`).test(e.message), target);
    const seconds = (performance.now() - t0) / 1000;
    assert.ok(seconds < 1, `${target}: refused after ${seconds.toFixed(2)} s`);
  }
  await assert.rejects(openModel({ text, name: 'chain.mech' }, { backend: 'jit' }), /too large to generate/);
});

test('256 independent four-bars, under the size limit, generate in seconds: method 2 works per loop, not per pair', async () => {
  const text = fourbars(256);
  for (const target of ['wasm', 'c']) {
    const t0 = performance.now();
    const code = await generateCode(text, { target, name: 'fourbars256.mech' });
    const seconds = (performance.now() - t0) / 1000;
    assert.ok(code.length > 0, target);
    assert.ok(seconds < 10, `${target}: generated in ${seconds.toFixed(2)} s`);
  }
});
