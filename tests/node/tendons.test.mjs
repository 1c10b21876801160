// Fixed tendons, actuators on tendons and equality constraints through the JS API (docs/mech-format.md,
// "Tendons", "Equality constraints"): the jit's generated code against the runtime engine on a model with sprung
// and damped tendons and tendon actuators; describe(); XPBD runs the tendons' forces;
// a stepped joint equality holds its coupling. MuJoCo's side is tests/mujoco (libmujoco) and import.test.mjs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { openModel } from '../../wasm/index.mjs';
import { root, scaledError } from './helpers.mjs';

const fixture = (name) => ({ text: readFileSync(`${root}tests/fixtures/${name}.mech`, 'utf8'), name });
const STATES = 200;

/** Deterministic uniform numbers in [-1, 1) (Park–Miller). */
function prng(state) {
  return () => ((state = (state * 16807) % 2147483647) / 2147483647) * 2 - 1;
}

test('tendon_arm: the jit (generated code) and the runtime engine agree with tendons and tendon actuators', async () => {
  const jit = await openModel(fixture('tendon_arm'), { backend: 'jit' });
  const run = await openModel(fixture('tendon_arm'), { backend: 'runtime' });
  const random = prng(4242);
  let worst = 0;
  for (let s = 0; s < STATES; s++) {
    for (const sim of [jit, run]) sim.q.fill(0);
    const q = Array.from({ length: jit.nq }, () => 2 * random());
    const qd = Array.from({ length: jit.nv }, () => 3 * random());
    const tau = Array.from({ length: jit.nv }, () => random());
    const ctrl = Array.from({ length: jit.nu }, () => 3 * random());
    for (const sim of [jit, run]) {
      sim.q.set(q);
      sim.qd.set(qd);
      sim.tau.set(tau);
      sim.ctrl.set(ctrl);
    }
    worst = Math.max(worst, scaledError(jit.forward(), run.forward()));
  }
  console.log(`tendon_arm: max scaled |qdd_jit - qdd_runtime| over ${STATES} states = ${worst.toExponential(2)}`);
  assert.ok(worst <= 1e-12, `scaled error ${worst}`);
  const { tendons, actuators, bodies } = run.describe();
  assert.deepEqual(tendons.map((t) => t.name), ['bend', 'reach']);
  assert.deepEqual(tendons[0].joints.map((j) => bodies[j].name), ['upper', 'fore', 'turret']);
  assert.deepEqual(tendons[0].coef, [1, -0.5, 0.25]);
  assert.equal(tendons[0].springlength, 0.3);
  assert.equal(tendons[1].range, null);
  assert.deepEqual(actuators.map((a) => [a.joint, a.tendon]), [[-1, 0], [-1, 1], [0, -1]]);
  assert.equal(actuators[1].unit, 'm', 'a tendon over a slide measures metres');
  jit.dispose();
  run.dispose();
});

test('tendon_arm: the tendon force is the generalized force coef_j f on its joints (runtime vs a hand computation)', async () => {
  const sim = await openModel(fixture('tendon_arm'), { backend: 'runtime' });
  const zero = await openModel({ text: fixture('tendon_arm').text.replace(/^tendon bend[\s\S]*?^end\n/m, 'tendon bend\n  joint upper 1\n  joint fore -0.5\n  joint turret 0.25\nend\n'), name: 'tendon_arm' }, { backend: 'runtime' });
  const q = [0.3, -0.2, 0.5, 0.04];
  const qd = [0.1, 0.7, -0.4, 0.2];
  for (const s of [sim, zero]) {
    s.q.set(q);
    s.qd.set(qd);
    s.ctrl.fill(0);
  }
  // Only the bend tendon's spring and damper differ: tau_e_j = coef_j (-3 (L - 0.3) - 0.4 Ld).
  const L = q[1] - 0.5 * q[2] + 0.25 * q[0];
  const Ld = qd[1] - 0.5 * qd[2] + 0.25 * qd[0];
  const f = -3 * (L - 0.3) - 0.4 * Ld;
  const tau = [0.25 * f, f, -0.5 * f, 0];
  zero.tau.set(tau);
  const err = scaledError(sim.forward(), zero.forward());
  assert.ok(err <= 1e-13, `the spring-damper's generalized force: ${err}`);
  sim.dispose();
  zero.dispose();
});

test('XPBD runs a model with tendons and their actuators (and opens one with equalities, which it does not hold and says so in its warnings)', async () => {
  const xpbd = await openModel(fixture('tendon_arm'), { engine: 'xpbd' });
  xpbd.ctrl.set([0.5, 0.2, 1]);
  xpbd.step(0.001, 200);
  assert.ok(Array.from(xpbd.q).every(Number.isFinite));
  xpbd.dispose();
  const eq = await openModel(fixture('equality_joint'), { engine: 'xpbd' });
  assert.ok(eq.warnings.length > 0 && eq.warnings.every((w) => /^equality '.+' is not held on engine 'xpbd'/.test(w)), eq.warnings.join('\n'));
  const runtime = await openModel(fixture('equality_joint'), { backend: 'runtime' });
  assert.deepEqual(runtime.warnings, []);
  runtime.dispose();
  eq.step(0.001, 10);
  assert.ok(Array.from(eq.q).every(Number.isFinite));
  eq.dispose();
});

test('a stepped joint equality holds its coupling as a soft constraint; forward() is unconstrained', async () => {
  const sim = await openModel(fixture('equality_joint'), { backend: 'runtime' });
  const { equalities } = sim.describe();
  assert.deepEqual(equalities.map((e) => [e.name, e.type]), [['couple', 'joint'], ['hold', 'joint']]);
  assert.deepEqual(equalities[1].solref, [0.05, 0.8]);
  const [c0, c1, c2, c3, c4] = equalities[0].polycoef;
  const violation = () => {
    const x = sim.q[0];
    return sim.q[1] - (c0 + c1 * x + c2 * x * x + c3 * x ** 3 + c4 * x ** 4);
  };
  const start = Math.abs(violation());
  sim.step(0.001, 2000);
  assert.ok(start > 0.05, `starts apart: ${start}`);
  assert.ok(Math.abs(violation()) < 0.05 * start, `pulled together: ${violation()}`);
  assert.ok(Math.abs(sim.q[2] - 0.02) < 5e-3, `the slide held near 0.02: ${sim.q[2]}`);
  sim.dispose();
});

test('a limited tendon is held within its range by the constraint solve, as a joint limit is', async () => {
  const text = `gravity 0 0 -9.81
body a
  parent base
  joint revolute y
  mass 1
  com 0.3 0 0
  inertia 0.01 0.03 0.03
end
body b
  parent a
  joint revolute y
  pos 0.6 0 0
  mass 1
  com 0.3 0 0
  inertia 0.01 0.03 0.03
end
tendon sum
  joint a 1
  joint b 0.5
  range -0.2 0.2
end
`;
  const sim = await openModel({ text, name: 'ranged' }, { backend: 'runtime' });
  const length = () => sim.q[0] + 0.5 * sim.q[1];
  let extreme = 0;
  for (let k = 0; k < 2000; k++) { // falling from horizontal: gravity takes the length far past ±0.2
    sim.step(0.001, 1);
    extreme = Math.max(extreme, Math.abs(length()));
  }
  assert.ok(extreme < 0.25, `the range holds the fall: largest |length| ${extreme}`);
  assert.ok(Math.abs(Math.abs(length()) - 0.2) < 0.01, `and it rests at an end of the range, softly: ${length()}`);
  sim.dispose();
});
