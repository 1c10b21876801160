// Imported joint ranges hold on the Featherstone engines (docs/import.md): the Panda (MJCF, its servos replaced by
// torque motors on the same joints) and the SCARA (URDF, its effort motors), without gravity, each joint in turn
// driven from 10° (1 cm) inside one end of its range by a PD law towards a target 20° (2 cm) past it (the others
// held mid-range), swing into their limits and stop there: no joint ever passes a limit by more than 0.5° (5 mm on a slide), and each ends within
// that of the limit it is pushed against.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { importModel, openModel } from '../../wasm/index.mjs';
import { root } from './helpers.mjs';

const DT = 0.001;
const SECONDS = 3;
const PAST = { revolute: (20 * Math.PI) / 180, prismatic: 0.02 };
const OMEGA = 4; // rad/s
const SWING = { revolute: (10 * Math.PI) / 180, prismatic: 0.01 };
const TOLERANCE = { revolute: (0.5 * Math.PI) / 180, prismatic: 0.005 };

/** The Panda with a torque motor on each joint in place of its position servos and tendon actuator. */
function pandaWithMotors() {
  const xml = readFileSync(`${root}models/robots/panda.xml`, 'utf8');
  const joints = [...xml.matchAll(/<joint name="([^"]+)"/g)].map((m) => m[1]);
  const motors = joints.map((j) => `<motor name="${j}_motor" joint="${j}" ctrlrange="-80 80"/>`).join('');
  return xml.replace(/<actuator>[\s\S]*?<\/actuator>/, `<actuator>${motors}</actuator>`).replace(/<keyframe>[\s\S]*?<\/keyframe>/, '');
}

/** Each body's `limit` in the .mech text (SI: radians on a revolute joint), by body name. */
function limitsOf(text) {
  const out = new Map();
  for (const m of text.matchAll(/^body (\w+)\n((?:(?!end\n)[^\n]*\n)*)end$/gm)) {
    const lim = /^ {2}limit (\S+) (\S+)/m.exec(m[2]);
    if (!lim) continue;
    const unit = /^ {2}joint revolute/m.test(m[2]) ? Math.PI / 180 : 1;
    out.set(m[1], [Number(lim[1]) * unit, Number(lim[2]) * unit]);
  }
  return out;
}

/**
 * Drive each limited joint in turn towards `side` ('upper' or 'lower') of its range for SECONDS, the others held
 * mid-range; the worst excursion past any limit and the largest distance of a driven joint from its limit at the
 * end, in units of TOLERANCE.
 */
async function drive(text, name, backend, side) {
  const sim = await openModel({ text, name }, { backend });
  const { bodies, actuators } = sim.describe();
  const limits = limitsOf(text);
  const limited = actuators.map((a) => ({ act: actuators.indexOf(a), a, b: { ...bodies[a.joint], limit: limits.get(bodies[a.joint].name) } })).filter(({ b }) => b.limit);
  assert.ok(limited.length >= 3, `${name}: limited joints with motors (${limited.length})`);
  const mid = (b) => (b.limit[0] + b.limit[1]) / 2;
  // The driven joint starts a swing (10°, 1 cm) inside the limit it is pushed against, or mid-range when closer.
  const start = (b) => (side === 'upper' ? Math.max(mid(b), b.limit[1] - SWING[b.joint]) : Math.min(mid(b), b.limit[0] + SWING[b.joint]));
  const beyond = (b, q) => Math.max(q - b.limit[1], b.limit[0] - q) / TOLERANCE[b.joint];
  let past = 0;
  let away = 0;
  for (const driven of limited) {
    sim.reset();
    sim.gravity.set([0, 0, 0]);
    const target = limited.map((j) => (j === driven ? (side === 'upper' ? j.b.limit[1] + PAST[j.b.joint] : j.b.limit[0] - PAST[j.b.joint]) : mid(j.b)));
    for (const j of limited) sim.q[j.b.qidx] = j === driven ? start(j.b) : mid(j.b);
    // Gains from each joint's effective inertia 1 / (H⁻¹)_jj at the start (two forward() calls): a critically
    // damped PD of natural frequency OMEGA, slow enough that a joint reaches its limit under 1 rad/s (1 m/s).
    const gains = limited.map(({ b }) => {
      sim.tau.fill(0);
      const free = sim.forward()[b.vidx];
      sim.tau[b.vidx] = 1;
      const inertia = 1 / (sim.forward()[b.vidx] - free);
      sim.tau.fill(0);
      return { kp: inertia * OMEGA * OMEGA, kd: 2 * inertia * OMEGA };
    });
    for (let n = 0; n < SECONDS / DT; n++) {
      limited.forEach(({ act, a, b }, k) => {
        const u = gains[k].kp * (target[k] - sim.q[b.qidx]) - gains[k].kd * sim.qd[b.vidx];
        sim.ctrl[act] = Math.min(a.ctrlrange?.[1] ?? Infinity, Math.max(a.ctrlrange?.[0] ?? -Infinity, u));
      });
      sim.step(DT, 1);
      for (const { b } of limited) past = Math.max(past, beyond(b, sim.q[b.qidx]));
    }
    away = Math.max(away, Math.abs(sim.q[driven.b.qidx] - driven.b.limit[side === 'upper' ? 1 : 0]) / TOLERANCE[driven.b.joint]);
  }
  sim.dispose();
  return { past, away, joints: limited.length };
}

for (const [name, source] of [
  ['panda', pandaWithMotors],
  ['scara', () => readFileSync(`${root}models/robots/scara.urdf`, 'utf8')],
]) {
  test(`the imported ${name}'s joints swing into their limits and stop there (runtime and jit engines)`, async () => {
    const { text } = await importModel(source(), { name });
    for (const backend of ['runtime', 'jit']) {
      for (const side of ['upper', 'lower']) {
        const r = await drive(text, name, backend, side);
        console.log(`${name} ${backend}, ${r.joints} joints pushed past their ${side} limits: worst excursion ${r.past.toFixed(3)}, farthest from the limit at the end ${r.away.toFixed(3)} (in units of 0.5° / 5 mm)`);
        assert.ok(r.past <= 1, `${name} ${backend} ${side}: a joint passed its limit by ${r.past} × the tolerance`);
        assert.ok(r.away <= 1, `${name} ${backend} ${side}: a joint ended ${r.away} × the tolerance from its limit`);
      }
    }
  });
}
