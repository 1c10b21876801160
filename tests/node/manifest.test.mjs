// The build's manifests (wasm/dist/models.json and scenes.json, written by the native parser) against what the
// modules say when opened: every shipped model once with engine 'featherstone', every XPBD scene of models/xpbd/
// once with engine 'xpbd' and its rod count, so the page can list them without opening any.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';

import { openModel } from '../../wasm/index.mjs';
import { listedNames, modelsDir, root } from './helpers.mjs';

const read = (file) => JSON.parse(readFileSync(`${root}wasm/dist/${file}`, 'utf8'));
const sceneNames = readdirSync(`${modelsDir}xpbd`).filter((f) => f.endsWith('.mech')).map((f) => f.slice(0, -5)).sort();

test('models.json: every shipped model and terrain scene, engine featherstone', () => {
  const models = read('models.json');
  assert.deepEqual(models.map((m) => m.name), listedNames);
  for (const m of models) assert.equal(m.engine, 'featherstone', m.name);
});

test('scenes.json: every XPBD scene as it opens on engine xpbd', async () => {
  const scenes = read('scenes.json');
  assert.deepEqual(scenes.map((m) => m.name), sceneNames);
  for (const m of scenes) {
    assert.deepEqual([m.engine, m.backend, m.group], ['xpbd', 'runtime', 'xpbd'], m.name);
    const text = readFileSync(`${modelsDir}xpbd/${m.name}.mech`, 'utf8');
    const sim = await openModel({ text, name: m.name }, { engine: 'xpbd' });
    try {
      assert.deepEqual([m.description, m.nq, m.nv, m.nb, m.nact, m.nrod],
        [sim.description, sim.nq, sim.nv, sim.nb, sim.nact, sim.rods().length], m.name);
    } finally {
      sim.dispose();
    }
  }
});
