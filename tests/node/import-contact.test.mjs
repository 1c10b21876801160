// What the importer writes for contact and joint limits (docs/import.md, "Contact and limits"): colliders with their
// filter bits and friction, visual geoms, world planes and boxes as statics, excludes (given and implied by MuJoCo's
// weld filter), the contact line's solref/solimp/impratio, limits under limited/autolimits, friction loss, and the
// warnings for what .mech cannot say; the same for URDF collisions, limits and friction.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { importModel } from '../../wasm/import/index.mjs';
import { openModel } from '../../wasm/index.mjs';

const mjcf = (body, { world = '', head = '', tail = '' } = {}) => `<mujoco model="t">${head}<worldbody>${world}${body}</worldbody>${tail}</mujoco>`;
const inertial = '<inertial mass="1" diaginertia="0.01 0.01 0.01"/>';
const lines = (text, re) => text.split('\n').filter((l) => re.test(l));

test('MJCF geoms: colliders with contype, conaffinity and friction; condim 1 frictionless; visual geoms', async () => {
  const { text, warnings } = await importModel(mjcf(`<body name="a" pos="0 0 1"><freejoint/>${inertial}
    <geom type="box" size="0.1 0.2 0.3" friction="0.7 0.01 0.001" contype="2" conaffinity="5"/>
    <geom type="sphere" size="0.1" condim="1" friction="0.4"/>
    <geom type="capsule" size="0.05 0.1" contype="0" conaffinity="0"/>
    <geom type="cylinder" size="0.05 0.1" condim="6" priority="1" margin="0.001"/>
  </body>`), { name: 't.xml' });
  assert.deepEqual(lines(text, /^ {2}shape/), [
    '  shape box 0.2 0.4 0.6 contype 2 conaffinity 5 friction 0.7 0.7',
    '  shape sphere 0.1 friction 0 0',
    '  shape capsule 0.05 0.2 visual',
    '  shape cylinder 0.05 0.2 friction 1 1',
  ]);
  assert.deepEqual(lines(text, /^contact/), ['contact']);
  for (const w of ['1 collider geom with condim 6: taken as condim 3', '1 collider geom with a priority: dropped', '1 collider geom with a margin or gap: dropped']) {
    assert.ok(warnings.some((x) => x.startsWith(w)), `warns: ${w}\n${warnings.join('\n')}`);
  }
  const sim = await openModel({ text, name: 't' });
  assert.deepEqual(sim.describe().shapes.map((s) => s.visual), [false, false, true, false]);
  sim.dispose();
});

test('MJCF world geoms: planes and boxes as statics, others named; a model without colliders has no contact line', async () => {
  const world = `<geom name="floor" type="plane" size="0 0 1" friction="0.8"/>
    <geom type="box" size="0.5 1 0.1" pos="1 0 0.1" euler="0 0 30"/>
    <geom name="ball" type="sphere" size="0.2" pos="0 3 0"/>
    <geom type="box" size="1 1 1" contype="0" conaffinity="0"/>`;
  const { text, warnings } = await importModel(mjcf(`<body name="a"><joint type="hinge"/>${inertial}<geom type="sphere" size="0.1" contype="0" conaffinity="0"/></body>`, { world }), { name: 't.xml' });
  const statics = lines(text, /^(static|contact)/);
  assert.deepEqual(statics.slice(0, 2), ['contact', 'static plane friction 0.8 0.8']);
  assert.match(statics[2], /^static box 1 2 0\.2 pos 1 0 0\.1 rot z (30|29\.99999999999999\d) friction 1 1$/);
  assert.equal(statics.length, 3);
  assert.ok(warnings.some((w) => /^world geom 'ball' \(line \d+\) \(sphere\) dropped: \.mech static colliders are planes and boxes$/.test(w)), warnings.join('\n'));
  assert.ok(warnings.some((w) => /1 visual geoms of the world body/.test(w)), warnings.join('\n'));
  const bare = await importModel(mjcf(`<body name="a"><joint type="hinge"/>${inertial}<geom type="sphere" size="0.1" contype="0" conaffinity="0"/></body>`), { name: 't.xml' });
  assert.ok(!/^contact/m.test(bare.text), 'no colliders, no contact line');
  const sim = await openModel({ text, name: 't' });
  sim.dispose();
});

