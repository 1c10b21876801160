// The MJCF/URDF importer (docs/import.md) cross-checked against MuJoCo: each model is loaded in mujoco-js
// (contacts, limits and equality constraints disabled; joint damping, springs and actuators kept) and, imported,
// in this project's runtime engine; MuJoCo's qacc and our forward() qdd agree at 200 random (q, qd, tau, ctrl);
// an actuator MuJoCo does not have (a URDF effort's motor) keeps ctrl 0.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';

import { importModel, openModel } from '../../wasm/index.mjs';
import { root, scaledError } from './helpers.mjs';
import { qToMat } from '../../wasm/import/math.mjs';
import { actuatorLayout, forMujoco, jointLayout, loadMujoco, mujocoFromFiles, mujocoModel, mujocoQdd, withFlags } from './mujoco-side.mjs';

const panda = readFileSync(`${root}models/robots/panda.xml`, 'utf8');
const scara = readFileSync(`${root}models/robots/scara.urdf`, 'utf8');
const features = readFileSync(`${root}tests/import/features.xml`, 'utf8');
const TRIALS = 200;
/** Deterministic uniform numbers in [-1, 1) (Park–Miller). */
function prng(state) {
  return () => ((state = (state * 16807) % 2147483647) / 2147483647) * 2 - 1;
}

/** The largest scaled |qdd − qacc| over random states. */
async function crossCheck(mechText, name, model, { slide = 0.1 } = {}) {
  const mj = await loadMujoco();
  const sim = await openModel({ text: mechText, name }, { backend: 'runtime' });
  const data = new mj.MjData(model);
  const layout = jointLayout(mj, model, sim);
  const actuators = actuatorLayout(mj, model, sim);
  assert.equal(sim.nv, model.nv, 'the same number of velocities');
  const { bodies, actuators: acts } = sim.describe();
  const random = prng(12345);
  let worst = 0;
  for (let trial = 0; trial < TRIALS; trial++) {
    for (const b of bodies) {
      if (b.joint === 'spherical') {
        const Q = [random(), random(), random(), random()];
        const n = Math.hypot(...Q);
        sim.q.set(Q.map((x) => x / n), b.qidx);
      } else if (b.joint === 'floating') {
        const Q = [random(), random(), random(), random()];
        const n = Math.hypot(...Q);
        sim.q.set([...Q.map((x) => x / n), random(), random(), 1 + random()], b.qidx);
      } else if (b.nq === 1) {
        sim.q[b.qidx] = b.joint === 'prismatic' ? slide * random() : Math.PI * random();
      }
    }
    for (let i = 0; i < sim.nv; i++) {
      sim.qd[i] = 2 * random();
      sim.tau[i] = 3 * random();
    }
    for (const { ours } of actuators) { // over each ctrlrange and a fifth beyond: both clamp
      const [lo, hi] = acts[ours].ctrlrange ?? [-5, 5];
      sim.ctrl[ours] = (lo + hi) / 2 + 0.6 * (hi - lo) * random();
    }
    const want = mujocoQdd(mj, model, data, sim, layout, actuators);
    const got = sim.forward();
    worst = Math.max(worst, scaledError(got, want));
  }
  data.delete();
  sim.dispose();
  return worst;
}

