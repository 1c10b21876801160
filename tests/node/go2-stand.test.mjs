// The Unitree Go2 (models/robots/unitree_go2/scene.xml: its floor a `static plane`) holding its standing pose with
// a PD law on its twelve motors for 10 s, on this project's engines and on mujoco-js (the same scene, go2.xml and
// shipped meshes in its file system), at MuJoCo's timestep from the file and the same law:
// ctrl = kp (q* − q) − kd qd, clamped to each motor's ctrlrange, q* the keyframe 'home'.  Gates: the base height
// within 1 cm of MuJoCo's at the end, the floor's normal forces summing to the weight within 1 %, the feet not
// sliding (≤ 1 mm/s over the last second).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';

import { importModel, listModels, openModel } from '../../wasm/index.mjs';
import { root } from './helpers.mjs';
import { loadMujoco, mujocoFromFiles } from './mujoco-side.mjs';

const dir = `${root}models/robots/unitree_go2/`;
const KP = 60; // N m / rad
const KD = 3; // N m s / rad
const DT = 0.002; // MuJoCo's default timestep: the file sets none
const SECONDS = 10;
const STEPS = Math.round(SECONDS / DT);
const FOOT = [-0.002, 0, -0.213]; // the foot sphere's centre in its calf's frame (go2.xml, class "foot")

function files() {
  const out = { 'go2.xml': readFileSync(`${dir}go2.xml`, 'utf8') };
  for (const f of readdirSync(`${dir}assets`)) out[`assets/${f}`] = new Uint8Array(readFileSync(`${dir}assets/${f}`));
  return out;
}

/** A point given in a body's frame, in the world, from a pose [x y z qw qx qy qz]. */
function pointOf(pose, p) {
  const [x, y, z, w, i, j, k] = pose;
  const t = [2 * (j * p[2] - k * p[1]), 2 * (k * p[0] - i * p[2]), 2 * (i * p[1] - j * p[0])];
  return [
    x + p[0] + w * t[0] + (j * t[2] - k * t[1]),
    y + p[1] + w * t[1] + (k * t[0] - i * t[2]),
    z + p[2] + w * t[2] + (i * t[1] - j * t[0]),
  ];
}

/** The run on our side: the base height each 0.1 s, the last second's foot speeds and the floor's forces at the end. */
async function ours(backend) {
  const scene = readFileSync(`${dir}scene.xml`, 'utf8');
  const { text } = await importModel(scene, { name: 'scene.xml', files: files() });
  const sim = backend === 'generated' ? await openModel('unitree_go2') : await openModel({ text, name: 'unitree_go2' }, { backend });
  const { bodies, actuators } = sim.describe();
  sim.resetToKeyframe('home');
  const base = bodies.find((b) => b.name === 'base_link');
  sim.q.set([1, 0, 0, 0, 0, 0, 0.27], base.qidx); // the keyframe's free joint (the import keeps a free joint's q0)
  const target = actuators.map((a) => sim.q[bodies[a.joint].qidx]);
  const calves = bodies.map((b, i) => (/_calf$/.test(b.name) ? i : -1)).filter((i) => i >= 0);
  const mass = bodies.reduce((s, b) => s + b.mass, 0);
  const heights = [];
  let slide = 0;
  let last = null;
  for (let n = 1; n <= STEPS; n++) {
    actuators.forEach((a, i) => {
      const b = bodies[a.joint];
      const u = KP * (target[i] - sim.q[b.qidx]) - KD * sim.qd[b.vidx];
      sim.ctrl[i] = Math.min(a.ctrlrange[1], Math.max(a.ctrlrange[0], u));
    });
    sim.step(DT, 1);
    if (n % 50 === 0) heights.push(sim.q[base.qidx + 6]);
    if (n > STEPS - 1 / DT - 1) {
      const poses = sim.poses();
      const feet = calves.map((c) => pointOf(poses.subarray(7 * c, 7 * c + 7), FOOT));
      if (last) for (let f = 0; f < feet.length; f++) slide = Math.max(slide, Math.hypot(feet[f][0] - last[f][0], feet[f][1] - last[f][1]) / DT);
      last = feet;
    }
  }
  const c = sim.contacts();
  const forces = sim.contactForces();
  let normal = 0;
  let floor = 0;
  for (let i = 0; i < c.length / 6; i++) {
    if (Math.abs(c[6 * i + 2]) < 0.01 && Math.abs(c[6 * i + 5]) > 0.999) { // a point on the floor z = 0, normal ±z
      normal += forces[4 * i];
      floor++;
    }
  }
  const stats = sim.solverStats();
  sim.dispose();
  return { heights, slide, normal, floor, weight: mass * 9.81, stats };
}

