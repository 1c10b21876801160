// contact_wasm.mjs — the tracked vehicles' whole contact step in WebAssembly
// under Node beside native, one table.  Not a test: it prints a table.
//
//   node bench/contact_wasm.mjs            (after `npm run build`)
//
// Native: build/bench/bench_contact's "run" line, the generated engine's
// mech_data_step at the model's accuracy dt (contact stage, forward
// dynamics, Störmer-Verlet, the checks), RUN_STEPS steps from the design
// pose, the fastest of a few.  WebAssembly: the same steps through the public
// API, sim.step(dt, RUN_STEPS) on the model's generated module after
// sim.reset(), timed by this process's CPU time after WARMUP_NS of untimed
// runs, the fastest of RUNS.  The
// two run the same trajectory, so they do the same work.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

import { openModel } from '../wasm/index.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const RUN_STEPS = 2000;  // as bench_contact.c
const RUNS = 7;
// V8 runs WebAssembly first as Liftoff code and tiers up function by function in the background: a
// module of hundreds of stage functions runs untimed for a while first.
const WARMUP_NS = 3e9;
const cpuNs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1e3;
};

const files = readdirSync(`${root}models/tracks`).filter((f) => f.endsWith('.mech')).map((f) => `${root}models/tracks/${f}`);
const native = new Map();
for (const line of execFileSync(`${root}build/bench/bench_contact`, files, { encoding: 'utf8' }).split('\n')) {
  const m = line.match(/^run (\S+)\s+dt (\S+) s: (\d+) ns per step/);
  if (m) native.set(m[1], { dt: Number(m[2]), ns: Number(m[3]) });
}

console.log(`contact step, WebAssembly (Node ${process.version}) beside native, ${cpus().length} CPUs, ${cpus()[0].model}`);
console.log('model         dt (s)        native ns/step   wasm ns/step   wasm/native   real-time factor (native, wasm)');
for (const [name, { dt, ns }] of native) {
  const sim = await openModel(name, { stepBudgetMs: Infinity });
  for (const t0 = cpuNs(); cpuNs() - t0 < WARMUP_NS;) {
    sim.reset();
    sim.step(dt, RUN_STEPS);
  }
  let best = Infinity;
  for (let r = 0; r < RUNS; r++) {
    sim.reset();
    const t0 = cpuNs();
    sim.step(dt, RUN_STEPS);
    best = Math.min(best, (cpuNs() - t0) / RUN_STEPS);
  }
  sim.dispose();
  console.log(`${name.padEnd(13)} ${dt.toExponential(4).padEnd(13)} ${String(ns).padStart(14)} ${best.toFixed(0).padStart(14)} ` +
    `${(best / ns).toFixed(2).padStart(13)}   ${(1e9 * dt / ns).toFixed(2)}, ${(1e9 * dt / best).toFixed(2)}`);
}
