// Actuators, keyframes and implicit damping through the JS API (docs/mech-format.md, "Actuators"), and runs
// against mujoco-js: the Panda holding its `home` keyframe, the implicit step's convergence, the Shadow Hand
// at the page's 1 ms step.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { importModel, openModel } from '../../wasm/index.mjs';
import { root } from './helpers.mjs';
import { actuatorLayout, forMujoco, jointLayout, loadMujoco, mujocoModel } from './mujoco-side.mjs';

const pandaXml = readFileSync(`${root}models/robots/panda.xml`, 'utf8');

test('sim.ctrl is a live view of act; describe() lists the actuators; keyframes reset the state and ctrl', async () => {
  for (const backend of ['generated', 'runtime']) {
    const sim = await openModel('servoarm', { backend });
    const { actuators, keyframes, initialKeyframe, integrator } = sim.describe();
    assert.deepEqual(actuators.map((a) => a.name), ['turn', 'shoulder', 'elbow', 'roll', 'slide']);
    assert.deepEqual(actuators.map((a) => a.kind), ['general', 'position', 'position', 'velocity', 'motor']);
    assert.deepEqual(actuators[1].bias, [0, -200, -20]);
    assert.deepEqual(actuators[1].forcerange, [-60, 60]);
    assert.equal(integrator, 'implicit');
    assert.equal(sim.nu, 5);
    assert.equal(sim.ctrl.length, 5);
    assert.equal(sim.ctrl.buffer, sim.act.buffer);
    assert.equal(sim.ctrl.byteOffset, sim.act.byteOffset + 8 * (sim.nact - sim.nu));
    assert.equal(keyframes[initialKeyframe].name, 'reach');
    assert.equal(sim.ctrl[1], -0.5236, 'the initial keyframe sets ctrl');
    assert.ok(Math.abs(sim.q[1] + Math.PI / 6) < 1e-12, 'and q');
    sim.ctrl[4] = 0.25;
    assert.equal(sim.act[sim.nact - 1], 0.25, 'a write to ctrl is a write to act');
    const names = sim.keyframes().map((k) => k.name);
    assert.deepEqual(names, ['reach', 'rest']);
    sim.step(0.001, 10);
    sim.resetToKeyframe('rest');
    assert.equal(sim.q[1], 0);
    assert.equal(sim.ctrl[1], 0);
    sim.resetToKeyframe(0);
    assert.equal(sim.ctrl[1], -0.5236);
    assert.throws(() => sim.resetToKeyframe('home'), /no keyframe "home"; the model has 'reach', 'rest'/);
    assert.throws(() => sim.resetToKeyframe(2), /no keyframe 2/);
    sim.ctrl[2] = NaN;
    assert.throws(() => sim.step(0.001, 1), /ctrl\[2\] \(actuator 'elbow'\) is NaN/);
    assert.throws(() => sim.forward(), /ctrl\[2\] \(actuator 'elbow'\) is NaN/);
    sim.dispose();
  }
});

/**
 * The Panda on our side (generated) and MuJoCo's, both at `home`, stepped together; joint limits and the fingers'
 * equality on both sides (the import writes them: a finger rests on its limit), MuJoCo's contacts off (ours touch
 * nothing at home).
 */
async function pandaPair() {
  const mj = await loadMujoco();
  const model = await mujocoModel(forMujoco(pandaXml).replace(' limit="disable"', '').replace(' equality="disable"', ''), 'xml');
  const sim = await openModel('panda');
  const actuators = actuatorLayout(mj, model, sim);
  const layout = jointLayout(mj, model, sim);
  const data = new mj.MjData(model);
  mj.mj_resetDataKeyframe(model, data, 0);
  sim.resetToKeyframe('home');
  return { mj, model, data, sim, actuators, layout };
}

/** The largest |q − qpos| over the 1-DOF joints. */
function jointGap(sim, data, layout) {
  let gap = 0;
  for (const j of layout) gap = Math.max(gap, Math.abs(sim.q[j.q] - data.qpos[j.mq]));
  return gap;
}

test('the Panda opened at home holds for 10 s, within 1e-3 rad of MuJoCo running the same file', async () => {
  const { mj, model, data, sim, actuators, layout } = await pandaPair();
  assert.equal(actuators.length, 8, 'the seven joint servos and the gripper\'s, on its tendon');
  for (const a of actuators) assert.equal(data.ctrl[a.mu], sim.ctrl[a.ours], 'the keyframe ctrl on both sides');
  const dt = model.opt.timestep;
  let gap = 0;
  let drift = 0;
  const home = Float64Array.from(sim.q);
  for (let k = 0; k < Math.round(10 / dt); k++) {
    sim.step(dt, 1);
    mj.mj_step(model, data);
    gap = Math.max(gap, jointGap(sim, data, layout));
  }
  for (let i = 0; i < 7; i++) drift = Math.max(drift, Math.abs(sim.q[i] - home[i]));
  console.log(`panda at home, 10 s at dt ${dt}: max |q - MuJoCo qpos| = ${gap.toExponential(2)} rad, arm drift ${drift.toExponential(2)} rad`);
  assert.ok(gap <= 1e-3, `gap ${gap}`);
  assert.ok(drift <= 0.05, `the servos hold the arm: drift ${drift}`);
  data.delete();
  model.delete();
  sim.dispose();
});

