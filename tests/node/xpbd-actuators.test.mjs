// Joint forces on XPBD (docs/mech-format.md, "Joint forces on XPBD"): the imported Panda, its joint damping
// (rsda) and position servos, run on XPBD and on the Featherstone runtime engine from its `home` keyframe with
// ctrl at home; every body origin (the hand's included) stays within 2 cm of the Featherstone run over 1 s.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { importModel, openModel } from '../../wasm/index.mjs';
import { root } from './helpers.mjs';

const pandaXml = readFileSync(`${root}models/robots/panda.xml`, 'utf8');

test('the Panda with its damping and servos at home on XPBD stays within 2 cm of Featherstone over 1 s', async () => {
  const { text } = await importModel(pandaXml, { format: 'mjcf', name: 'panda.xml' });
  const source = { text: `${text}\ninitial home\n`, name: 'panda' };
  const xpbd = await openModel(source, { engine: 'xpbd' });
  const fs = await openModel(source, { backend: 'runtime' });
  try {
    const nu = xpbd.describe().actuators.length;
    assert.ok(nu >= 7, `nu ${nu}`);
    assert.deepEqual([...xpbd.ctrl], [...fs.ctrl]);
    assert.ok(Math.abs(xpbd.ctrl[3] + 1.57079) < 1e-12, 'ctrl at home');
    // XPBD at dt 2 ms (its 10 substeps of 0.2 ms resolve the servos' explicit stiffness), Featherstone at 1 ms.
    let worst = 0;
    let hand = 0;
    const handIndex = xpbd.describe().bodies.findIndex((b) => b.name === 'hand');
    for (let s = 0; s < 500; s++) {
      xpbd.step(0.002, 1);
      fs.step(0.001, 2);
      const a = xpbd.poses();
      const b = fs.poses();
      for (let i = 0; i < a.length / 7; i++) {
        const d = Math.hypot(a[7 * i] - b[7 * i], a[7 * i + 1] - b[7 * i + 1], a[7 * i + 2] - b[7 * i + 2]);
        worst = Math.max(worst, d);
        if (i === handIndex) hand = Math.max(hand, d);
      }
    }
    console.log(`panda on XPBD vs Featherstone, 1 s at home: worst body origin gap ${(worst * 1000).toFixed(2)} mm, hand ${(hand * 1000).toFixed(2)} mm`);
    assert.ok(handIndex >= 0);
    assert.ok(worst < 0.02, `worst body origin gap ${worst} m`);
  } finally {
    xpbd.dispose();
    fs.dispose();
  }
});

test('XPBD resets to the initial keyframe and refuses another, naming the way to start from it', async () => {
  const { text } = await importModel(pandaXml, { format: 'mjcf', name: 'panda.xml' });
  const plain = await openModel({ text, name: 'panda' }, { engine: 'xpbd' });
  const atHome = await openModel({ text: `${text}\ninitial home\n`, name: 'panda' }, { engine: 'xpbd' });
  try {
    assert.throws(() => plain.resetToKeyframe('home'), /starts only from the model's initial state: name keyframe 'home' in the model's 'initial' line/);
    const before = atHome.poses().slice();
    atHome.step(0.002, 5);
    atHome.resetToKeyframe('home');
    assert.deepEqual([...atHome.poses()], [...before], 'back at home');
  } finally {
    plain.dispose();
    atHome.dispose();
  }
});
