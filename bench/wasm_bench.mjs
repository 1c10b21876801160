// wasm_bench.mjs — forward-dynamics cost in WebAssembly, measured in one Node
// process (docs/wasm.md, "Benchmark").  Not a test: it prints a table.
//
//   node bench/wasm_bench.mjs [--json FILE]      (after `npm run build`)
//
// Per model, ns per forward-dynamics call of
//   gen wasm   the generated module, loop inside WebAssembly (bench.c, no JS)
//   gen native the same generated C and loop compiled natively (mech-wasm-ref)
//   ABA wasm   the runtime engine, loop inside WebAssembly
//   forward()  sim.forward() called from JS through the public API, at one
//              fixed state (so it includes the JS->WASM call and the checks)
//   mj_forward mujoco-js@0.0.7 (MuJoCo's official WebAssembly build), contacts
//              disabled, on the same model converted to MJCF (tests/mjcf.c)
// plus the cost of one empty JS->WASM call and of step(dt, n) batching.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

import { listModels, loadModelText, openModel } from '../wasm/index.mjs';
import { WasmModule } from '../wasm/module.mjs';

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

/** Best-of-RUNS ns per call of fn(calls), calls grown until one run takes 5 ms. */
function nsPerCall(fn) {
  let calls = 1000;
  for (;;) {
    const t0 = cpuNs();
    fn(calls);
    if (cpuNs() - t0 >= 5e6 || calls >= 1 << 26) break;
    calls *= 2;
  }
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

async function generatedInside(name) {
  const mod = await WasmModule.instantiate(new URL(`${name}.wasm`, dist));
  const handle = mod.exports.mw_open();
  const ns = insideWasm(mod, handle);
  mod.exports.mw_close(handle);
  return ns;
}

async function runtimeInside(name, text) {
  const mod = await WasmModule.instantiate(new URL('runtime.wasm', dist));
  const handle = mod.withString(name, (n) => mod.withString(text, (t, len) => mod.exports.mw_open_text(t, len, n)));
  const ns = insideWasm(mod, handle);
  mod.exports.mw_close(handle);
  return ns;
}

/** sim.forward() from JS at one random state. */
async function fromJs(name) {
  const sim = await openModel(name);
  const [state] = JSON.parse(tool('mech-wasm-ref', 'states', `${root}models/${name}.mech`, '7', '1'));
  sim.q.set(state.q);
  sim.qd.set(state.qd);
  sim.tau.set(state.tau);
  sim.fext.set(state.fext);
  const ns = nsPerCall((calls) => { for (let i = 0; i < calls; i++) sim.forward(); });
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
  const model = mujoco.MjModel.loadFromXML(`/bench/${name}.xml`);
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

/** One empty JS->WASM call, and step(dt, 1) in a JS loop against step(dt, n). */
async function callCosts() {
  const sim = await openModel('threelink');
  const mod = await WasmModule.instantiate(new URL('threelink.wasm', dist));
  const empty = nsPerCall((calls) => { for (let i = 0; i < calls; i++) mod.exports.mw_error_line(); });
  const dt = 1e-4;
  const single = nsPerCall((calls) => { sim.reset(); for (let i = 0; i < calls; i++) sim.step(dt); });
  const batched = nsPerCall((calls) => { sim.reset(); sim.step(dt, calls); });
  sim.dispose();
  return { empty, single, batched };
}

const f = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const ratio = (a, b) => `${(a / b).toFixed(a / b >= 10 ? 0 : 2)}×`;

const { default: loadMujoco } = await import('mujoco-js');
const mujoco = await loadMujoco();
mujoco.FS.mkdir('/bench');

const rows = [];
for (const { name } of await listModels()) {
  const text = await loadModelText(name);
  const row = { name };
  for (let round = 0; round < ROUNDS; round++) {
    const native = JSON.parse(tool('mech-wasm-ref', 'bench', `${root}models/${name}.mech`, String(RUNS)));
    const measured = {
      genWasm: await generatedInside(name),
      genNative: native.generated,
      abaWasm: await runtimeInside(name, text),
      abaNative: native.runtime,
      forward: await fromJs(name),
      mujoco: await mujocoForward(mujoco, name),
    };
    for (const [k, v] of Object.entries(measured)) row[k] = Math.min(row[k] ?? Infinity, v);
  }
  rows.push(row);
}
const calls = await callCosts();

console.log(`WebAssembly forward dynamics, ns/call (best of ${ROUNDS}×${RUNS} runs, CPU time); ` +
  `${cpus()[0].model}, Node ${process.version}`);
const header = ['model', 'gen wasm', 'gen native', 'wasm/native', 'ABA wasm', 'ABA native', 'forward() JS',
  'mj_forward', 'mj/forward()', 'mj/gen wasm'];
console.log(header.map((h, i) => (i ? h.padStart(12) : h.padEnd(10))).join(''));
for (const r of rows) {
  console.log([r.name.padEnd(10), f(r.genWasm), f(r.genNative), ratio(r.genWasm, r.genNative), f(r.abaWasm),
    f(r.abaNative), f(r.forward), f(r.mujoco), ratio(r.mujoco, r.forward),
    ratio(r.mujoco, r.genWasm)]
    .map((c, i) => (i ? c.padStart(12) : c)).join(''));
}
console.log(`one empty JS->WASM call: ${f(calls.empty)} ns`);
console.log(`threelink step(dt) in a JS loop: ${f(calls.single)} ns/step; step(dt, n) batched: ${f(calls.batched)} ns/step`);

const jsonAt = process.argv.indexOf('--json');
if (jsonAt > 0) {
  const record = { date: new Date().toISOString(), cpu: cpus()[0].model, node: process.version, rows, calls };
  writeFileSync(process.argv[jsonAt + 1], JSON.stringify(record, null, 2));
}
