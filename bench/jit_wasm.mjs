// jit_wasm.mjs — the jit against the build-time modules (docs/wasm.md, "Jit"; docs/benchmarks.md).  Not a
// test: it prints a table.
//
//   node bench/jit_wasm.mjs [model ...]      (after `npm run build`; default: every shipped model)
//
// Per model:
//   build ns   ns per forward-dynamics call of the build-time module (the generated C through emcc -O2),
//              the loop inside WebAssembly (wasm/bench.c, mw_bench_forward: 256 sampled states, the
//              engine's forward dynamics at the model's gravity); CPU time, the two columns taking turns,
//              fastest run kept
//   jit ns     the same loop in the runtime module over a jit handle: the engine calls the jitted
//              module's fwd_dyn_own_gravity through the function table (call_indirect, no JS)
//   ratio      jit / build
//   fwd build  ns per sim.forward() from JavaScript at the model's initial state, the build-time module's Sim
//              (openModel(name)): wasm/model.c's mw_forward
//   fwd jit    the same on a jit Sim (openModel({ text }, { backend: 'jit' })): the jitted module's own forward
//              (core/codegen/emit_wasm.h), the runtime's mw_forward only when it declines
//   ratio      fwd jit / fwd build; gate: <= 1.3 on every model
//   emit ms    the runtime module's generator, text to .wasm bytes (median of 5)
//   bytes      the .wasm's size
// then the time from text to a running jit Sim (openModel({ text }, { backend: 'jit' }) and one forward()),
// median of 10, for threelink and hmmwv_pitman (the browser targets: 50 and 300 ms).
import { cpus } from 'node:os';

import { listModels, loadModelText, openModel } from '../wasm/index.mjs';
import { generate, jitHandle } from '../wasm/jit.mjs';
import { WasmModule } from '../wasm/module.mjs';

const dist = new URL('../wasm/dist/', import.meta.url);
const GATE = 1.3;

/** CPU time of this process in ns (time descheduled on a shared machine is not charged). */
function cpuNs() {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1e3;
}

/**
 * ns per call of each of fns (fn(calls)), calls grown until a run takes 5 ms, after 0.3 s of untimed runs
 * each (V8 runs WebAssembly first as Liftoff code and swaps in TurboFan code once it is hot); then ROUNDS
 * rounds in which the functions take turns, 5 runs each, the fastest run kept: on a shared machine a burst
 * of load elsewhere then hits both alike.
 */
const ROUNDS = 6;
function nsPerCall(fns) {
  const calls = fns.map((fn) => {
    let n = 256;
    for (;;) {
      const t0 = cpuNs();
      fn(n);
      if (cpuNs() - t0 >= 5e6 || n >= 1 << 26) return n;
      n *= 2;
    }
  });
  fns.forEach((fn, k) => { for (const t0 = cpuNs(); cpuNs() - t0 < 3e8;) fn(calls[k]); });
  const best = fns.map(() => Infinity);
  for (let r = 0; r < ROUNDS; r++) {
    fns.forEach((fn, k) => {
      for (let run = 0; run < 5; run++) {
        const t0 = cpuNs();
        fn(calls[k]);
        best[k] = Math.min(best[k], (cpuNs() - t0) / calls[k]);
      }
    });
  }
  return best;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

function fail(mod, ptr) {
  if (!ptr) throw new Error(mod.lastError().message);
}

// A terrain scene (`module` naming its base model) runs on its base model's module: nothing of its own to time.
const models = (await listModels()).filter((m) => m.backend === 'generated' && !m.module).map((m) => m.name);
const chosen = process.argv.length > 2 ? process.argv.slice(2) : models;
console.log(`jit_wasm: ${new Date().toISOString().slice(0, 16)} UTC, ${cpus()[0].model}, Node ${process.version}`);
console.log('model            build ns     jit ns   ratio fwd build    fwd jit   ratio   emit ms      bytes');
const runtime = await WasmModule.instantiate(new URL('runtime.wasm', dist));
let worst = 0, worstLoop = 0;
for (const name of chosen) {
  const text = await loadModelText(name);
  const built = await WasmModule.instantiate(new URL(`${name}.wasm`, dist));
  const builtPtr = built.exports.mw_open();
  fail(built, builtPtr);
  const jit = await jitHandle(runtime, text, name, fail);
  const emit = [];
  let bytes = 0;
  for (let k = 0; k < 5; k++) {
    const t0 = performance.now();
    bytes = generate(runtime, text, name, 1, fail).bytes.length;
    emit.push(performance.now() - t0);
  }
  const [b, j] = nsPerCall([(calls) => built.exports.mw_bench_forward(builtPtr, calls),
    (calls) => runtime.exports.mw_bench_forward(jit.ptr, calls)]);
  worstLoop = Math.max(worstLoop, j / b);
  const builtSim = await openModel(name);
  const jitSim = await openModel({ text, name }, { backend: 'jit' });
  const forwards = (sim) => (calls) => { for (let k = 0; k < calls; k++) sim.forward(); };
  const [fb, fj] = nsPerCall([forwards(builtSim), forwards(jitSim)]);
  worst = Math.max(worst, fj / fb);
  console.log(`${name.padEnd(14)} ${b.toFixed(1).padStart(10)} ${j.toFixed(1).padStart(10)} ${(j / b).toFixed(2).padStart(7)}` +
    ` ${fb.toFixed(1).padStart(9)} ${fj.toFixed(1).padStart(10)} ${(fj / fb).toFixed(2).padStart(7)}` +
    ` ${median(emit).toFixed(1).padStart(9)} ${String(bytes).padStart(10)}`);
  jitSim.dispose();
  builtSim.dispose();
  jit.close(jit.ptr);
  built.exports.mw_close(builtPtr);
}
console.log(`worst forward() ratio ${worst.toFixed(2)} (gate <= ${GATE}): ${worst <= GATE ? 'met' : 'NOT met'}`);
console.log(`worst ratio of the loop inside WebAssembly ${worstLoop.toFixed(2)} (${worstLoop <= GATE ? 'within' : 'beyond'} ${GATE})`);

for (const name of ['threelink', 'hmmwv_pitman'].filter((n) => chosen.includes(n))) {
  const text = await loadModelText(name);
  const times = [];
  for (let k = 0; k < 10; k++) {
    const t0 = performance.now();
    const sim = await openModel({ text, name }, { backend: 'jit' });
    sim.forward();
    times.push(performance.now() - t0);
    sim.dispose();
  }
  console.log(`text to a running jit Sim, ${name}: median ${median(times).toFixed(1)} ms of 10 ` +
    `(min ${Math.min(...times).toFixed(1)}, max ${Math.max(...times).toFixed(1)})`);
}
