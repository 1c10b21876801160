// m113.test.mjs — the M113 on its generated module, driven: the band runs at the speed its sprockets set.
//
// A sprocket of N teeth moves the band one shoe per tooth, and on a straight run consecutive pins are one
// link (the chord, perimeter / N: 0.15366 m) apart, so over whole turns the band's speed relative to the hull
// is ω·N·link/(2π) (10 × 0.15366 m / 2π = 0.24455 m per radian, against the sprocket's pitch radius 0.245,
// 0.18 % more); within one tooth it swings by the chordal effect (up to 1 − cos(π/N) = 4.9 %), so the band
// speed is read as a mean over a window of many teeth. The band speed is read from the shoes themselves:
// the hull-frame x velocity of the shoes on the bottom run, between the first and last road wheel. The
// ground's friction law (regularized by default) lets the patch creep, so the hull's speed over the ground
// is printed beside it but not held to ω·R.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { openModel } from './helpers.mjs';

const TAU = 3000;        // N·m on each sprocket
const SETTLE = 0.5;      // s from the design pose
const SPIN_UP = 1.0;     // s driven before the window
const WINDOW = 1.0;      // s of readings
const EVERY = 10;        // steps between readings

/** v in the frame of a body with world quaternion (w, x, y, z): R^T v. */
function toBody(qw, qx, qy, qz, v) {
  const [x, y, z] = v;
  // R^T v = rotation by the conjugate quaternion.
  const w = qw, a = -qx, b = -qy, c = -qz;
  const tx = 2 * (b * z - c * y), ty = 2 * (c * x - a * z), tz = 2 * (a * y - b * x);
  return [x + w * tx + (b * tz - c * ty), y + w * ty + (c * tx - a * tz), z + w * tz + (a * ty - b * tx)];
}

test('m113: driven, the band runs at the sprockets\' ω·N·link/2π relative to the hull (within 2 %)', async () => {
  const sim = await openModel('m113');
  assert.equal(sim.backend, 'generated');
  const model = sim.describe();
  const dt = model.contactDt;
  const hull = model.bodies.findIndex((b) => b.name === 'hull');
  const drives = model.tracks.map((t) => t.rollers.find((r) => r.drive));
  const sprockets = drives.map((r) => model.bodies[r.body]);
  const wheelX = (t) => t.rollers.filter((r) => !r.end).map((r) => sim.poses()[7 * r.body]);
  sim.step(dt, Math.round(SETTLE / dt));
  for (const s of sprockets) sim.tau[s.vidx] = TAU;
  sim.step(dt, Math.round(SPIN_UP / dt));

  const rel = (i) => {
    const P = sim.poses(), h = 7 * hull, b = 7 * i;
    return toBody(P[h + 3], P[h + 4], P[h + 5], P[h + 6], [P[b] - P[h], P[b + 1] - P[h + 1], P[b + 2] - P[h + 2]]);
  };
  // The bottom run of each band in the hull frame: between its outer road wheels, below their axles.
  const runs = model.tracks.map((t) => {
    const xs = wheelX(t).map((x, k) => rel(t.rollers.filter((r) => !r.end)[k].body)[0]);
    const zs = t.rollers.filter((r) => !r.end).map((r) => rel(r.body)[2]);
    return { t, xmin: Math.min(...xs), xmax: Math.max(...xs), zmax: Math.min(...zs) - 0.2 };
  });
  const q0 = sprockets.map((s) => sim.q[s.qidx]), x0 = sim.poses()[7 * hull];
  let prev = runs.map(({ t }) => Array.from({ length: t.nshoe }, (_, k) => rel(t.shoe0 + k)));
  const sum = runs.map(() => ({ v: 0, n: 0 }));
  const steps = Math.round(WINDOW / dt / EVERY) * EVERY;
  for (let s = 0; s < steps; s += EVERY) {
    sim.step(dt, EVERY);
    runs.forEach(({ t, xmin, xmax, zmax }, j) => {
      const now = Array.from({ length: t.nshoe }, (_, k) => rel(t.shoe0 + k));
      for (let k = 0; k < t.nshoe; k++) {
        const [x, , z] = now[k];
        if (x > xmin && x < xmax && z < zmax) {
          sum[j].v += -(x - prev[j][k][0]) / (EVERY * dt);
          sum[j].n++;
        }
      }
      prev[j] = now;
    });
  }
  const T = steps * dt;
  const hullSpeed = (sim.poses()[7 * hull] - x0) / T;
  sprockets.forEach((s, j) => {
    const omega = (sim.q[s.qidx] - q0[j]) / T;
    const { t } = runs[j];
    const expected = omega * drives[j].teeth * t.link / (2 * Math.PI);
    const band = sum[j].v / sum[j].n;
    console.log(`m113 ${s.name}: ω ${omega.toFixed(4)} rad/s, band speed rel. hull ${band.toFixed(5)} m/s ` +
      `(${sum[j].n} readings), ω·N·link/2π ${expected.toFixed(5)} m/s (${(100 * (band / expected - 1)).toFixed(3)} %), ` +
      `ω·R ${(omega * drives[j].radius).toFixed(5)} m/s; hull over the ground ${hullSpeed.toFixed(5)} m/s`);
    assert.ok(omega > 0.5, `the sprocket turns (ω ${omega})`);
    assert.ok(Math.abs(band / expected - 1) <= 0.02, `band speed ${band} against ${expected}`);
  });
  sim.dispose();
});