test('Franka Panda (MJCF, MuJoCo Menagerie) matches MuJoCo, damping, armature and actuators included', async () => {
  const { text, warnings } = await importModel(panda, { format: 'mjcf', name: 'panda.xml' });
  assert.equal((text.match(/^ {2}armature 0\.1$/gm) ?? []).length, 9, 'armature 0.1 on all 9 joints');
  assert.ok(!warnings.some((w) => /armature/.test(w)), warnings.join('\n'));
  for (const what of ['mesh files named and no files given']) {
    assert.ok(warnings.some((w) => w.includes(what)), `warns about ${what}`);
  }
  assert.ok(!warnings.some((w) => /tendon|equality/.test(w)), warnings.join('\n'));
  assert.match(text, /^tendon split\n {2}joint left_finger 0\.5\n {2}joint right_finger 0\.5\nend$/m, 'the fingers\' split tendon');
  assert.match(text, /^actuator actuator8\n {2}tendon split\n/m, 'the gripper actuator drives it');
  assert.match(text, /^equality equality0\n {2}type joint\n {2}body1 left_finger\n {2}body2 right_finger\n/m, 'the fingers\' joint equality');
  const model = await mujocoModel(forMujoco(panda), 'xml');
  assert.ok(Array.from(model.dof_damping).every((c) => c === 1), 'MuJoCo keeps the joint damping');
  assert.ok(Array.from(model.dof_armature).every((c) => c === 0.1), 'and the armature');
  const at0 = await initialPoses(text, 'panda', model);
  assert.ok(at0.anchor <= 1e-14 && at0.axis <= 1e-14, `initial joint anchors and axes as MuJoCo's: ${JSON.stringify(at0)}`);
  const worst = await crossCheck(text, 'panda', model, { slide: 0.04 });
  model.delete();
  console.log(`panda: max scaled |qdd - MuJoCo qacc| over ${TRIALS} states = ${worst.toExponential(2)}`);
  assert.ok(worst <= 1e-9, `scaled error ${worst}`);
});

/**
 * At the initial state, each joint's world anchor and axis as MuJoCo places them (mj_kinematics at qpos0) against
 * our poses(): the largest difference in m (anchors) and in the axes' components.
 */
async function initialPoses(mechText, name, model) {
  const mj = await loadMujoco();
  const sim = await openModel({ text: mechText, name }, { backend: 'runtime' });
  const data = new mj.MjData(model);
  mj.mj_resetData(model, data);
  mj.mj_kinematics(model, data);
  const bodies = sim.describe().bodies;
  const poses = sim.poses();
  let anchor = 0;
  let axis = 0;
  for (let j = 0; j < model.njnt; j++) {
    const b = bodies.findIndex((x) => x.name === mj.mj_id2name(model, 1, model.jnt_bodyid[j]));
    const p = poses.subarray(7 * b, 7 * b + 7);
    for (let k = 0; k < 3; k++) anchor = Math.max(anchor, Math.abs(p[k] - data.xanchor[3 * j + k]));
    if (bodies[b].nv === 1) {
      const a = bodies[b].axis;
      const R = qToMat(p.subarray(3, 7));
      for (let k = 0; k < 3; k++) {
        const world = R[3 * k] * a[0] + R[3 * k + 1] * a[1] + R[3 * k + 2] * a[2];
        axis = Math.max(axis, Math.abs(world - data.xaxis[3 * j + k]));
      }
    }
  }
  data.delete();
  sim.dispose();
  return { anchor, axis };
}

test('the Shadow Hand (MuJoCo Menagerie) matches MuJoCo with its fixed tendons and the actuators on them', async () => {
  const hand = readFileSync(`${root}models/robots/shadow_hand.xml`, 'utf8');
  const { text, warnings } = await importModel(hand, { format: 'mjcf', name: 'shadow_hand.xml' });
  assert.ok(!warnings.some((w) => /tendon/.test(w)), warnings.join('\n'));
  assert.equal((text.match(/^tendon rh_[FMRL]FJ0$/gm) ?? []).length, 4, 'the four finger couplings');
  assert.equal((text.match(/^ {2}tendon rh_[FMRL]FJ0$/gm) ?? []).length, 4, 'each driven by its actuator');
  const model = await mujocoModel(forMujoco(hand), 'xml');
  assert.equal(model.ntendon, 4);
  const worst = await crossCheck(text, 'shadow_hand', model);
  model.delete();
  console.log(`shadow_hand: max scaled |qdd - MuJoCo qacc| over ${TRIALS} states = ${worst.toExponential(2)}`);
  assert.ok(worst <= 1e-9, `scaled error ${worst}`);
});

test('MJCF frames, defaults, childclass, free joint, springs and geom inertia match MuJoCo', async () => {
  const { text } = await importModel(features, { name: 'features.xml' });
  const model = await mujocoModel(forMujoco(features), 'xml');
  const at0 = await initialPoses(text, 'features', model);
  assert.ok(at0.anchor <= 1e-14 && at0.axis <= 1e-14, `initial joint anchors and axes as MuJoCo's: ${JSON.stringify(at0)}`);
  const worst = await crossCheck(text, 'features', model);
  model.delete();
  console.log(`features: max scaled |qdd - MuJoCo qacc| over ${TRIALS} states = ${worst.toExponential(2)}`);
  assert.ok(worst <= 1e-9, `scaled error ${worst}`);
});

