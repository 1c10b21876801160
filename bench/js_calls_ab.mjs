// js_calls_ab.mjs — calls from JavaScript into the generated WebAssembly
// models, an older tree's build against this one's, interleaved in one Node
// process.  Not a test: it prints tables and never asserts.
//
//   MECH_OLD_TREE=<checkout with its wasm/dist built> node bench/js_calls_ab.mjs
//   node bench/js_calls_ab.mjs --old <checkout> [--new <checkout, default this one>] [--rounds 101] [--ms 2] [--warmup 1000]
//       [--first old|new] [--processes N]
//       [--forward gantry,threelink,bintree,stanford,hmmwv_pitman] [--step gantry,threelink,bintree]
//
// Each tree's own wasm/index.mjs (its JS shim) is imported by path and opens
// the model from its own wasm/dist/, so "old" and "new" differ in shim and
// module alike.  Timings taken in separate Node processes differ by up to 2x
// for the same module; here both variants share one process, and each round
// times A then B (B then A on odd rounds) for about --ms milliseconds each.
// Reported per variant: the median and the minimum over rounds of ns per
// forward() call or per step of step(1e-3, 1000); new/old is the ratio of the
// medians, of the minimums, and the median of the per-round ratios.  Each
// variant is timed by a loop function of its own (compiled from its own
// source text), so V8 sees one Sim class at each call site.
//
// --processes N runs it in N fresh processes (the tree loaded first
// alternating) and adds the median over them: in a process, one instance of
// a module can stay a few per cent off another instance of the same module
// (measured old against a copy of itself), so one process is not the last word.
//
// Without an old tree (no MECH_OLD_TREE, no --old) it prints why and exits 0.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const oldTree = opt('old', process.env.MECH_OLD_TREE);
if (!oldTree) {
  console.log('js_calls_ab: skipped (give the tree to compare with: MECH_OLD_TREE=<checkout with wasm/dist built> or --old <checkout>)');
  process.exit(0);
}
const ROUNDS = Number(opt('rounds', 101));
const BATCH_MS = Number(opt('ms', 2));
const WARMUP_MS = Number(opt('warmup', 1000));
const FORWARD = opt('forward', 'gantry,threelink,bintree,stanford,hmmwv_pitman').split(',').filter(Boolean);
const STEP = opt('step', 'gantry,threelink,bintree').split(',').filter(Boolean);
const DT = 1e-3, STEPS = 1000;

const trees = {
  old: resolve(oldTree),
  new: resolve(opt('new', fileURLToPath(new URL('..', import.meta.url)))),
};
// Which variant is imported, opened and warmed up first in this process.
const FIRST = opt('first', 'old');
const ORDER = FIRST === 'new' ? ['new', 'old'] : ['old', 'new'];
const PROCESSES = Number(opt('processes', 1));

const cpu = readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.*)$/m)?.[1] ?? 'unknown CPU';
console.log(`js_calls_ab: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, ${cpu}`);
console.log(`  old: ${trees.old}\n  new: ${trees.new}`);
console.log(`  ${ROUNDS} rounds, A B / B A alternating, ~${BATCH_MS} ms per variant per round after ${WARMUP_MS} ms of warm-up, ${FIRST} loaded first\n`);

// One timing loop per variant and kind, each its own function (own feedback).
function makeLoop(kind, tag) {
  const body = kind === 'forward'
    ? `/* ${tag} */ let s = 0; for (let i = 0; i < k; i++) s += sim.forward()[0]; return s;`
    : `/* ${tag} */ for (let i = 0; i < k; i++) sim.step(${DT}, ${STEPS}); return sim.q[0];`;
  return new Function('sim', 'k', body);
}

const now = () => process.hrtime.bigint();
// The p-quantile of v, linear between order statistics (p = 0.5: the median).
const quantile = (v, p) => {
  const s = [...v].sort((a, b) => a - b);
  const x = p * (s.length - 1), i = Math.floor(x);
  return i + 1 < s.length ? s[i] + (x - i) * (s[i + 1] - s[i]) : s[i];
};
const median = (v) => quantile(v, 0.5);

if (PROCESSES > 1) await inProcesses();   // exits

const api = {};
for (const k of ORDER) api[k] = await import(pathToFileURL(`${trees[k]}/wasm/index.mjs`).href);

async function open(variant, name) {
  try {
    return await api[variant].openModel(name, { backend: 'generated' });
  } catch (e) {
    return e;
  }
}

// Same start for both: the model's initial q, qd[i] = 0.1 (i + 1).
function prepare(sim) {
  sim.reset();
  const qd = sim.qd;
  for (let i = 0; i < qd.length; i++) qd[i] = 0.1 * (i + 1);
}

