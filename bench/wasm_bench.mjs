// wasm_bench.mjs — forward-dynamics cost in WebAssembly, measured in one Node
// process (docs/wasm.md, "Benchmark").  Not a test: it prints a table.
//
//   node bench/wasm_bench.mjs [--robots] [--json FILE]      (after `npm run build`)
//
// --robots: the robots' section alone.
//
// Per model, ns per forward-dynamics call of
//   gen wasm   the generated module, loop inside WebAssembly (bench.c, no JS)
//   gen native the same generated C and loop compiled natively (mech-wasm-ref)
//   loop wasm, loop native
//              the same loop over a backend that computes nothing
//              (mech_bench_null_fd): the loop's own cost and the indirect call
//   net        (gen wasm - loop wasm) / (gen native - loop native): the
//              generated code alone, call overhead excluded
//   ABA wasm   the runtime engine, loop inside WebAssembly
//   ABA fwd()  sim.forward() of the runtime engine (openModel(name,
//              { backend: 'runtime' })) called from JS at the same fixed
//              state as forward(), like mj_forward
//   forward()  sim.forward() called from JS through the public API, at one
//              fixed state (so it includes the JS->WASM call and the checks)
//   at state   the generated code at that same state, looped inside
//              WebAssembly (mw_bench_here), timed in turn with forward():
//              forward() minus this is what the API costs
//   mj_forward mujoco-js@0.0.7 (MuJoCo's official WebAssembly build), contacts
//              disabled, on the same model converted to MJCF (tests/mujoco/mjcf.c),
//              called from JS at one fixed state like forward()
//   mj/ABA     mj_forward / ABA fwd(); gate: >= 1.5 on elbow, bintree and
//              satellite (the runtime engine, which runs edited models)
// then, per robot of models/robots/ (imported at build time, docs/import.md),
// forward() on its generated module against mj_forward on the ORIGINAL file
// (MJCF or URDF) as tests/node/import.test.mjs loads it: contacts, limits,
// equality constraints, actuators and friction loss disabled
// (tests/node/mujoco-side.mjs, mujocoRobot).
// plus the cost of one empty JS->WASM call, of threelink's mw_forward export
// called from JS without the Sim method around it, and of step(dt, n) batching.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

import { listModels, loadModelText, openModel } from '../wasm/index.mjs';
import { HEADER, WasmModule } from '../wasm/module.mjs';
import { loadMujoco, mujocoRobot } from '../tests/node/mujoco-side.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const tool = (name, ...args) => execFileSync(`${root}build/wasm/${name}`, args, { encoding: 'utf8' });
const dist = new URL('../wasm/dist/', import.meta.url);
// Time is this process's CPU time, so time spent descheduled on a shared
// machine is not charged, and the fastest of many short runs is kept
// (mech-wasm-ref times native code the same way, with its thread's CPU time).
// Each model's measurements also take turns over ROUNDS rounds (best kept),
// so a burst of load elsewhere hits every column alike.
const RUNS = 10;
const ROUNDS = 3;

/** CPU time of this process in ns. */
function cpuNs() {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1e3;
}

/**
 * Best-of-RUNS ns per call of fn(calls), calls grown until one run takes 5 ms,
 * after WARMUP ns of untimed runs.  V8 runs WebAssembly first as Liftoff
 * (baseline) code and swaps in TurboFan code compiled on a background thread
 * once a function is hot; on a loaded machine that can take longer than the
 * sizing runs, and a figure of Liftoff code is 2-8x too slow.
 */
const WARMUP = 1e8;
function nsPerCall(fn) {
  let calls = 1000;
  for (;;) {
    const t0 = cpuNs();
    fn(calls);
    if (cpuNs() - t0 >= 5e6 || calls >= 1 << 26) break;
    calls *= 2;
  }
  for (const t0 = cpuNs(); cpuNs() - t0 < WARMUP;) fn(calls);
  let best = Infinity;
  for (let r = 0; r < RUNS; r++) {
    const t0 = cpuNs();
    fn(calls);
    best = Math.min(best, (cpuNs() - t0) / calls);
  }
  return best;
}

/** ns per call of the bench loop inside a module (one JS->WASM call per run). */
function insideWasm(mod, handle) {
  return nsPerCall((calls) => mod.exports.mw_bench_forward(handle, calls));
}

