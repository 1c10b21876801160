// jit_wasm.mjs — the jit against the build-time modules (docs/wasm.md, "Jit"; docs/benchmarks.md).  Not a
// test: it prints a table.
//
//   node bench/jit_wasm.mjs [--processes N] [model ...]   (after `npm run build`; default: 5, every shipped model)
//
// Each of N fresh Node processes times every model; the table gives, per model, the median over the processes
// of each figure and of each ratio, with the ratios' range.  One process is not enough: V8 places a module's
// code anew in each process, and the same machine code (the build-time module's as much as the jit's) runs
// markedly faster in some processes than in others (docs/benchmarks.md, "The jit"); with every function
// compiled by TurboFan up front (node --no-liftoff) the spread goes.  Per model:
//   build ns   ns per forward-dynamics call of the build-time module (the generated C through emcc -O2),
//              the loop inside WebAssembly (wasm/bench.c, mw_bench_forward: 256 sampled states, the
//              engine's forward dynamics at the model's gravity); CPU time, the two columns taking turns,
//              fastest run kept
//   jit ns     the same loop in the runtime module over a jit handle: the engine calls the jitted
//              module's fwd_dyn_own_gravity through the function table (call_indirect, no JS)
//   ratio      jit / build
//   fwd build  ns per sim.forward() from JavaScript at the model's initial state, the build-time module's Sim
//              (openModel(name)): wasm/model.c's mw_forward_model_gravity
//   fwd jit    the same on a jit Sim (openModel({ text }, { backend: 'jit' })): the jitted module's own
//              forward_model_gravity (core/codegen/emit_wasm.h), the runtime's mw_forward only when it declines
//   ratio      fwd jit / fwd build; gate: <= 1.3 on every model (the median over the processes)
//   range      the lowest and highest of the processes' forward() ratios
//   emit ms    the runtime module's generator, text to .wasm bytes (median of 5)
//   bytes      the .wasm's size
// then the time from text to a running jit Sim (openModel({ text }, { backend: 'jit' }) and one forward()),
// median of 10, for threelink and hmmwv_pitman (the browser targets: 50 and 300 ms).
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

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
const args = process.argv.slice(2);
const child = args[0] === '--child';
const at = args.indexOf('--processes');
const processes = at >= 0 ? Number(args[at + 1]) : 5;
if (!(Number.isInteger(processes) && processes >= 1)) throw new Error(`--processes: a whole number >= 1, got ${args[at + 1]}`);
const named = args.filter((a, i) => a !== '--child' && a !== '--processes' && !(at >= 0 && i === at + 1));
const chosen = named.length ? named : models;

/** One process's figures of every chosen model: { name, b, j, fb, fj, emit, bytes }. */
async function measure() {
  const runtime = await WasmModule.instantiate(new URL('runtime.wasm', dist));
  const rows = [];
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
    const builtSim = await openModel(name);
    const jitSim = await openModel({ text, name }, { backend: 'jit' });
    const forwards = (sim) => (calls) => { for (let k = 0; k < calls; k++) sim.forward(); };
    const [fb, fj] = nsPerCall([forwards(builtSim), forwards(jitSim)]);
    rows.push({ name, b, j, fb, fj, emit: median(emit), bytes });
    jitSim.dispose();
    builtSim.dispose();
    jit.close(jit.ptr);
    built.exports.mw_close(builtPtr);
  }
  return rows;
}

if (child) {
  console.log(JSON.stringify(await measure()));
  process.exit(0);
}

console.log(`jit_wasm: ${new Date().toISOString().slice(0, 16)} UTC, ${cpus()[0].model}, Node ${process.version}, ` +
  `medians over ${processes} processes`);
const runs = [];
for (let p = 0; p < processes; p++) {
  runs.push(JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', ...chosen],
    { encoding: 'utf8', maxBuffer: 1 << 24 })));
}
console.log('model            build ns     jit ns   ratio fwd build    fwd jit   ratio      range   emit ms      bytes');
let worst = 0, worstLoop = 0;
chosen.forEach((name, i) => {
  const of = (f) => median(runs.map((r) => f(r[i])));
  const fwd = runs.map((r) => r[i].fj / r[i].fb);
  const loop = of((r) => r.j / r.b), ratio = median(fwd);
  worst = Math.max(worst, ratio);
  worstLoop = Math.max(worstLoop, loop);
  const range = `${Math.min(...fwd).toFixed(2)}-${Math.max(...fwd).toFixed(2)}`;
  console.log(`${name.padEnd(14)} ${of((r) => r.b).toFixed(1).padStart(10)} ${of((r) => r.j).toFixed(1).padStart(10)}` +
    ` ${loop.toFixed(2).padStart(7)} ${of((r) => r.fb).toFixed(1).padStart(9)} ${of((r) => r.fj).toFixed(1).padStart(10)}` +
    ` ${ratio.toFixed(2).padStart(7)} ${range.padStart(10)} ${of((r) => r.emit).toFixed(1).padStart(9)}` +
    ` ${String(runs[0][i].bytes).padStart(10)}`);
});
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
