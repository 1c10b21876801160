// golden-states.test.mjs — every shipped model, terrain scene and XPBD scene, stepped 1000 times from its file's
// initial state, gives exactly the state recorded in golden-states.json (SHA-256 of q and qd as float64 bytes).
// A refactoring that must not change any number the simulator computes keeps every hash; a change that means to
// move results rewrites the file with `node tests/node/golden-states.test.mjs --write` and says why in its commit.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';

import { openModel } from '../../wasm/index.mjs';
import { listedNames, modelsDir, root, treeModelNames } from './helpers.mjs';

const STEPS = 1000;
const DT = 1e-4;
const goldenFile = `${root}tests/node/golden-states.json`;

const xpbdScenes = readdirSync(`${modelsDir}xpbd`).filter((f) => f.endsWith('.mech')).map((f) => f.slice(0, -5)).sort();

/** Every run the file records: [key, open()] in a fixed order. */
const runs = [
  ...listedNames.flatMap((name) => ['generated', 'runtime'].map((backend) => [`${name} ${backend}`, () => openModel(name, { backend })])),
  ...xpbdScenes.map((name) => [`xpbd/${name}`, () => openModel({ text: readFileSync(`${modelsDir}xpbd/${name}.mech`, 'utf8'), name }, { engine: 'xpbd' })]),
  ...treeModelNames.map((name) => [`${name} xpbd`, () => openModel(name, { engine: 'xpbd' })]),
];

async function stateHash(open) {
  const sim = await open();
  try {
    sim.step(DT, STEPS, { budgetMs: Infinity }); // the whole run, however long a loaded machine takes
    const bytes = new Uint8Array(Float64Array.from([...sim.q, ...sim.qd]).buffer);
    return createHash('sha256').update(bytes).digest('hex');
  } finally {
    sim.dispose();
  }
}

if (process.argv.includes('--write')) {
  const golden = {};
  for (const [key, open] of runs) golden[key] = await stateHash(open);
  writeFileSync(goldenFile, `${JSON.stringify(golden, null, 1)}\n`);
  console.log(`wrote ${Object.keys(golden).length} hashes to ${goldenFile}`);
} else {
  const golden = JSON.parse(readFileSync(goldenFile, 'utf8'));
  test('the golden file lists exactly the shipped runs', () => {
    assert.deepEqual(Object.keys(golden).sort(), runs.map(([key]) => key).sort());
  });
  for (const [key, open] of runs) {
    test(`${key}: ${STEPS} steps give the recorded state bit for bit`, async () => {
      assert.equal(await stateHash(open), golden[key]);
    });
  }
}