/** The generated module's loop and the null backend's loop (see header). */
async function generatedInside(name) {
  const mod = await WasmModule.instantiate(new URL(`${name}.wasm`, dist));
  const handle = mod.exports.mw_open();
  const gen = insideWasm(mod, handle);
  const loop = nsPerCall((calls) => mod.exports.mw_bench_overhead(handle, calls));
  mod.exports.mw_close(handle);
  return { gen, loop };
}

async function runtimeInside(name, text) {
  const mod = await WasmModule.instantiate(new URL('runtime.wasm', dist));
  const handle = mod.withString(name, (n) => mod.withString(text, (t, len) => mod.exports.mw_open_text(t, len, n)));
  const ns = insideWasm(mod, handle);
  mod.exports.mw_close(handle);
  return ns;
}

// The robots: models/robots/<name>.xml (MJCF) or .urdf, imported by the build into build/wasm/robots/<name>.mech.
const robots = readdirSync(`${root}models/robots`).filter((f) => /\.(xml|urdf)$/.test(f)).sort().map((file) => ({
  name: file.replace(/\.(xml|urdf)$/, ''),
  file,
  format: file.endsWith('.urdf') ? 'urdf' : 'mjcf',
}));
const robotNames = new Set(robots.map((r) => r.name));
/** The .mech file of a shipped tree model or robot. */
const mechFile = (name) => (robotNames.has(name) ? `${root}build/wasm/robots/${name}.mech` : `${root}models/${name}.mech`);

/** One random state (seed 7) of the model, as mech-wasm-ref draws it. */
const stateOf = (name) => JSON.parse(tool('mech-wasm-ref', 'states', mechFile(name), '7', '1'))[0];

/**
 * sim.forward() from JS at `state`, and the generated code at that state
 * inside WebAssembly (mw_bench_here, in a second instance of the module),
 * measured in turn three times each so that both see the same load.
 * forward() goes through a fresh copy of the shim (index.mjs imported again
 * under its own URL), as in a page that runs this one model: within one copy,
 * Sim.prototype.forward calls the export of every module a Sim was made from,
 * and once it has called several V8 no longer inlines the JS->WASM call there
 * (callCosts below measures that case).
 */
async function fromJs(name, state) {
  const { openModel: open } = await import(new URL(`../wasm/index.mjs?bench=${name}`, import.meta.url).href);
  const sim = await open(name);
  const mod = await WasmModule.instantiate(new URL(`${name}.wasm`, dist));
  const handle = mod.exports.mw_open();
  const h = mod.i32(mod.exports.mw_arrays(handle), HEADER.length);
  for (const k of ['q', 'qd', 'tau', 'fext']) {
    sim[k].set(state[k]);
    mod.f64(h[HEADER[k]], state[k].length).set(state[k]);
  }
  // The timing loop is compiled afresh for each model (new Function): one
  // arrow function here would be one call site for every model's Sim class,
  // and V8's feedback there turns polymorphic, which slows the models timed
  // last (docs/benchmarks.md, "Measured reasons in the code").
  const loop = new Function('sim', 'return (calls) => { for (let i = 0; i < calls; i++) sim.forward(); };')(sim);
  let forward = Infinity, here = Infinity;
  for (let turn = 0; turn < 3; turn++) {
    forward = Math.min(forward, nsPerCall(loop));
    here = Math.min(here, nsPerCall((calls) => mod.exports.mw_bench_here(handle, calls)));
  }
  mod.exports.mw_close(handle);
  sim.dispose();
  return { forward, here };
}

/**
 * sim.forward() of the runtime engine on a shipped model at `state`, from a
 * fresh copy of the shim with its own timing loop (as fromJs).
 */
async function runtimeFromJs(name, state) {
  const { openModel: open } = await import(new URL(`../wasm/index.mjs?bench=runtime-${name}`, import.meta.url).href);
  const sim = await open(name, { backend: 'runtime' });
  for (const k of ['q', 'qd', 'tau', 'fext']) sim[k].set(state[k]);
  const loop = new Function('sim', 'return (calls) => { for (let i = 0; i < calls; i++) sim.forward(); };')(sim);
  const ns = nsPerCall(loop);
  sim.dispose();
  return ns;
}

