#!/usr/bin/env node
// check-layers.mjs — every quoted #include under core/, include/, wasm/, cli/, bench/ and tests/ points down
// the layers below, or is a named exception.  Exit status 1 with one line per upward include, 0 otherwise.
// Run by ctest (tests/layers.cmake); by hand: node scripts/check-layers.mjs [root].
//
// An include is resolved as the compiler does: beside the including file, then in the include directories
// (include/ and core/, plus wasm/ for wasm/ and tests/ for bench/ and tests/), so a core header is always named
// by its folder ("rbda/loops.h").  Its layer is its folder's.  A folder may include its own headers, the public
// API (include/mech/, which includes nothing else) and the folders on lower floors; a file in no layer fails.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..');

// The layers, bottom to top (docs/architecture.md draws them).  floor: a folder includes folders on lower
// floors; also: siblings it may include besides; only: the one list it may include from (plus its own and the
// public API).  contact sits below sim: data.c runs the built-in contact stage in every run's step.
const LAYERS = {
  'include/mech': { floor: 0, only: [] },             // the public API: self-contained
  'core/spatial': { floor: 1 },                       // spatial algebra, SO(3), mech_sincos
  'core/model': { floor: 2 },                         // the .mech language and mech_model
  'core/rbda': { floor: 3 },                          // the dense reference, ABA, loops, force elements
  'core/contact': { floor: 4 },                       // the contact stage (bands, ground, terrain)
  'core/sim': { floor: 5 },                           // mech_data, the engine table, the integrators
  'core/codegen': { floor: 6 },                       // the code generator
  'core/xpbd': { floor: 6 },                          // the XPBD engine
  'core/collide': { floor: 2, only: ['core/spatial'] }, // narrow and broad phase, below the contact stage and XPBD
  wasm: { floor: 7, only: [] },                       // bindings: the public API, else an exception below
  cli: { floor: 7, only: [] },
  bench: { floor: 7, only: [] },
  tests: { floor: 8 },                                // tests may include anything below them
};

// Where each folder's includes are looked up after the including file's own folder.
const SEARCH = { wasm: ['wasm'], bench: ['tests/mujoco', 'tests/fixtures'], tests: ['tests', 'tests/fixtures'] };
const INCLUDE_DIRS = ['include', 'core'];

// Bindings that still include internal headers: [includer, [headers], why].  Each is a dependency on core/
// internals to be replaced by the public API (include/mech/); an entry no longer needed is an error, so the
// list only shrinks.
const EXCEPTIONS = [
  ['wasm/bench.h', ['core/model/model.h', 'core/sim/integrate.h'],
   'the benchmark kernels step a mech_model with the internal integrators'],
  ['wasm/bench.c', ['core/rbda/sample.h'],
   'random states for the benchmark kernels'],
  ['wasm/jit.c', ['core/codegen/emit_wasm.h', 'core/codegen/mechgen.h', 'core/rbda/elements.h', 'core/rbda/loop_rank.h', 'core/sim/data.h', 'core/sim/generated.h'],
   'the jit runs the code generator and wraps its module in a generated-code descriptor'],
  ['wasm/native_ref.c', ['core/rbda/dense.h', 'core/rbda/loop_project.h', 'core/rbda/loop_sample.h', 'core/rbda/loops.h', 'core/rbda/sample.h', 'core/sim/data.h', 'core/sim/generated.h'],
   'the native reference values compare the dense reference with every engine'],
  ['cli/mech.c', ['core/model/model.h', 'core/rbda/aba.h', 'core/rbda/dense.h', 'core/rbda/energy.h', 'core/rbda/loop_project.h', 'core/rbda/loop_rank.h', 'core/rbda/loop_sample.h', 'core/rbda/loops.h', 'core/rbda/sample.h'],
   'the validate and energy subcommands run the dense reference and ABA directly'],
  ['bench/bench_actuators.c', ['core/rbda/sample.h', 'core/sim/generated.h'],
   'times two generated models, the Panda with and without its actuators, on random states'],
  ['bench/bench_constraint.c', ['core/sim/data.h'],
   'switches the run\'s constraint solve to one dynamics call per row (constraint_per_row), the yardstick it times'],
  ['bench/bench_contact.c', ['core/contact/contact.h', 'core/contact/ground_contact.h', 'core/contact/track_contact.h', 'core/rbda/kinematics.h', 'core/rbda/sample.h', 'core/sim/generated.h'],
   'times the contact stage\'s parts one by one'],
  ['bench/bench_native.c', ['core/rbda/dense.h', 'core/rbda/loop_project.h', 'core/rbda/loop_sample.h', 'core/rbda/loops.h', 'core/rbda/sample.h', 'core/sim/generated.h', 'tests/mujoco/mjcf.h'],
   'times the dense reference and ABA against generated code, and MuJoCo through the tests\' MJCF reader'],
  ['bench/mjcf_text.c', ['tests/mujoco/mjcf.h'],
   'the tests\' MJCF reader'],
  ['bench/rod_benchmarks.c', ['core/spatial/spatial.h', 'core/xpbd/rod.h', 'tests/fixtures/rod_fixtures.h'],
   'times the rod solver itself on the tests\' cantilever'],
  ['bench/rod_scenes.h', ['tests/fixtures/rod_fixtures.h'],
   'the rod benchmark scenes are the tests\' §9 rods, written once'],
  ['bench/xpbd_results.c', ['core/model/model.h', 'core/xpbd/xpbd.h', 'core/xpbd/xpbd_from_model.h'],
   'reads the XPBD world of a scene to print its results'],
  ['wasm/bench_sim.c', ['core/sim/data.h'],
   'the timing loop runs the engine\'s forward dynamics below the verbs'],
  ['wasm/model.c', ['core/sim/data.h'],
   'the per-model module compiles its generated C into itself and runs its own steps'],
];