test('a robot whose masses MuJoCo infers from OBJ and STL meshes (an included tree, frames) matches MuJoCo', async () => {
  const dir = `${root}tests/fixtures/`;
  const files = { 'mesh_robot_arm.xml': readFileSync(`${dir}mesh_robot_arm.xml`, 'utf8') };
  for (const f of readdirSync(`${dir}meshes`)) files[`meshes/${f}`] = new Uint8Array(readFileSync(`${dir}meshes/${f}`));
  const xml = readFileSync(`${dir}mesh_robot.xml`, 'utf8');
  const { text } = await importModel(xml, { name: 'mesh_robot.xml', files });
  const model = await mujocoFromFiles('mesh_robot.xml', { ...files, 'mesh_robot.xml': withFlags(xml) });
  const at0 = await initialPoses(text, 'mesh_robot', model);
  assert.ok(at0.anchor <= 1e-14 && at0.axis <= 1e-14, `initial joint anchors and axes as MuJoCo's: ${JSON.stringify(at0)}`);
  const worst = await crossCheck(text, 'mesh_robot', model);
  model.delete();
  console.log(`mesh robot: max scaled |qdd - MuJoCo qacc| over ${TRIALS} states = ${worst.toExponential(2)}`);
  assert.ok(worst <= 1e-9, `scaled error ${worst}`);
  // The meshes are named in the text, drawn by `shape mesh` lines; describe() lists them for a viewer.
  const sim = await openModel({ text, name: 'mesh_robot' });
  const { meshes, shapes } = sim.describe();
  const cube = meshes.find((m) => m.name === 'cube_stl');
  assert.deepEqual({ ...cube, refquat: undefined }, { name: 'cube_stl', file: 'meshes/cube.stl', scale: [0.2, 0.1, 0.05], refpos: [0, 0, 0], refquat: undefined });
  const unit = [0.9, 0.1, 0.3, -0.2].map((x) => x / Math.hypot(0.9, 0.1, 0.3, 0.2));
  assert.ok(cube.refquat.every((x, i) => Math.abs(x - unit[i]) < 1e-15), `refquat ${cube.refquat}`);
  const drawn = shapes.filter((x) => x.type === 'mesh');
  assert.equal(drawn.length, 7);
  // They collide, as MuJoCo's mesh geoms of contype 1 do, through their hulls: opened without the files, each
  // mesh is named in a warning; with them, none.
  assert.ok(drawn.every((x) => !x.visual && meshes[x.mesh]));
  assert.equal(sim.warnings.length, new Set(drawn.map((x) => x.mesh)).size);
  sim.dispose();
  const withFiles = await openModel({ text, name: 'mesh_robot' }, { files });
  assert.deepEqual(withFiles.warnings, []);
  withFiles.dispose();
});

test('MJCF ball joints (an anchor off the body origin, armature, a hinge below) match MuJoCo', async () => {
  const xml = `<mujoco model="balls"><compiler angle="degree"/><option gravity="0.3 -0.2 -9.81"/><worldbody>
  <body name="upper" pos="0 0 1" euler="10 20 30">
    <joint name="hip" type="ball" pos="0.02 -0.01 0.05" armature="0.01" damping="0.5"/>
    <inertial pos="0.03 0.01 -0.2" mass="1.3" fullinertia="0.05 0.06 0.03 0.002 -0.001 0.003"/>
    <body name="lower" pos="0 0.05 -0.4" quat="0.9 0.1 0.3 0.2">
      <joint name="knee" type="ball"/>
      <inertial pos="0 0 -0.15" mass="0.7" diaginertia="0.02 0.021 0.004"/>
      <body name="foot" pos="0 0 -0.3"><joint name="ankle" type="hinge" axis="0 1 0.2"/>
        <inertial pos="0.05 0 -0.02" mass="0.3" diaginertia="0.001 0.002 0.0015"/></body>
    </body>
  </body></worldbody></mujoco>`;
  const { text, warnings } = await importModel(xml, { name: 'balls.xml' });
  assert.equal((text.match(/^ {2}joint spherical/gm) ?? []).length, 2, text);
  assert.ok(warnings.some((w) => /MJCF ball joint of 'upper': damping\/stiffness dropped/.test(w)), warnings.join('\n'));
  const model = await mujocoModel(forMujoco(xml.replace(' damping="0.5"', '')), 'xml');
  const at0 = await initialPoses(text, 'balls', model);
  assert.ok(at0.anchor <= 1e-14 && at0.axis <= 1e-14, `initial joint anchors and axes as MuJoCo's: ${JSON.stringify(at0)}`);
  const worst = await crossCheck(text, 'balls', model);
  model.delete();
  console.log(`balls: max scaled |qdd - MuJoCo qacc| over ${TRIALS} states = ${worst.toExponential(2)}`);
  assert.ok(worst <= 1e-9, `scaled error ${worst}`);
});