test('MJCF solref, solimp and impratio on the contact line; differing values are a warning', async () => {
  const same = await importModel(mjcf(`<body name="a"><freejoint/>${inertial}<geom type="sphere" size="0.1" solref="0.005 1" solimp="0.5 0.99 0.0001"/></body>`,
    { head: '<option impratio="10" cone="pyramidal"/>' }), { name: 't.xml' });
  assert.deepEqual(lines(same.text, /^contact/), ['contact solref 0.005 1 solimp 0.5 0.99 0.0001 impratio 10']);
  assert.ok(same.warnings.some((w) => /cone="pyramidal"> taken as elliptic/.test(w)));
  assert.ok(!same.warnings.some((w) => /<option>.*dropped/.test(w)), same.warnings.join('\n'));
  const mixed = await importModel(mjcf(`<body name="a"><freejoint/>${inertial}<geom type="sphere" size="0.1" solref="0.01 1"/>
    <geom type="sphere" size="0.1" pos="0 0 1" solref="0.01 1"/><geom type="box" size="0.1 0.1 0.1" solref="0.03 1"/></body>`), { name: 't.xml' });
  assert.deepEqual(lines(mixed.text, /^contact/), ['contact solref 0.01 1']);
  assert.ok(mixed.warnings.some((w) => w.startsWith('geom solref differs between colliders (0.01 1; 0.03 1)')), mixed.warnings.join('\n'));
});

test('MJCF excludes: given pairs, and the pairs MuJoCo\'s weld filter drops', async () => {
  const g = '<geom type="sphere" size="0.05"/>';
  const body = `<body name="a">${inertial}${g}
      <body name="b"><joint name="j1" type="hinge"/>${inertial}${g}
        <body name="c">${inertial}${g}
          <body name="d"><joint name="j2" type="hinge"/>${inertial}${g}</body>
        </body>
      </body>
      <body name="e"><joint name="j3" type="hinge"/>${inertial}${g}</body>
    </body>`;
  const { text, warnings } = await importModel(mjcf(body, { world: '<geom type="plane" size="1 1 1"/>', tail: '<contact><exclude body1="b" body2="e"/></contact>' }), { name: 't.xml' });
  // a is welded to the world: a–plane (one weld group); c is welded to b: b–c (one group), d's parent group is
  // b's: b–d; a is the world's group, so a–b (a parent welded to the world) touch in MuJoCo and not in .mech.
  assert.deepEqual(lines(text, /^exclude/).sort(), ['exclude b d', 'exclude b e', 'exclude base a']);
  assert.ok(warnings.some((w) => /^2 body pairs MuJoCo lets touch/.test(w)), warnings.join('\n'));
  const sim = await openModel({ text, name: 't' });
  sim.dispose();
  assert.throws(() => importModel(mjcf(body, { tail: '<contact><exclude body1="b" body2="zz"/></contact>' }), { name: 't.xml' }), /unknown body 'zz'/);
});

