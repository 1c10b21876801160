// rod_wasm.mjs — Table 2 of Tobin & Rucker (ms per rod step) measured in
// WebAssembly under Node, beside the native figures and the paper's
// (docs/rods.md, "Table 2: time per step"; the figures: docs/benchmarks.md).  Not a test: it prints a table.
//
//   node bench/rod_wasm.mjs        (after scripts/build.sh and scripts/build-rod-wasm.sh)
//
// The rods are those of the native benchmark (bench/rod_scenes.c and
// tests/fixtures/rod_fixtures.c, compiled into build/wasm/rod_bench.wasm).  Time is this process's CPU time around
// one JS->WASM call of rw_steps(n), so descheduled time on a shared machine
// is not charged; n is grown until a batch takes 10 ms, the module is warmed
// up (V8 first runs WebAssembly as Liftoff code and swaps in TurboFan code
// compiled in the background), and the fastest of 20 batches is kept — the
// protocol of the native column (build/bench/rod_benchmarks timing), which is
// run first, in its own process.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { WasmModule } from '../wasm/module.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const DISC = ['rigid', 'linear', 'quadratic', 'cubic'];
const BATCH_NS = 1e7;
const BATCHES = 20;
const WARMUP_NS = 3e8;

/** CPU time of this process in ns. */
function cpuNs() {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1e3;
}

/** Fastest ms per step of rw_steps over BATCHES batches of at least BATCH_NS. */
function msPerStep(rw) {
  let steps = 1;
  for (;;) {
    const t0 = cpuNs();
    rw.rw_steps(steps);
    if (cpuNs() - t0 >= BATCH_NS) break;
    steps *= 2;
  }
  for (const t0 = cpuNs(); cpuNs() - t0 < WARMUP_NS;) rw.rw_steps(steps);
  let best = Infinity;
  for (let b = 0; b < BATCHES; b++) {
    const t0 = cpuNs();
    rw.rw_steps(steps);
    best = Math.min(best, (cpuNs() - t0) / 1e6 / steps);
  }
  return best;
}

/** The native table, keyed "scene|disc|elements". */
function nativeTimes() {
  const text = execFileSync(`${root}build/bench/rod_benchmarks`, ['timing'], { encoding: 'utf8' });
  const times = new Map();
  for (const m of text.matchAll(/^\| (\w+)[^,|]*, (\w+) \| (\d+) \| ([\d.]+) \|/gm)) times.set(`${m[1]}|${m[2]}|${m[3]}`, +m[4]);
  return times;
}

const native = nativeTimes();
const rw = (await WasmModule.instantiate(new URL('build/wasm/rod_bench.wasm', `file://${root}`))).exports;
console.log('## Table 2: time per step (ms), WebAssembly (Node ' + process.version + '), one substep, one banded iteration\n');
console.log('| scene | elements | ours wasm (ms) | ours native (ms) | paper (ms) | wasm / paper | wasm / native |');
console.log('|---|---|---|---|---|---|---|');
for (let i = 0; i < rw.rw_cases(); i++) {
  const scene = rw.rw_is_spring(i) ? 'spring' : 'plectoneme';
  const disc = DISC[rw.rw_disc(i)], elements = rw.rw_elements(i), paper = rw.rw_paper_ms(i);
  if (rw.rw_open(i)) throw new Error(`rod_bench.wasm: case ${i} failed to build`);
  const ms = msPerStep(rw);
  if (![0, 1, 2].every((k) => Number.isFinite(rw.rw_tip(k)))) throw new Error(`${scene} ${disc} ${elements}: blew up`);
  const nat = native.get(`${scene}|${disc}|${elements}`);
  const label = scene === 'spring' ? 'spring' : 'plectoneme (no contact)';
  console.log(`| ${label}, ${disc} | ${elements} | ${ms.toFixed(3)} | ${nat.toFixed(3)} | ${paper.toFixed(2)} | ` +
    `${(ms / paper).toFixed(2)} | ${(ms / nat).toFixed(2)} |`);
}
console.log('');