/** mujoco-js mj_forward on the model's MJCF at one random (q, qd) state. */
async function mujocoForward(mujoco, name) {
  // The converter targets Debian's MuJoCo 2.2.2; MuJoCo 3 (mujoco-js) split
  // the `passive` flag into `spring` and `damper`.
  const xml = tool('mech-mjcf', `${root}models/${name}.mech`)
    .replace(' passive="disable"', ' spring="disable" damper="disable"');
  mujoco.FS.writeFile(`/bench/${name}.xml`, xml);
  return mujocoForwardOn(mujoco, mujoco.MjModel.loadFromXML(`/bench/${name}.xml`));
}

/** ns per mj_forward of a loaded MuJoCo model at one random (q, qd) state; deletes the model. */
function mujocoForwardOn(mujoco, model) {
  const data = new mujoco.MjData(model);
  let seed = 1;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
  for (let j = 0; j < model.njnt; j++) {
    const type = model.jnt_type[j];
    const adr = model.jnt_qposadr[j];
    if (type === 2 || type === 3) data.qpos[adr] = random() * Math.PI; // slide, hinge
  }
  for (let i = 0; i < model.nv; i++) data.qvel[i] = 2 * random();
  const ns = nsPerCall((calls) => { for (let i = 0; i < calls; i++) mujoco.mj_forward(model, data); });
  data.delete();
  model.delete();
  return ns;
}

/**
 * One empty JS->WASM call; threelink's mw_forward export called straight
 * from JS at the same state as forward(); step(dt, 1) in a JS loop against step(dt, n); and
 * threelink forward() from this realm's shim, whose Sim.prototype.forward has
 * by now called every model's export (polymorphic: see fromJs).
 */
async function callCosts(states) {
  const sim = await openModel('threelink', { stepBudgetMs: Infinity });
  const mod = await WasmModule.instantiate(new URL('threelink.wasm', dist));
  const empty = nsPerCall((calls) => { for (let i = 0; i < calls; i++) mod.exports.mw_error_line(); });
  const handle = mod.exports.mw_open();
  const h = mod.i32(mod.exports.mw_arrays(handle), HEADER.length);
  for (const k of ['q', 'qd', 'tau']) mod.f64(h[HEADER[k]], sim.nv).set(states.get('threelink')[k]);
  const rawForward = mod.exports.mw_forward;
  const raw = nsPerCall((calls) => { for (let i = 0; i < calls; i++) rawForward(handle); });
  mod.exports.mw_close(handle);
  const dt = 1e-4;
  const single = nsPerCall((calls) => { sim.reset(); for (let i = 0; i < calls; i++) sim.step(dt); });
  const batched = nsPerCall((calls) => { sim.reset(); sim.step(dt, calls); });
  for (const [name, state] of states) {
    const other = await openModel(name);
    other.q.set(state.q);
    other.qd.set(state.qd);
    for (let i = 0; i < 1e5; i++) other.forward();
    other.dispose();
  }
  sim.reset();
  sim.q.set(states.get('threelink').q);
  sim.qd.set(states.get('threelink').qd);
  sim.tau.set(states.get('threelink').tau);
  const polymorphic = nsPerCall((calls) => { for (let i = 0; i < calls; i++) sim.forward(); });
  sim.dispose();
  return { empty, raw, single, batched, polymorphic };
}

const f = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
// The runtime engine's gate (mj/ABA column).
const ABA_GATE = 1.5;
const ABA_GATE_MODELS = ['elbow', 'bintree', 'satellite'];
const ratio = (a, b) => `${(a / b).toFixed(a / b >= 10 ? 0 : 2)}×`;

const mujoco = await loadMujoco(); // one mujoco-js instance, shared with mujoco-side.mjs's robot loader
mujoco.FS.mkdir('/bench');