test('URDF robot matches MuJoCo (MuJoCo: fusestatic off, inertial rpy removed on both sides)', async () => {
  // mujoco-js 0.0.7 ignores an <inertial><origin rpy> in URDF (the URDF specification rotates the inertia by
  // it), and its fusestatic merges a fixed link's centre of mass wrongly; both are checked against closed forms
  // below instead.
  const plain = scara.replace(/(<inertial>\s*<origin xyz="[^"]*") rpy="[^"]*"/g, '$1');
  assert.notEqual(plain, scara);
  const { text } = await importModel(plain, { format: 'urdf', name: 'scara.urdf' });
  const model = await mujocoModel(plain.replace('<robot name="scara">', '<robot name="scara"><mujoco><compiler fusestatic="false"/></mujoco>'), 'urdf');
  model.opt.disableflags |= 1; // mjDSBL_CONSTRAINT: no limits
  const worst = await crossCheck(text, 'scara', model);
  model.delete();
  console.log(`scara: max scaled |qdd - MuJoCo qacc| over ${TRIALS} states = ${worst.toExponential(2)}`);
  assert.ok(worst <= 1e-9, `scaled error ${worst}`);
});

test('URDF inertial rpy rotates the inertia; fixed joints merge mass, centre of mass and inertia exactly', async () => {
  const link = (name, inertial) => `<link name="${name}"><inertial>${inertial}</inertial></link>`;
  const urdf = `<robot name="t">
    ${link('a', '<mass value="1"/><inertia ixx="1" iyy="1" izz="1"/>')}
    ${link('b', '<origin xyz="0 0 0" rpy="0 0 1.5707963267948966"/><mass value="2"/><inertia ixx="0.1" iyy="0.3" izz="0.35"/>')}
    ${link('c', '<origin xyz="0 0 1"/><mass value="2"/><inertia ixx="0.2" iyy="0.2" izz="0.2"/>')}
    <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/></joint>
    <joint name="weld" type="fixed"><parent link="b"/><child link="c"/><origin xyz="0 0 1"/></joint>
  </robot>`;
  const { text, warnings } = await importModel(urdf, { format: 'urdf' });
  assert.ok(warnings.some((w) => /'c' welded into 'b'/.test(w)));
  const sim = await openModel({ text, name: 't' });
  const b = sim.describe().bodies.find((x) => x.name === 'b');
  assert.equal(sim.nb, 2);
  // b: 2 kg at 0 with diag(0.3, 0.1, 0.35) after the quarter turn; c: 2 kg at z = 2, diag 0.2.
  // Together: 4 kg at z = 1; each part 1 m from it adds 2·1² = 2 about x and y.
  assert.equal(b.mass, 4);
  assert.deepEqual(b.com, [0, 0, 1]);
  const want = [0.3 + 0.2 + 4, 0, 0, 0, 0.1 + 0.2 + 4, 0, 0, 0, 0.35 + 0.2];
  for (let i = 0; i < 9; i++) assert.ok(Math.abs(b.inertia[i] - want[i]) < 1e-15, `inertia[${i}] ${b.inertia[i]} vs ${want[i]}`);
  sim.dispose();
});

test('the shipped models import and open; the header says where they came from', async () => {
  for (const [xml, file] of [[panda, 'panda.xml'], [scara, 'scara.urdf']]) {
    const { text, warnings } = await importModel(xml, { name: file });
    assert.match(text, new RegExp(`^# \\S+ — imported from (MJCF|URDF) '${file.replace('.', '\\.')}'`));
    for (const w of warnings) assert.ok(text.includes(w.replace(/[\r\n]+/g, ' ')), 'every warning is in the header');
    const sim = await openModel({ text, name: file });
    assert.ok(sim.nb > 0);
    sim.dispose();
  }
  const { text } = await importModel(panda, { name: 'panda.xml' });
  const sim = await openModel({ text, name: 'panda' });
  assert.deepEqual(sim.bodyNames, ['link0', 'link1', 'link2', 'link3', 'link4', 'link5', 'link6', 'link7', 'hand', 'left_finger', 'right_finger']);
  sim.dispose();
});

test('scripts/import.mjs prints the .mech text on stdout and the warnings on stderr', () => {
  const out = execFileSync(process.execPath, [`${root}scripts/import.mjs`, `${root}models/robots/scara.urdf`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  assert.match(out, /^# scara — imported from URDF 'scara\.urdf'/);
  assert.match(out, /\nbody upper_arm\n/);
  let failed = null;
  try {
    execFileSync(process.execPath, [`${root}scripts/import.mjs`, `${root}tests/import/features.xml`, '--format', 'urdf'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    failed = e;
  }
  assert.equal(failed?.status, 1);
  assert.match(failed.stderr, /^features\.xml:6:1: <mujoco>: the root element of a URDF file is <robot>/);
});

test('the shipped robots are generated models, built from exactly what the importer writes today', async () => {
  const { listModels, loadModelText } = await import('../../wasm/index.mjs');
  const models = await listModels();
  for (const [name, file] of [['panda', 'panda.xml'], ['scara', 'scara.urdf'], ['shadow_hand', 'shadow_hand.xml'], ['unitree_go2', 'unitree_go2/scene.xml']]) {
    assert.ok(models.some((m) => m.name === name), `${name} is in the manifest`);
    // As the build imports it: scripts/import.mjs, which gives the importer the files beside the model.
    const text = execFileSync(process.execPath, [`${root}scripts/import.mjs`, `${root}models/robots/${file}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    assert.equal(await loadModelText(name), text, `${name}.mech is the importer's output (rebuild after changing it)`);
    const sim = await openModel(name);
    assert.equal(sim.backend, 'generated');
    sim.dispose();
  }
});

test('the shipped Go2: scene.xml includes go2.xml, its floor and steps are statics, the missing base_4.obj is named', async () => {
  const dir = `${root}models/robots/unitree_go2/`;
  const files = { 'go2.xml': readFileSync(`${dir}go2.xml`, 'utf8') };
  for (const f of readdirSync(`${dir}assets`)) files[`assets/${f}`] = new Uint8Array(readFileSync(`${dir}assets/${f}`));
  const { text, warnings } = await importModel(readFileSync(`${dir}scene.xml`, 'utf8'), { name: 'scene.xml', files });
  assert.ok(warnings.includes("mesh 'base_4': the file 'assets/base_4.obj' is not among the files given: its geoms are not drawn"), warnings.join('\n'));
  assert.equal((text.match(/^static plane /gm) ?? []).length, 1);
  assert.equal((text.match(/^static box /gm) ?? []).length, 8);
  assert.equal((text.match(/^mesh /gm) ?? []).length, 15, 'every mesh but base_4');
  assert.equal((text.match(/^ {2}limit /gm) ?? []).length, 12);
  assert.match(text, /^contact impratio 100$/m);
  const sim = await openModel({ text, name: 'unitree_go2' });
  const { meshes, shapes } = sim.describe();
  assert.equal(meshes.length, 15);
  assert.equal(shapes.filter((x) => !x.visual).length, 3 + 4 * 5, 'the base\'s three colliders, and a hip, a thigh, two calf and a foot collider per leg');
  sim.dispose();
});