test('MJCF joint ranges: limited, autolimits, degrees and radians; frictionloss; ball joints warned', async () => {
  const body = `<body name="a"><joint name="h" type="hinge" range="-30 60" frictionloss="0.3"/>${inertial}
      <body name="b"><joint name="s" type="slide" range="0 0.2" limited="false"/>${inertial}
        <body name="c"><joint name="h2" type="hinge" range="10 5"/>${inertial}
          <body name="d"><joint name="ball" type="ball" range="0 45" frictionloss="1"/>${inertial}</body>
        </body>
      </body>
    </body>`;
  const { text, warnings } = await importModel(mjcf(body), { name: 't.xml' });
  const [limit, loss, ...rest] = lines(text, /^ {2}(limit|frictionloss)/);
  assert.deepEqual(limit.trim().split(' ').slice(1, 3).map((x) => Number(Number(x).toPrecision(14))), [-30, 60], limit);
  assert.deepEqual([loss, rest], ['  frictionloss 0.3', []]);
  for (const w of ['1 joint ranges with lower ≥ upper (no limit) dropped', '1 ball joint ranges (limits) dropped', '1 ball joint frictionloss values']) {
    assert.ok(warnings.some((x) => x.startsWith(w)), `${w}\n${warnings.join('\n')}`);
  }
  const off = await importModel(mjcf(body, { head: '<compiler angle="radian" autolimits="false"/>' }), { name: 't.xml' });
  assert.deepEqual(lines(off.text, /^ {2}limit/), [], 'autolimits off: only limited="true" limits');
  const on = await importModel(mjcf('<body name="a"><joint type="slide" range="-0.1 0.3" limited="true"/><inertial mass="1" diaginertia="1 1 1"/></body>', { head: '<compiler autolimits="false"/>' }), { name: 't.xml' });
  assert.deepEqual(lines(on.text, /^ {2}limit/), ['  limit -0.1 0.3']);
  const sim = await openModel({ text, name: 't' });
  sim.dispose();
});

test('MJCF mesh geoms that collide in MuJoCo (groups 3 and above too) collide through their hulls; visual ones are visual', async () => {
  const files = { 'm.obj': 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n' };
  const xml = mjcf(`<body name="a"><freejoint/>${inertial}<geom type="mesh" mesh="m"/><geom type="mesh" mesh="m" contype="0" conaffinity="0"/>
    <geom type="mesh" mesh="m" group="3"/></body>`, { head: '<asset><mesh file="m.obj"/></asset>' });
  const { text, warnings } = await importModel(xml, { name: 't.xml', files });
  assert.deepEqual(lines(text, /^ {2}shape/), ['  shape mesh m friction 1 1', '  shape mesh m visual', '  shape mesh m friction 1 1']);
  assert.ok(!warnings.some((w) => /collision mesh/.test(w)), warnings.join('\n'));
  assert.deepEqual(lines(text, /^contact/), ['contact']);
  const withFiles = await openModel({ text, name: 't' }, { backend: 'runtime', files });
  assert.deepEqual(withFiles.warnings, []);
  withFiles.dispose();
  const without = await openModel({ text, name: 't' }, { backend: 'runtime' });
  assert.ok(without.warnings.length === 1 && /^mesh 'm': its file 'm.obj' was not given/.test(without.warnings[0]), without.warnings.join('\n'));
  without.dispose();
});

test('URDF: collisions as colliders, visuals visual, limits and joint friction', async () => {
  const urdf = `<robot name="r">
    <link name="base"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1"/></inertial></link>
    <link name="arm"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1"/></inertial>
      <visual><geometry><box size="0.1 0.2 0.3"/></geometry></visual>
      <collision><origin xyz="0 0 0.1"/><geometry><sphere radius="0.05"/></geometry></collision></link>
    <link name="slider"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1"/></inertial></link>
    <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><limit lower="-1" upper="2" effort="0"/><dynamics friction="0.5"/></joint>
    <joint name="k" type="prismatic"><parent link="arm"/><child link="slider"/><limit lower="0" upper="0" effort="0"/></joint>
  </robot>`;
  const { text, warnings } = await importModel(urdf, { name: 'r.urdf' });
  assert.deepEqual(lines(text, /^ {2}(shape|limit|frictionloss)/), [
    `  limit ${-180 / Math.PI} ${360 / Math.PI}`, '  frictionloss 0.5', '  shape box 0.1 0.2 0.3 visual', '  shape sphere 0.05 pos 0 0 0.1 friction 1 1',
  ]);
  assert.deepEqual(lines(text, /^contact/), ['contact']);
  assert.ok(!warnings.some((w) => /collision|limit|friction/.test(w)), warnings.join('\n'));
  const sim = await openModel({ text, name: 'r' });
  sim.dispose();
});
