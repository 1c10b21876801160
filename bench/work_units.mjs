// work_units.mjs — the work cap's calibration (docs/architecture.md, "Work per call"): nanoseconds per unit of
// work (sim.stepWork) on the large models of tests/fixtures/heavy_models.mjs and a few shipped ones, in
// WebAssembly under Node.  The documented range must hold every row.
//
//   node bench/work_units.mjs [seconds per model, default 1]
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

import { openModel } from '../wasm/index.mjs';
import { HEAVY_MODELS } from '../tests/fixtures/heavy_models.mjs';

const seconds = Number(process.argv[2] ?? 1);
const models = new URL('../models/', import.meta.url);
const cpu = (() => {
  try {
    return /Model name:\s*(.*)/.exec(execSync('lscpu', { encoding: 'utf8' }))[1];
  } catch {
    return 'unknown CPU';
  }
})();

const runs = [
  ...HEAVY_MODELS.map(({ name, text, engine }) => ({ name, source: { text, name }, engine })),
  { name: 'threelink', source: 'threelink', engine: 'featherstone', backend: 'runtime' },
  { name: 'fourbar', source: 'fourbar', engine: 'featherstone', backend: 'runtime' },
  { name: 'm113', source: 'm113', engine: 'featherstone', backend: 'runtime' },
  { name: 'xpbd/bowling', source: { text: readFileSync(new URL('xpbd/bowling.mech', models), 'utf8'), name: 'bowling' }, engine: 'xpbd' },
  { name: 'xpbd/contact', source: { text: readFileSync(new URL('xpbd/contact.mech', models), 'utf8'), name: 'contact' }, engine: 'xpbd' },
];

console.log(`work units: ${cpu}, node ${process.version}; ns per unit = wall time of a step / sim.stepWork`);
console.log('model              engine        nb   units/step      ms/step   ns/unit');
for (const { name, source, engine, backend } of runs) {
  const sim = await openModel(source, { engine, backend, stepBudgetMs: Infinity });
  const dt = engine === 'xpbd' ? 1e-3 : 1e-4;
  sim.step(dt); // warm
  let steps = 0;
  const start = performance.now();
  while (performance.now() - start < 1000 * seconds || steps < 2) {
    sim.step(dt);
    steps++;
  }
  const ms = (performance.now() - start) / steps;
  const units = sim.stepWork;
  console.log(`${name.padEnd(18)} ${engine.padEnd(12)} ${String(sim.nb).padStart(4)} ${units.toExponential(3).padStart(12)} ${ms.toFixed(3).padStart(12)} ${(1e6 * ms / units).toFixed(1).padStart(9)}`);
  sim.dispose();
}
