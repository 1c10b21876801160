// tires_wasm.mjs — the HMMWVs on their tires in WebAssembly under Node: driving (the WheelDriver's throttle and
// steer, its powertrain and the contact stage's Fiala tires, the generated dynamics) at each model's own step
// (its contact dt), timed by this process's CPU time. Not a test: it prints a table, with the CPU.
//
//   node bench/tires_wasm.mjs            (after `npm run build`)
//
// Each run: the model settled for 1 s, then RUN_S seconds of simulated time at throttle 0.5 and steer 0.3
// (one step per driver.step call, as the page steps a driven vehicle), the fastest of RUNS after WARMUP_NS of
// untimed driving. The real-time factor is simulated over CPU time.
import { cpus } from 'node:os';

import { openModel, WheelDriver } from '../wasm/index.mjs';

const RUN_S = 2;
const RUNS = 5;
const WARMUP_NS = 3e9;
const cpuNs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1e3;
};

console.log(`HMMWV on its tires, WebAssembly (Node ${process.version}), ${cpus().length} CPUs, ${cpus()[0].model}`);
console.log('model          dt (s)        us/step (driven)   real-time factor');
for (const name of ['hmmwv', 'hmmwv_pitman']) {
  const sim = await openModel(name);
  const model = sim.describe();
  const dt = model.contactDt;
  const steps = Math.round(RUN_S / dt);
  const run = () => {
    sim.reset();
    sim.step(dt, Math.round(1 / dt));
    const driver = new WheelDriver(sim, {}, model);
    driver.set({ throttle: 0.5, steer: 0.3 });
    const t0 = cpuNs();
    driver.step(dt, steps);
    return cpuNs() - t0;
  };
  for (const t0 = cpuNs(); cpuNs() - t0 < WARMUP_NS;) run();
  let best = Infinity;
  for (let r = 0; r < RUNS; r++) best = Math.min(best, run());
  sim.dispose();
  console.log(`${name.padEnd(14)} ${dt.toExponential(4).padEnd(13)} ${(best / steps / 1e3).toFixed(1).padStart(16)}   ${((RUN_S * 1e9) / best).toFixed(1).padStart(16)}`);
}