const rows = [];
const states = new Map();
// The tree models (models/*.mech), each with its generated module.
const onlyRobots = process.argv.includes('--robots');
const trees = onlyRobots ? [] : (await listModels()).filter((m) => m.group === 'trees' && m.backend === 'generated' && !robotNames.has(m.name));
for (const { name } of trees) {
  const text = await loadModelText(name);
  const state = stateOf(name);
  states.set(name, state);
  const row = { name };
  for (let round = 0; round < ROUNDS; round++) {
    const native = JSON.parse(tool('mech-wasm-ref', 'bench', `${root}models/${name}.mech`, String(RUNS)));
    const inside = await generatedInside(name);
    const api = await fromJs(name, state);
    const measured = {
      genWasm: inside.gen,
      genNative: native.generated,
      loopWasm: inside.loop,
      loopNative: native.overhead,
      abaWasm: await runtimeInside(name, text),
      abaNative: native.runtime,
      abaForward: await runtimeFromJs(name, state),
      forward: api.forward,
      here: api.here,
      mujoco: await mujocoForward(mujoco, name),
    };
    for (const [k, v] of Object.entries(measured)) row[k] = Math.min(row[k] ?? Infinity, v);
  }
  // When the code beyond the calls is within a couple of ns of nothing on
  // either side (gantry: four arithmetic operations), the difference of two
  // minima is noise: no net ratio.
  const netWasm = row.genWasm - row.loopWasm, netNative = row.genNative - row.loopNative;
  row.net = netWasm >= 2 && netNative >= 2 ? netWasm / netNative : NaN;
  rows.push(row);
}
const calls = onlyRobots ? null : await callCosts(states);

console.log(`WebAssembly forward dynamics, ns/call (best of ${ROUNDS}×${RUNS} runs, CPU time); ` +
  `${cpus()[0].model}, Node ${process.version}`);
if (!onlyRobots) {
  const header = ['model', 'gen wasm', 'gen native', 'wasm/native', 'loop wasm', 'loop native', 'net', 'ABA wasm',
    'ABA native', 'ABA fwd()', 'forward() JS', 'at state', 'mj_forward', 'mj/forward()', 'mj/gen wasm', 'mj/ABA'];
  const w = (c, i) => (i ? c.padStart(i === 10 ? 13 : 12) : c.padEnd(10));
  console.log(header.map(w).join(''));
  for (const r of rows) {
    console.log([r.name, f(r.genWasm), f(r.genNative), ratio(r.genWasm, r.genNative), f(r.loopWasm), f(r.loopNative),
      Number.isNaN(r.net) ? '—' : `${r.net.toFixed(2)}×`, f(r.abaWasm), f(r.abaNative), f(r.abaForward), f(r.forward),
      f(r.here), f(r.mujoco), ratio(r.mujoco, r.forward), ratio(r.mujoco, r.genWasm), ratio(r.mujoco, r.abaForward)]
      .map(w).join(''));
  }
  console.log(`one empty JS->WASM call: ${f(calls.empty)} ns`);
  console.log(`threelink mw_forward export called from JS (no Sim method): ${f(calls.raw)} ns`);
  console.log(`threelink step(dt) in a JS loop: ${f(calls.single)} ns/step; step(dt, n) batched: ${f(calls.batched)} ns/step`);
  console.log(`threelink forward() from a shim whose forward() has run every model (polymorphic): ${f(calls.polymorphic)} ns`);
  const slow = rows.filter((r) => r.net > 1.3).map((r) => `${r.name} ${r.net.toFixed(2)}×`);
  const unresolved = rows.filter((r) => Number.isNaN(r.net)).map((r) => r.name);
  const three = rows.find((r) => r.name === 'threelink');
  console.log(`gate, generated wasm within 1.3× of native (net): ${slow.length ? `not met: ${slow.join(', ')}` : 'met'}` +
    (unresolved.length ? ` (no net figure for ${unresolved.join(', ')}: code within 2 ns of the calls alone)` : ''));
  if (three) {
    const x = three.mujoco / three.forward;
    console.log(`gate, threelink forward() >= 20× faster than mj_forward: ${x >= 20 ? 'met' : 'not met'} (${x.toFixed(1)}×)`);
  }
  const abaGated = rows.filter((r) => ABA_GATE_MODELS.includes(r.name));
  if (abaGated.length) {
    const figures = abaGated.map((r) => `${r.name} ${(r.mujoco / r.abaForward).toFixed(2)}×`).join(', ');
    const met = abaGated.every((r) => r.mujoco / r.abaForward >= ABA_GATE);
    console.log(`gate, runtime ABA forward() >= ${ABA_GATE}× faster than mj_forward on ${ABA_GATE_MODELS.join(', ')}: ` +
      `${met ? 'met' : 'not met'} (${figures})`);
  }
}