/** The same run in mujoco-js: the base height each 0.1 s. */
async function mujoco() {
  const mj = await loadMujoco();
  const all = files();
  // base_4.obj is missing from the robot's data (the importer's warning path); MuJoCo refuses a missing file.
  all['go2.xml'] = all['go2.xml'].replace(/<mesh file="base_4.obj" \/>/, '').replace(/<geom mesh="base_4"[^>]*\/>/, '');
  all['scene.xml'] = readFileSync(`${dir}scene.xml`, 'utf8');
  const model = await mujocoFromFiles('scene.xml', all);
  assert.equal(model.opt.timestep, DT);
  const data = new mj.MjData(model);
  mj.mj_resetDataKeyframe(model, data, 0);
  const qadr = [];
  const vadr = [];
  for (let i = 0; i < model.nu; i++) {
    const j = model.actuator_trnid[2 * i];
    qadr.push(model.jnt_qposadr[j]);
    vadr.push(model.jnt_dofadr[j]);
  }
  const target = qadr.map((a) => data.qpos[a]);
  const heights = [];
  for (let n = 1; n <= STEPS; n++) {
    for (let i = 0; i < model.nu; i++) {
      const u = KP * (target[i] - data.qpos[qadr[i]]) - KD * data.qvel[vadr[i]];
      data.ctrl[i] = Math.min(model.actuator_ctrlrange[2 * i + 1], Math.max(model.actuator_ctrlrange[2 * i], u));
    }
    mj.mj_step(model, data);
    if (n % 50 === 0) heights.push(data.qpos[2]);
  }
  data.delete();
  model.delete();
  return heights;
}

test('the Go2 stands 10 s on its four feet under a PD law, as in MuJoCo', async () => {
  const reference = await mujoco();
  const backends = ['runtime'];
  if ((await listModels()).some((m) => m.name === 'unitree_go2')) backends.push('generated');
  for (const backend of backends) {
    const run = await ours(backend);
    const diffs = run.heights.map((h, i) => h - reference[i]);
    const worst = Math.max(...diffs.map(Math.abs));
    const end = diffs[diffs.length - 1];
    console.log(`go2 ${backend}: base height at 10 s ${run.heights.at(-1).toFixed(5)} m, mujoco-js ${reference.at(-1).toFixed(5)} m (difference ${(end * 1000).toFixed(2)} mm; largest over the run ${(worst * 1000).toFixed(2)} mm)`);
    console.log(`go2 ${backend}: height each second, ours vs mujoco-js: ${run.heights.filter((_, i) => i % 10 === 9).map((h, i) => `${h.toFixed(4)}/${reference[10 * i + 9].toFixed(4)}`).join(' ')}`);
    console.log(`go2 ${backend}: floor normal forces ${run.normal.toFixed(3)} N at ${run.floor} contacts, weight ${run.weight.toFixed(3)} N (${((run.normal / run.weight - 1) * 100).toFixed(3)} %); fastest foot over the last second ${(run.slide * 1000).toFixed(4)} mm/s; solve ${run.stats.rows} rows, ${run.stats.sweeps} sweeps, residual ${run.stats.residual.toExponential(1)}`);
    assert.ok(Math.abs(end) <= 0.01, `${backend}: base height ${run.heights.at(-1)} vs MuJoCo's ${reference.at(-1)}`);
    assert.equal(run.floor, 4, `${backend}: four feet on the floor`);
    assert.ok(Math.abs(run.normal / run.weight - 1) <= 0.01, `${backend}: normal forces ${run.normal} vs weight ${run.weight}`);
    assert.ok(run.slide <= 1e-3, `${backend}: a foot slides at ${run.slide} m/s`);
  }
});
