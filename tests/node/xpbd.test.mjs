// The XPBD engine behind the same Sim surface (docs/wasm.md, "XPBD engine"):
// threelink opened with engine 'xpbd' steps, its poses are finite and hold
// the joints, the joint coordinates read back reproduce them, residuals are
// reported, bad engine names are rejected and two runs are bitwise equal; a motor's ramp rate is an input.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { MechError } from '../../wasm/index.mjs';
import { openModel } from './helpers.mjs';

const DT = 0.01;
const STEPS = 100;

/** |origin of body i − origin of body j| from a poses array. */
function distance(poses, i, j) {
  return Math.hypot(poses[7 * i] - poses[7 * j], poses[7 * i + 1] - poses[7 * j + 1],
    poses[7 * i + 2] - poses[7 * j + 2]);
}

test('threelink on XPBD: steps, holds its joints, reads back q, reports residuals', async () => {
  const sim = await openModel('threelink', { engine: 'xpbd' });
  const fk = await openModel('threelink', { backend: 'runtime' });
  try {
    assert.equal(sim.engine, 'xpbd');
    assert.equal(sim.backend, 'runtime');
    assert.deepEqual(sim.residuals(), { primal: 0, constraint: 0 });
    const start = Float64Array.from(sim.poses());
    fk.q.set(sim.q);
    assert.ok(Math.max(...start.map((v, k) => Math.abs(v - fk.poses()[k]))) < 1e-12, 'initial poses are q0');

    sim.step(DT, STEPS);
    const poses = Float64Array.from(sim.poses());
    assert.ok(poses.every(Number.isFinite), 'poses are finite');
    assert.ok(Math.abs(poses[0] - start[0]) + Math.abs(poses[7] - start[7]) > 0.1, 'the chain moved');
    // link1 hinges at the origin; link2 and link3 sit 1 m down the previous link.
    assert.ok(Math.hypot(poses[0], poses[1], poses[2]) < 1e-3, 'the base joint holds');
    assert.ok(Math.abs(distance(poses, 0, 1) - 1) < 1e-3 && Math.abs(distance(poses, 1, 2) - 1) < 1e-3,
      'the link lengths hold');
    for (let i = 0; i < 3; i++) {
      assert.ok(Math.abs(poses[7 * i + 1]) < 1e-9, `body ${i} stays in the x-z plane`);
    }
    // q read back from the bodies reproduces the XPBD poses through the tree.
    fk.q.set(sim.q);
    const tree = fk.poses();
    for (let k = 0; k < poses.length; k++) assert.ok(Math.abs(tree[k] - poses[k]) < 1e-3, `pose entry ${k}`);

    const { primal, constraint } = sim.residuals();
    assert.ok(primal >= 0 && primal < 1e-6, `primal residual ${primal}`);
    assert.ok(constraint > 0 && constraint < 1e-3, `constraint residual ${constraint}`);

    sim.reset();
    assert.deepEqual(Float64Array.from(sim.poses()), start, 'reset returns to the initial poses');
    assert.deepEqual(sim.residuals(), { primal: 0, constraint: 0 });
  } finally {
    sim.dispose();
    fk.dispose();
  }
  assert.throws(() => sim.poses(), /disposed/);
});

test('XPBD follows Featherstone on the same file over 0.5 s', async () => {
  const xp = await openModel('threelink', { engine: 'xpbd' });
  const fs = await openModel('threelink', { backend: 'runtime' });
  try {
    xp.step(DT, 50);
    fs.step(1e-4, 5000);
    const a = xp.poses();
    const b = fs.poses();
    for (let i = 0; i < 3; i++) assert.ok(distance([...a, ...b], i, i + 3) < 0.02, `body ${i} within 2 cm`);
  } finally {
    xp.dispose();
    fs.dispose();
  }
});

test('engine names are checked, residuals need XPBD, XPBD limits are reported', async () => {
  await assert.rejects(openModel('threelink', { engine: 'pbd' }), (e) => e instanceof RangeError && /unknown engine 'pbd'/.test(e.message));
  await assert.rejects(openModel('threelink', { engine: 'xpbd', backend: 'generated' }), RangeError);
  const fs = await openModel('threelink');
  try {
    assert.equal(fs.engine, 'featherstone');
    assert.throws(() => fs.residuals(), /not 'xpbd'/);
  } finally {
    fs.dispose();
  }
  const spring = 'body a\n parent base\n joint revolute y\n mass 1\n inertia 1 1 1\nend\n' +
    'poi pa a 0 0 0\npoi pb base 0 0 1\ntsda s\n from pa\n to pb\n k 1\n c 0\n l0 1\nend\n';
  await assert.rejects(openModel({ text: spring, name: 'spring' }, { engine: 'xpbd' }), /not supported by XPBD/);
  await assert.rejects(openModel({ text: 'body a\n limit 1\n', name: 'bad' }, { engine: 'xpbd' }), MechError);
});

