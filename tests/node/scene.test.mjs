// scene.test.mjs — terrain scenes (models/tracks/scenes/*.scene, scripts/scene.mjs, wasm/scene.c): the shipped ones
// compose into their base model's text with only the description and ground changed, are listed and open on the
// base model's module, which refuses any other text naming the line; bad scene files are refused naming the file,
// line and column. (Driving on them: drive.test.mjs.)
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';

import { composeScene, parseScene } from '../../scripts/scene.mjs';
import { Sim, listModels } from '../../wasm/index.mjs';
import { WasmModule } from '../../wasm/module.mjs';
import { modelsDir, openModel, root } from './helpers.mjs';

const scenes = readdirSync(`${modelsDir}tracks/scenes`).filter((f) => f.endsWith('.scene'));

/** The lines that are neither blank, comments, the description nor inside the ground block. */
function significant(text) {
  const out = [];
  let ground = false;
  for (const line of text.split('\n')) {
    const word = line.trim().split(/[\s#]/)[0];
    if (ground) {
      if (word === 'end') ground = false;
    } else if (word === 'ground') {
      ground = true;
    } else if (word && word !== 'description') {
      out.push(line.replace(/\s+$/, ''));
    }
  }
  return out;
}

test('every shipped scene composes into its base with another description and ground, as the build ships it', () => {
  assert.ok(scenes.length >= 2, scenes.join(', '));
  for (const file of scenes) {
    const path = `${modelsDir}tracks/scenes/${file}`;
    const scene = parseScene(readFileSync(path, 'utf8'), file);
    const own = `${modelsDir}tracks/${scene.base}.mech`;
    const base = readFileSync(existsSync(own) ? own : `${modelsDir}loops/${scene.base}.mech`, 'utf8');
    const text = composeScene(scene, base, file);
    assert.deepEqual(significant(text), significant(base), file);
    assert.ok(text.includes(scene.description), file);
    assert.equal(readFileSync(`${root}wasm/dist/models/${file.replace(/\.scene$/, '.mech')}`, 'utf8'), text, `${file} as shipped`);
  }
});

test('bad scene files are refused naming file, line and column', () => {
  const ground = 'ground\n  plane 0\n  kn 1\n  mu 1\nend\n';
  const bad = [
    ['base m113\ndescription x\n' + ground + 'body a\n', /^s:8:1: 'body' is not a scene key/],
    ['base m113\n  base m113\ndescription x\n' + ground, /^s:2:3: duplicate 'base'/],
    ['base\ndescription x\n' + ground, /^s:1:1: 'base' takes one model name/],
    ['base m113\ndescription x\nground\n  plane 0\n', /^s:3:1: the ground block has no 'end'/],
    ['# only\nbase m113\n' + ground, /^s:1:1: the scene has no 'description'/],
  ];
  for (const [text, message] of bad) assert.throws(() => parseScene(text, 's'), { message });
});

test('terrain scenes: listed as tracked vehicles on the m113 module', async () => {
  const models = await listModels();
  for (const name of ['m113_ramp', 'm113_bumps']) {
    const m = models.find((x) => x.name === name);
    assert.ok(m, `${name} is listed`);
    assert.deepEqual([m.backend, m.group, m.module], ['generated', 'tracks', 'm113'], name);
    const sim = await openModel(name);
    try {
      assert.equal(sim.backend, 'generated');
      assert.equal(sim.name, name);
      assert.equal(sim.describe().ground.type, 'grid');
    } finally {
      sim.dispose();
    }
  }
});

test('the m113 module refuses scene text that changes more than the ground, naming the line', async () => {
  const mod = await WasmModule.instantiate(new URL('../../wasm/dist/m113.wasm', import.meta.url));
  const text = readFileSync(new URL('../../wasm/dist/models/m113_ramp.mech', import.meta.url), 'utf8');
  const open = (t) => mod.withString('m113_ramp', (n) => mod.withString(t, (p, len) => mod.exports.mw_open_scene(p, len, n)));
  const ok = open(text);
  assert.ok(ok, mod.lastError().message);
  mod.exports.mw_close(ok);
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.trim() === 'mass 27.68');
  lines[at] = '  mass 30';
  assert.equal(open(lines.join('\n')), 0);
  const e = mod.lastError();
  assert.equal(e.line, at + 1);
  assert.match(e.message, /not the model of this module \('m113', its line \d+\) with another ground/);
});

test('the base model\'s own text through mw_open_scene runs bit for bit as the module\'s own open', async () => {
  const mod = await WasmModule.instantiate(new URL('../../wasm/dist/m113.wasm', import.meta.url));
  const text = readFileSync(new URL('../../wasm/dist/models/m113.mech', import.meta.url), 'utf8');
  const own = new Sim(mod, mod.exports.mw_open(), 'generated');
  const scene = new Sim(mod, mod.withString('m113', (n) => mod.withString(text, (p, len) => mod.exports.mw_open_scene(p, len, n))), 'generated');
  const dt = own.describe().contactDt;
  own.step(dt, 300, { budgetMs: Infinity });
  scene.step(dt, 300, { budgetMs: Infinity });
  assert.deepEqual(Array.from(scene.q), Array.from(own.q));
  assert.deepEqual(Array.from(scene.qd), Array.from(own.qd));
  own.dispose();
  scene.dispose();
});