// The robots: forward() on the generated module of the imported .mech against
// mj_forward on the original file (see header).  Gate: mj_forward / forward() >= 15.
const ROBOT_GATE = 15;
const robotRows = [];
for (const robot of robots) {
  const row = { ...robot };
  let model;
  try {
    model = await mujocoRobot(readFileSync(`${root}models/robots/${robot.file}`, 'utf8'), robot.format);
  } catch (e) {
    row.skipped = `mujoco-js cannot load ${robot.file}: ${e.message}`;
    robotRows.push(row);
    continue;
  }
  row.nv = model.nv;
  model.delete();
  const state = stateOf(robot.name);
  for (let round = 0; round < ROUNDS; round++) {
    const api = await fromJs(robot.name, state);
    const fresh = await mujocoRobot(readFileSync(`${root}models/robots/${robot.file}`, 'utf8'), robot.format);
    const measured = { forward: api.forward, here: api.here, mujoco: mujocoForwardOn(mujoco, fresh) };
    for (const [k, v] of Object.entries(measured)) row[k] = Math.min(row[k] ?? Infinity, v);
  }
  robotRows.push(row);
}
console.log('\nRobots (models/robots/): generated forward() against mj_forward on the original file, ns/call:');
const robotHeader = ['robot', 'file', 'nv', 'forward() JS', 'at state', 'mj_forward', 'mj/forward()'];
const wr = (c, i) => (i > 1 ? c.padStart(14) : c.padEnd(12));
console.log(robotHeader.map(wr).join(''));
for (const r of robotRows) {
  if (r.skipped) console.log(`${r.name.padEnd(12)}${r.file.padEnd(12)}skipped: ${r.skipped}`);
  else console.log([r.name, r.file, String(r.nv), f(r.forward), f(r.here), f(r.mujoco), ratio(r.mujoco, r.forward)].map(wr).join(''));
}
for (const r of robotRows.filter((x) => !x.skipped)) {
  const x = r.mujoco / r.forward;
  console.log(`gate, ${r.name} forward() >= ${ROBOT_GATE}× faster than mj_forward on ${r.file}: ${x >= ROBOT_GATE ? 'met' : 'not met'} (${x.toFixed(1)}×)`);
}

// Closed loops and vehicles (models/loops/): generated module vs native, the
// runtime engine (method 2 over ABA) and the native dense reference (method 2
// over CRBA + LU).  No MuJoCo column: the MJCF converter handles trees only.
const loopRows = [];
for (const { name } of onlyRobots ? [] : (await listModels()).filter((m) => m.group === 'loops')) {
  const text = await loadModelText(name);
  const row = { name };
  for (let round = 0; round < ROUNDS; round++) {
    const native = JSON.parse(tool('mech-wasm-ref', 'bench', `${root}models/loops/${name}.mech`, String(RUNS)));
    const measured = {
      genWasm: (await generatedInside(name)).gen, genNative: native.generated,
      abaWasm: await runtimeInside(name, text), dense: native.dense,
    };
    for (const [k, v] of Object.entries(measured)) row[k] = Math.min(row[k] ?? Infinity, v);
  }
  loopRows.push(row);
}
if (loopRows.length) console.log('\nClosed loops and vehicles, ns/call:');
const loopHeader = ['model', 'gen wasm', 'gen native', 'wasm/native', 'runtime wasm', 'dense native', 'dense/gen wasm'];
const wl = (c, i) => (i ? c.padStart(15) : c.padEnd(13));
if (loopRows.length) console.log(loopHeader.map(wl).join(''));
for (const r of loopRows) {
  console.log([r.name, f(r.genWasm), f(r.genNative), ratio(r.genWasm, r.genNative), f(r.abaWasm), f(r.dense),
    ratio(r.dense, r.genWasm)].map(wl).join(''));
}

const jsonAt = process.argv.indexOf('--json');
if (jsonAt > 0) {
  const record = { date: new Date().toISOString(), cpu: cpus()[0].model, node: process.version, rows, robotRows, loopRows, calls };
  writeFileSync(process.argv[jsonAt + 1], JSON.stringify(record, null, 2));
}