test('XPBD runs are bitwise reproducible', async () => {
  const run = async () => {
    const sim = await openModel('threelink', { engine: 'xpbd' });
    try {
      sim.step(DT, STEPS);
      return Float64Array.from([...sim.poses(), ...sim.q, ...sim.qd]);
    } finally {
      sim.dispose();
    }
  };
  const first = await run();
  assert.deepEqual(await run(), first);
});

test('XPBD contacts: a ball dropped on a static plane comes to rest on it, its contact listed', async () => {
  const text = [
    'static plane restitution 0.5',
    'body ball', ' parent base', ' joint floating', ' mass 1', ' inertia 0.004 0.004 0.004', ' q0 0.2 -0.1 0.5',
    ' shape sphere 0.1 restitution 0.5', 'end', '',
  ].join('\n');
  const sim = await openModel({ text, name: 'drop' }, { engine: 'xpbd' });
  const fk = await openModel({ text, name: 'drop' });
  try {
    assert.equal(sim.contacts().length, 0, 'no contact before the first step');
    sim.step(DT, 300);
    const c = sim.contacts();
    assert.equal(c.length, 6, 'one contact: the ball on the plane');
    const [x, y, z, nx, ny, nz] = c;
    assert.ok(Math.abs(x - 0.2) < 1e-9 && Math.abs(y + 0.1) < 1e-9 && Math.abs(z) < 1e-6, `contact point ${[x, y, z]}`);
    assert.deepEqual([nx, ny, nz], [0, 0, 1]);
    assert.ok(Math.abs(sim.poses()[2] - 0.1) < 1e-4, 'the ball rests on the plane');
    assert.equal(fk.contacts().length, 0, 'Featherstone has no colliders');
    const d = sim.describe();
    assert.deepEqual(d.statics.map((x) => [x.type, x.body, x.pos]), [['plane', -1, [0, 0, 0]]], 'the static plane is described');
    assert.equal(d.shapes[0].visual, false, 'the ball is a collider');
  } finally {
    sim.dispose();
    fk.dispose();
  }
});

test('XPBD contacts: the contact scene steps at 1 ms, where one box covers cells that share a hash bucket', async () => {
  // At dt 1e-3 the ramp block's cells collide in the spatial hash; its pair with the ground box was listed twice,
  // and the doubled manifold overran the solver's rows (a memory fault in WebAssembly).
  const text = readFileSync(new URL('../../models/xpbd/contact.mech', import.meta.url), 'utf8');
  const sim = await openModel({ text, name: 'contact' }, { engine: 'xpbd' });
  sim.step(1e-3, 250);
  assert.ok([...sim.q].every(Number.isFinite), 'q finite after 0.25 s');
  const c = sim.contacts();
  for (let i = 0; i < c.length; i += 6)
    for (let j = i + 6; j < c.length; j += 6)
      assert.ok(c.slice(i, i + 6).some((x, k) => x !== c[j + k]), 'no contact listed twice');
  sim.dispose();
});

test('XPBD motor rate: read from the file, set as an input without a jump, refused where there is no ramp', async () => {
  const text = 'xpbd\n  dt 1e-4\nend\nbody rotor\n  parent base\n  joint revolute x\n  mass 0.01\n' +
    '  inertia 1e-8 1e-8 1e-8\n  drive 0\n  target ramp 36000 0\nend\nbody free\n  parent base\n  joint floating\n  mass 1\n  inertia 1 1 1\nend\n';
  const sim = await openModel({ text, name: 'motor' }, { engine: 'xpbd' });
  const fk = await openModel('threelink');
  try {
    const turn = 2 * Math.PI;
    assert.ok(Math.abs(sim.rampRate(0) - 100 * turn) < 1e-9, `the file's rate: ${sim.rampRate(0)}`);
    sim.step(1e-4, 500);
    sim.setRampRate(0, 50 * turn);
    assert.equal(sim.rampRate(0), 50 * turn);
    const q0 = sim.q[0];
    sim.step(1e-4, 1);
    const turned = (((sim.q[0] - q0) % turn) + 1.5 * turn) % turn - turn / 2;
    assert.ok(Math.abs(turned - 50 * turn * 1e-4) < 1e-9, `the step after the change turned ${turned} rad`);
    assert.throws(() => sim.rampRate(1), /no ramp drive/);
    assert.equal(sim.rampRate('rotor'), 50 * turn, 'a body by its name');
    for (const body of [1.9, 2 ** 32 + 1, -1, 2, NaN, 'nobody', null]) {
      assert.throws(() => sim.rampRate(body), /rampRate: body must be an index in \[0, 2\) or a body's name/, String(body));
      assert.throws(() => sim.setRampRate(body, 1), /setRampRate: body must be an index/, String(body));
    }
    assert.throws(() => sim.setRampRate(0, NaN), /finite/);
    assert.throws(() => fk.rampRate(0), /not 'xpbd'|no ramp drive/);
  } finally {
    sim.dispose();
    fk.dispose();
  }
});