const SOURCE_DIRS = ['core', 'include', 'wasm', 'cli', 'bench', 'tests'];

function* sources(dir) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'dist' && entry.name !== 'node_modules') yield* sources(path);
    } else if (/\.[ch]$/.test(entry.name)) yield path;
  }
}

function layerOf(path) {
  const name = Object.keys(LAYERS).filter((l) => path.startsWith(`${l}/`)).sort((a, b) => b.length - a.length)[0];
  return name ?? null;
}

function resolve(file, header) {
  const area = file.split('/')[0];
  for (const dir of [dirname(file), ...(SEARCH[area] ?? []), ...INCLUDE_DIRS]) {
    const path = join(dir, header);
    if (existsSync(join(root, path))) return path;
  }
  return null;
}

function allowed(from, to) {
  if (from === to || to === 'include/mech') return true;
  const a = LAYERS[from], b = LAYERS[to];
  if (a.only) return a.only.includes(to);
  return b.floor < a.floor || (a.also ?? []).includes(to);
}

const used = new Map();
for (const [file, headers] of EXCEPTIONS) for (const h of headers) used.set(`${file} ${h}`, false);

const errors = [];
let count = 0;
for (const dir of SOURCE_DIRS) {
  if (!existsSync(join(root, dir))) continue;
  for (const file of sources(dir)) {
    const from = layerOf(file);
    if (!from) errors.push(`${file}: in no layer (add its folder to LAYERS)`);
    readFileSync(join(root, file), 'utf8').split('\n').forEach((line, i) => {
      const m = /^\s*#\s*include\s+"([^"]+)"/.exec(line);
      if (!m) return;
      count++;
      const where = `${file}:${i + 1}`;
      const path = resolve(file, m[1]);
      if (!path) {
        errors.push(`${where}: "${m[1]}" is not in the source tree`);
        return;
      }
      const to = layerOf(path);
      if (!to) errors.push(`${where}: ${path} is in no layer (add its folder to LAYERS)`);
      if (!from || !to || allowed(from, to)) return;
      const key = `${file} ${path}`;
      if (used.has(key)) used.set(key, true);
      else errors.push(`${where}: ${from} (floor ${LAYERS[from].floor}) may not include ${path} (${to}, floor ${LAYERS[to].floor})`);
    });
  }
}
for (const [key, seen] of used)
  if (!seen) errors.push(`scripts/check-layers.mjs: the exception "${key}" is no longer needed: remove it`);

for (const e of errors) console.error(e);
console.log(`check-layers: ${count} includes, ${errors.length} upward or stale`);
process.exit(errors.length ? 1 : 0);
