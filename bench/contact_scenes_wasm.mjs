// contact_scenes_wasm.mjs — the XPBD contact scenes with rods in WebAssembly under Node, milliseconds per step
// through sim.step(dt, n), beside the paper's native C++ (Tobin & Rucker, Table 2, "Time/step"; an AMD Ryzen 9
// 7900X). Not a test: it prints a table.
//
//   node bench/contact_scenes_wasm.mjs            (after `npm run build`)
//
// Each scene of models/xpbd is opened on the XPBD engine and run from its initial state for the steps of its
// own dt given below (the bristlebots walking, the bowling ball through the pins); the time is this process's
// CPU time over the whole run, the best of RUNS runs. The plectoneme row runs the twisted rod from t = 12 s,
// when its loop touches itself, so the collisions are in the figure.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

import { openModel } from '../wasm/index.mjs';

const scenes = fileURLToPath(new URL('../models/xpbd/', import.meta.url));
// [file, paper ms per step, steps timed, seconds run before the timing starts]
const ROWS = [
  ['bristlebot', 0.07, 2000, 0],
  ['bristlebot_enclosure', 0.08, 2000, 0],
  ['bristlebots', 0.23, 1000, 0],
  ['bowling', 1.18, 300, 0],
  ['plectoneme', 0.11, 300, 12],
];
const RUNS = 3;
const BOUND = 1.5;

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e3;
};
const setting = (text, key) => Number(text.match(new RegExp(`^\\s*${key}\\s+(\\S+)`, 'm'))[1]);

console.log(`XPBD contact scenes in WebAssembly (Node ${process.version}, ${cpus()[0].model}), ms per step through ` +
  `sim.step(dt, n); best of ${RUNS} runs`);
console.log(`${'scene'.padEnd(22)}${'dt ms'.padStart(7)}${'steps'.padStart(7)}${'wasm ms'.padStart(9)}` +
  `${'paper ms'.padStart(10)}${'wasm/paper'.padStart(12)}${'real time x'.padStart(13)}`);
for (const [name, paper, steps, skip] of ROWS) {
  const text = readFileSync(`${scenes}${name}.mech`, 'utf8');
  const dt = setting(text, 'dt');
  const sim = await openModel({ text, name }, { engine: 'xpbd', stepBudgetMs: Infinity });
  let best = Infinity;
  for (let r = 0; r < RUNS; r++) {
    sim.reset();
    for (let t = 0; t < Math.round(skip / dt); t += 1000) sim.step(dt, Math.min(1000, Math.round(skip / dt) - t));
    const t0 = cpuMs();
    for (let s = 0; s < steps; s += 100) sim.step(dt, Math.min(100, steps - s));
    best = Math.min(best, (cpuMs() - t0) / steps);
  }
  sim.dispose();
  const ratio = best / paper;
  console.log(`${name.padEnd(22)}${(dt * 1e3).toFixed(2).padStart(7)}${String(steps).padStart(7)}` +
    `${best.toFixed(3).padStart(9)}${paper.toFixed(2).padStart(10)}${ratio.toFixed(2).padStart(12)}` +
    `${(dt * 1e3 / best).toFixed(2).padStart(13)}   ${ratio <= BOUND ? 'within' : 'NOT within'} ${BOUND}x`);
}