async function compare(kind, name) {
  const sims = {};
  for (const v of ORDER) sims[v] = await open(v, name);
  for (const v of ['old', 'new']) {
    if (sims[v] instanceof Error) return { name, skipped: `${v}: ${sims[v].message}` };
  }
  const loops = { old: makeLoop(kind, `old ${name}`), new: makeLoop(kind, `new ${name}`) };
  const per = kind === 'forward' ? 1 : STEPS;
  // Same results? forward(): qdd bit for bit; step: q after one batch.
  for (const v of ['old', 'new']) prepare(sims[v]);
  let a, b;
  if (kind === 'forward') {
    a = Float64Array.from(sims.old.forward());
    b = sims.new.forward();
  } else {
    sims.old.step(DT, STEPS);
    sims.new.step(DT, STEPS);
    a = Float64Array.from(sims.old.q);
    b = sims.new.q;
  }
  // 'yes' when bit for bit the same, else the largest difference relative to the largest entry
  let diff = 0, scale = 0;
  for (let i = 0; i < a.length; i++) {
    if (!Object.is(a[i], b[i])) diff = Math.max(diff, Math.abs(a[i] - b[i]) || Infinity);
    scale = Math.max(scale, Math.abs(a[i]));
  }
  const same = diff === 0 ? 'yes' : `no, ${(diff / (scale || 1)).toExponential(1)}`;
  // Calls per batch, then --warmup ms of untimed calls per variant: V8 runs WebAssembly as Liftoff code first
  // and compiles each function with TurboFan in the background, which takes a while for a large model.
  const k = {};
  for (const v of ORDER) {
    prepare(sims[v]);
    let calls = 1, t;
    for (;;) {
      const t0 = now();
      loops[v](sims[v], calls);
      t = Number(now() - t0) / 1e6;
      if (t > 50) break;
      calls *= 2;
    }
    const t0 = now();
    while (Number(now() - t0) < WARMUP_MS * 1e6) loops[v](sims[v], calls);
    k[v] = Math.max(1, Math.round(calls * BATCH_MS / t));
  }
  k.old = k.new = Math.min(k.old, k.new);
  const ns = { old: [], new: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const v of r % 2 ? ['new', 'old'] : ['old', 'new']) {
      if (kind === 'step') prepare(sims[v]);
      const t0 = now();
      loops[v](sims[v], k[v]);
      ns[v].push(Number(now() - t0) / (k[v] * per));
    }
  }
  for (const v of ['old', 'new']) sims[v].dispose();
  const ratios = ns.new.map((x, i) => x / ns.old[i]);
  return {
    name, same, calls: k.old,
    old: { med: median(ns.old), min: Math.min(...ns.old) },
    new: { med: median(ns.new), min: Math.min(...ns.new) },
    ratio: median(ratios), q1: quantile(ratios, 0.25), q3: quantile(ratios, 0.75),
  };
}

const fmt = (x) => (x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0)).padStart(8);
function table(title, rows) {
  console.log(title);
  console.log('model          old med   old min   new med   new min   new/old med  new/old min  per-round med (p25-p75)  same result (max rel. diff)');
  for (const r of rows) {
    if (r.skipped) {
      console.log(`${r.name.padEnd(13)}  skipped (${r.skipped})`);
      continue;
    }
    console.log(`${r.name.padEnd(13)} ${fmt(r.old.med)}  ${fmt(r.old.min)}  ${fmt(r.new.med)}  ${fmt(r.new.min)}  ` +
      `${(r.new.med / r.old.med).toFixed(3).padStart(11)}  ${(r.new.min / r.old.min).toFixed(3).padStart(11)}  ` +
      `${r.ratio.toFixed(3).padStart(13)} (${r.q1.toFixed(3)}-${r.q3.toFixed(3)})  ${r.same}`);
  }
  console.log('');
}

const fwd = [];
for (const name of FORWARD) fwd.push(await compare('forward', name));
table('forward(), ns per call', fwd);
const stp = [];
for (const name of STEP) stp.push(await compare('step', name));
table(`step(${DT}, ${STEPS}), ns per step`, stp);
if (args.includes('--json')) console.log(`JSON ${JSON.stringify({ forward: fwd, step: stp })}`);

// --processes N: this bench N times, one fresh Node process each, the tree
// loaded first alternating (one instance of a module can be a few per cent
// faster or slower than another of the same module for the life of a
// process); each process's tables, then the median over processes of each
// per-round median ratio.
async function inProcesses() {
  const { execFileSync } = await import('node:child_process');
  const rest = [];
  for (let i = 0; i < args.length; i++) {
    if (['--processes', '--first'].includes(args[i])) i++;
    else if (args[i] !== '--json') rest.push(args[i]);
  }
  const runs = [];
  for (let p = 0; p < PROCESSES; p++) {
    const first = p % 2 ? 'new' : 'old';
    const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), ...rest, '--first', first, '--json'],
      { encoding: 'utf8', maxBuffer: 1 << 24 });
    const lines = out.split('\n');
    console.log(`process ${p + 1} of ${PROCESSES}, ${first} first:`);
    console.log(lines.filter((l) => !l.startsWith('JSON ') && !/^(js_calls_ab:| {2}old:| {2}new:)/.test(l)).join('\n'));
    runs.push(JSON.parse(lines.find((l) => l.startsWith('JSON ')).slice(5)));
  }
  console.log(`over ${PROCESSES} processes: the median of each process's per-round median new/old (and its range)`);
  for (const kind of ['forward', 'step']) {
    for (const [i, r] of runs[0][kind].entries()) {
      if (r.skipped) continue;
      const v = runs.map((run) => run[kind][i].ratio);
      console.log(`  ${kind.padEnd(8)} ${r.name.padEnd(13)} ${median(v).toFixed(3)} (${Math.min(...v).toFixed(3)}-${Math.max(...v).toFixed(3)})`);
    }
  }
  process.exit(0);
}
