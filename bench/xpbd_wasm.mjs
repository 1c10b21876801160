// xpbd_wasm.mjs — XPBD microseconds per substep in WebAssembly under Node,
// through the public API, beside the paper's native C++ (Tobin & Rucker,
// Table 1; docs/xpbd.md, "Timing").  Not a test: it prints a table.
//
//   node bench/xpbd_wasm.mjs            (after `npm run build`)
//
// The scenes are models/xpbd/triple_pendulum.mech and rps3.mech, opened with
// openModel(..., { engine: 'xpbd' }) in each solve mode (the file's `mode`
// line swapped) and advanced by sim.step(dt, n): what a user of the API pays,
// including the per-step residuals (eqs. 51-52) and joint-coordinate read-back
// that bench/xpbd_results (native) also records.  Time is this process's CPU
// time; the fastest of many short runs is kept.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

import { openModel } from '../wasm/index.mjs';

const scenes = fileURLToPath(new URL('../models/xpbd/', import.meta.url));
// Paper, Table 1 (µs per substep): vector + block, vector, scalar.
const PAPER = {
  triple_pendulum: { block: 1.29, rows: 1.39, scalar: 1.24 },
  rps3: { block: 3.41, rows: 5.36, scalar: 3.36 },
};
const MODES = ['block', 'rows', 'scalar'];
const BOUND = 1.5; // the bound: block mode within 1.5x of the paper's native figure
const STEPS = 50;  // steps per timed run (from rest: neither scene blows up this early)
const RUNS = 60;

const cpuNs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1e3;
};

/** Fastest µs per substep of sim.step(dt, STEPS) from the initial state, over RUNS runs. */
function usPerSubstep(sim, dt, substeps) {
  let best = Infinity;
  for (let r = 0; r < RUNS; r++) {
    sim.reset();
    const t0 = cpuNs();
    sim.step(dt, STEPS);
    best = Math.min(best, (cpuNs() - t0) / (STEPS * substeps) / 1e3);
  }
  return best;
}

const setting = (text, key) => Number(text.match(new RegExp(`^\\s*${key}\\s+(\\S+)`, 'm'))[1]);

console.log(`XPBD in WebAssembly (Node ${process.version}, ${cpus()[0].model}), µs per substep through sim.step(dt, n); ` +
  `fastest of ${RUNS} runs of ${STEPS} steps`);
console.log(`${'scene'.padEnd(16)}${'mode'.padEnd(8)}${'wasm µs'.padStart(10)}${'paper µs'.padStart(10)}${'wasm/paper'.padStart(12)}`);
const verdicts = [];
for (const [scene, paper] of Object.entries(PAPER)) {
  const text = readFileSync(`${scenes}${scene}.mech`, 'utf8');
  const dt = setting(text, 'dt'), substeps = setting(text, 'substeps');
  for (const mode of MODES) {
    const sim = await openModel({ text: text.replace(/^(\s*mode\s+)\w+/m, `$1${mode}`), name: scene }, { engine: 'xpbd', stepBudgetMs: Infinity });
    const us = usPerSubstep(sim, dt, substeps);
    sim.dispose();
    const ratio = us / paper[mode];
    console.log(`${scene.padEnd(16)}${mode.padEnd(8)}${us.toFixed(2).padStart(10)}${paper[mode].toFixed(2).padStart(10)}` +
      `${`${ratio.toFixed(2)}×`.padStart(12)}`);
    if (mode === 'block') verdicts.push({ scene, ratio });
  }
}
const met = verdicts.every((v) => v.ratio <= BOUND);
console.log(`gate, block mode within ${BOUND}× of the paper's native C++: ${met ? 'met' : 'not met'} ` +
  `(${verdicts.map((v) => `${v.scene} ${v.ratio.toFixed(2)}×`).join(', ')})`);