test('implicit damping: the step converges at first order to MuJoCo\'s implicitfast run over 1 s', async () => {
  // A step response from home (joint 4's servo target moved by 0.01 rad, inside every force range), 1 s.  The
  // reference is MuJoCo with implicitfast at a step 32 times finer: our error at dt and dt/2 halves; at the
  // same dt MuJoCo's implicitfast and our implicit step are the same scheme.
  const run = async (dt, side) => {
    const p = await pandaPair();
    p.model.opt.integrator = p.mj.mjtIntegrator.mjINT_IMPLICITFAST.value;
    p.model.opt.timestep = dt;
    p.sim.ctrl[3] += 0.01;
    p.data.ctrl[p.actuators[3].mu] += 0.01;
    // The fingers (MuJoCo's joints 8 and 9) start mid-range, off the limit home puts them on: what converges is
    // the damping's implicit step, with no constraint active.
    for (const j of p.layout.slice(7)) {
      p.sim.q[j.q] = 0.02;
      p.data.qpos[j.mq] = 0.02;
    }
    for (let k = 0; k < Math.round(1 / dt); k++) {
      if (side === 'ours') p.sim.step(dt, 1);
      else p.mj.mj_step(p.model, p.data);
    }
    const q = p.layout.map((j) => (side === 'ours' ? p.sim.q[j.q] : p.data.qpos[j.mq]));
    p.data.delete();
    p.model.delete();
    p.sim.dispose();
    return q;
  };
  const gap = (a, b) => Math.max(...a.map((x, i) => Math.abs(x - b[i])));
  const dt = 0.004;
  const ref = await run(dt / 32, 'mujoco');
  const e1 = gap(await run(dt, 'ours'), ref);
  const e2 = gap(await run(dt / 2, 'ours'), ref);
  // The arm's seven joints: the same scheme as MuJoCo's implicitfast.  The fingers differ by design: the gripper's
  // velocity gain acts on their tendon, whose coupling term MuJoCo takes implicitly and this step explicitly
  // (docs/mech-format.md, "Actuators"), and the fingers' equality is solved with H + dt D here, with H in MuJoCo.
  const ours = await run(dt, 'ours');
  const theirs = await run(dt, 'mujoco');
  const same = gap(ours.slice(0, 7), theirs.slice(0, 7));
  const fingers = gap(ours.slice(7), theirs.slice(7));
  console.log(`implicit: |q(dt) - q_ref| ${e1.toExponential(3)}, |q(dt/2) - q_ref| ${e2.toExponential(3)}, ratio ${(e1 / e2).toFixed(3)}; against MuJoCo implicitfast at the same dt: arm ${same.toExponential(2)} rad, fingers ${fingers.toExponential(2)} m`);
  assert.ok(e1 / e2 > 1.7 && e1 / e2 < 2.3, `ratio ${e1 / e2}`);
  assert.ok(same <= 1e-3 * e1, `the same scheme as MuJoCo's implicitfast: ${same}`);
});

test('the Shadow Hand runs 10 s at the page\'s 1 ms step with implicit damping, finite', async () => {
  const sim = await openModel('shadow_hand');
  assert.equal(sim.describe().integrator, 'implicit');
  assert.equal(sim.nu, 20, 'its 16 joint servos and the 4 on the fingers\' tendons');
  for (let k = 0; k < 100; k++) sim.step(0.001, 100);
  assert.ok(sim.q.every(Number.isFinite) && sim.qd.every(Number.isFinite));
  console.log(`shadow_hand: 10 s at 1 ms, max |qd| = ${Math.max(...sim.qd.map(Math.abs)).toExponential(2)} rad/s`);
  sim.dispose();
});

test('the importer writes actuators, keyframes and the integrator; URDF efforts become motor force ranges', async () => {
  const { text } = await importModel(pandaXml, { format: 'mjcf', name: 'panda.xml' });
  assert.match(text, /^integrator implicit$/m);
  assert.match(text, /^actuator actuator4\n {2}joint link4\n {2}kind general\n {2}gain 3500\n {2}bias 0 -3500 -350\n {2}ctrlrange -3\.0718 -0\.0698\n {2}forcerange -87 87\nend$/m);
  assert.match(text, /^keyframe home\n(.*\n)* {2}ctrl actuator4 -1\.57079\n/m);
  const urdf = (await importModel(readFileSync(`${root}models/robots/scara.urdf`, 'utf8'), { format: 'urdf', name: 'scara.urdf' })).text;
  assert.match(urdf, /^actuator shoulder_motor\n {2}joint \w+\n {2}kind motor\n {2}forcerange -50 50\nend$/m);
});
