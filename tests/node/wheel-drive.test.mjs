// wheel-drive.test.mjs — driving the HMMWVs on their tires through the API (wasm/wheel_drive.mjs): the wheels,
// the powertrain to full speed from rest, W then W + A (forward, then a left turn, nothing collapsing), and a
// steady circle's understeer gradient, and the terrain scenes: the 10° ramp climbed and held by the brakes, the bumps.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { HMMWV_POWERTRAIN, WheelDriver, engineTorque, openModel, tireWheels } from '../../wasm/index.mjs';

const SETTLE = 1;      // s from the design pose before driving

/** The body's yaw (rad, about world z) from its world quaternion in poses(). */
function yaw(P, body) {
  const [w, x, y, z] = P.subarray(7 * body + 3, 7 * body + 7);
  return Math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
}

/** The heading (rad, about world z) of a wheel's spin axis y from world y: its steer angle in the world. */
function wheelHeading(P, body) {
  const [w, x, y, z] = P.subarray(7 * body + 3, 7 * body + 7);
  return Math.atan2(-2 * (x * y - w * z), 1 - 2 * (x * x + z * z));
}

/** An angle difference wrapped into (−π, π]. */
const wrap = (a) => Math.atan2(Math.sin(a), Math.cos(a));

/** The world z component of the body's z axis: 1 upright. */
function upright(P, body) {
  const [, x, y] = P.subarray(7 * body + 3, 7 * body + 7);
  return 1 - 2 * (x * x + y * y);
}

/** Opens `name`, settles it for SETTLE s and calls run({ sim, model, dt, chassis, driver }); disposes after. */
async function settled(name, run) {
  const sim = await openModel(name);
  try {
    const model = sim.describe();
    const dt = model.contactDt;
    const chassis = model.bodies.findIndex((b) => b.name === 'chassis');
    sim.step(dt, Math.round(SETTLE / dt));
    await run({ sim, model, dt, chassis, driver: new WheelDriver(sim, {}, model) });
  } finally {
    sim.dispose();
  }
}

test('hmmwv: four tire wheels, the rear pair driven; bad inputs are refused naming them', async () => {
  await settled('hmmwv', ({ sim, model, driver }) => {
    const wheels = tireWheels(model, sim);
    assert.deepEqual(wheels.map((w) => [w.name, w.side, w.axle, w.sign]), [
      ['fl_tire', 'left', 'front', 1], ['fr_tire', 'right', 'front', 1], ['rl_tire', 'left', 'rear', 1], ['rr_tire', 'right', 'rear', 1],
    ]);
    assert.deepEqual(driver.driven.map((w) => w.name), ['rl_tire', 'rr_tire']);
    assert.equal(driver.steering.name, 'steer');
    assert.throws(() => driver.set({ throttle: 2 }), /throttle must be a number from -1 to 1, got 2/);
    assert.throws(() => driver.set({ brake: [1] }), /brake must be a level or a list of 4 levels/);
    assert.ok(wheels.every((w) => w.brake[0] > 0 && w.brake[1] > 0), 'every wheel has its brake gains');
  });
});

test('engine map: full and closed throttle interpolated as Chrono\'s simple map', () => {
  const pt = HMMWV_POWERTRAIN;
  assert.equal(engineTorque(pt, 146.608, 1), 1300.2);
  assert.equal(engineTorque(pt, 146.608, 0), -30);
  assert.ok(Math.abs(engineTorque(pt, 0.5 * (83.776 + 104.72), 1) - 0.5 * (517.9 + 926.0)) < 1e-9);
  assert.ok(Math.abs(engineTorque(pt, 146.608, 0.5) - 0.5 * (1300.2 - 30)) < 1e-9);
});

test('hmmwv: full throttle from rest for 40 s reaches the engine-limited top speed, upright', async () => {
  await settled('hmmwv', ({ sim, dt, chassis, driver }) => {
    driver.set({ throttle: 1 });
    const x0 = sim.poses()[7 * chassis];
    let last = x0;
    let speed = 0;
    for (let s = 0; s < 40; s++) {
      driver.step(dt, Math.round(1 / dt));
      const x = sim.poses()[7 * chassis];
      speed = (x - last) / 1;
      last = x;
    }
    const P = sim.poses();
    const { gear, engine } = driver.drive();
    // Top gear 1.5361 and final drive 0.2 at the engine map's zero-torque speed (247.0 rad/s, 2359 rpm) roll a
    // wheel of loaded radius about 0.44 m at 247.0 · 0.30722 · 0.44 = 33.4 m/s: the top speed is the governor's.
    const top = 247.0 * HMMWV_POWERTRAIN.gears[5] * HMMWV_POWERTRAIN.final * 0.44;
    console.log(`full throttle 40 s: ${speed.toFixed(2)} m/s (engine-limited ${top.toFixed(1)} m/s), gear ${gear + 1}, engine ${(engine * 30 / Math.PI).toFixed(0)} rpm, upright ${upright(P, chassis).toFixed(4)}`);
    assert.ok(speed > 0.9 * top && speed < 1.03 * top, `top speed ${speed} m/s against ${top}`);
    assert.equal(gear, 5);
    assert.ok(upright(P, chassis) > 0.99 && Math.abs(yaw(P, chassis)) < 0.05);
  });
});

for (const name of ['hmmwv', 'hmmwv_pitman']) {
  test(`${name}: W for 5 s, then W + A for 5 s, moves forward and turns left, nothing collapsing`, async () => {
    await settled(name, ({ sim, dt, chassis, driver }) => {
      const P0 = Float64Array.from(sim.poses());
      const z0 = P0[7 * chassis + 2];
      driver.set({ throttle: 0.5 });
      let lowest = z0;
      for (let k = 0; k < 50; k++) {
        driver.step(dt, Math.round(0.1 / dt));
        lowest = Math.min(lowest, sim.poses()[7 * chassis + 2]);
      }
      const P1 = Float64Array.from(sim.poses());
      driver.set({ throttle: 0.5, steer: 1 });
      let turned = 0;
      let heading = yaw(P1, chassis);
      for (let k = 0; k < 50; k++) {
        driver.step(dt, Math.round(0.1 / dt));
        lowest = Math.min(lowest, sim.poses()[7 * chassis + 2]);
        const h = yaw(sim.poses(), chassis);
        turned += wrap(h - heading);
        heading = h;
      }
      const P2 = sim.poses();
      const forward = P1[7 * chassis] - P0[7 * chassis];
      console.log(`${name}: W 5 s forward ${forward.toFixed(2)} m; W + A 5 s yaw +${(turned * 180 / Math.PI).toFixed(1)} deg, lowest chassis z ${lowest.toFixed(3)} m (settled ${z0.toFixed(3)})`);
      assert.ok(forward > 5, `moved forward ${forward} m`);
      assert.ok(Math.abs(yaw(P1, chassis)) < 0.02, 'straight under W alone');
      assert.ok(turned > 0.5, `turned left ${turned} rad`);
      assert.ok(lowest > z0 - 0.1 && upright(P2, chassis) > 0.95, 'the chassis stays up');
      assert.ok(sim.q.every(Number.isFinite) && sim.qd.every(Number.isFinite));
    });
  });
}

test('hmmwv: a steady circle at two speeds, the same steer: understeer gradient of the sign and order the axle loads imply', async () => {
  // Linear bicycle model (Pacejka, "Tyre and Vehicle Dynamics"; the understeer gradient): delta = L / R + K a_y,
  // K = (W_f / C_f − W_r / C_r) / g with each axle's cornering stiffness 2 CALPHA (the Fiala's, load-independent).
  // The settled axle loads (front 13054.6 N, rear 12225.0 N) give K = (13054.6 − 12225.0) / (2 · 50000) / 9.81 =
  // 8.5e-4 rad/(m/s²) (0.48°/g): slight understeer. Roll, compliance and the Fiala's load sensitivity (U Fz) add
  // to it; the check wants K > 0 and within 0.3 to 10 times that.
  const runs = [];
  for (const v of [6, 12]) {
    await settled('hmmwv', ({ sim, model, dt, chassis, driver }) => {
      const L = 3.378;
      driver.set({ steer: 0.25 });
      const fl = model.bodies.findIndex((b) => b.name === 'fl_wheel');
      const fr = model.bodies.findIndex((b) => b.name === 'fr_wheel');
      const rl = model.bodies.findIndex((b) => b.name === 'rl_wheel');
      const rr = model.bodies.findIndex((b) => b.name === 'rr_wheel');
      let speed = 0;
      let yawRate = 0;
      let prevYaw = yaw(sim.poses(), chassis);
      let prev = Float64Array.from(sim.poses().subarray(7 * chassis, 7 * chassis + 3));
      for (let k = 0; k < 300; k++) {
        // a speed holder on the throttle
        driver.set({ throttle: Math.max(0, Math.min(1, 0.05 + 0.5 * (v - speed))) });
        driver.step(dt, Math.round(0.1 / dt));
        const P = sim.poses();
        speed = Math.hypot(P[7 * chassis] - prev[0], P[7 * chassis + 1] - prev[1]) / 0.1;
        const y = yaw(P, chassis);
        let dy = y - prevYaw;
        if (dy > Math.PI) dy -= 2 * Math.PI;
        if (dy < -Math.PI) dy += 2 * Math.PI;
        yawRate = dy / 0.1;
        prevYaw = y;
        prev = Float64Array.from(P.subarray(7 * chassis, 7 * chassis + 3));
      }
      const P = sim.poses();
      const front = wrap(0.5 * (wheelHeading(P, fl) + wheelHeading(P, fr)) - yaw(P, chassis));
      const rear = wrap(0.5 * (wheelHeading(P, rl) + wheelHeading(P, rr)) - yaw(P, chassis));
      runs.push({ v: speed, r: yawRate, R: speed / yawRate, ay: speed * yawRate, delta: front - rear, front, rear, L });
    });
  }
  const [a, b] = runs;
  const deg = (r) => (r * 180 / Math.PI).toFixed(3);
  for (const x of runs) console.log(`v ${x.v.toFixed(2)} m/s, R ${x.R.toFixed(2)} m, a_y ${x.ay.toFixed(2)} m/s², front ${deg(x.front)} deg, rear ${deg(x.rear)} deg, L/R ${deg(x.L / x.R)} deg`);
  // K from the two runs' measured front-wheel steer angles (the rack's own compliance is then not counted):
  // delta = L / R + K a_y at each
  const K = ((b.delta - b.L / b.R) - (a.delta - a.L / a.R)) / (b.ay - a.ay);
  const bicycle = (13054.6 - 12225.0) / (2 * 50000) / 9.81;
  console.log(`understeer gradient ${K.toExponential(3)} rad/(m/s²) (${(K * 9.81 * 180 / Math.PI).toFixed(2)} deg/g) against the axle loads' ${bicycle.toExponential(2)}`);
  assert.ok(b.R > a.R, 'the radius grows with speed at the same steer (understeer)');
  assert.ok(K > 0.3 * bicycle && K < 10 * bicycle, `K ${K}`);
});

test('hmmwv_ramp: W climbs the 10 degree ramp, then the brakes hold it on the slope', async () => {
  await settled('hmmwv_ramp', ({ sim, dt, chassis, driver }) => {
    const z0 = sim.poses()[7 * chassis + 2];
    driver.set({ throttle: 0.25 });
    driver.step(dt, Math.round(6 / dt));
    const z1 = sim.poses()[7 * chassis + 2];
    driver.set({ throttle: 0, brake: 1 });
    driver.step(dt, Math.round(3 / dt));
    const a = Float64Array.from(sim.poses().subarray(7 * chassis, 7 * chassis + 3));
    driver.step(dt, Math.round(1 / dt));
    const P = sim.poses();
    const moved = Math.hypot(P[7 * chassis] - a[0], P[7 * chassis + 1] - a[1], P[7 * chassis + 2] - a[2]);
    console.log(`hmmwv_ramp: climbed ${(z1 - z0).toFixed(2)} m in 6 s; braked on the slope, moved ${(1e3 * moved).toFixed(3)} mm in the last second`);
    assert.ok(z1 - z0 > 1 && z1 - z0 < 6, `climbed ${z1 - z0} m, on the slope below the plateau`);
    assert.ok(moved < 1e-3, `held on the ramp: moved ${moved} m`);
    assert.ok(upright(P, chassis) > 0.9);
  });
});

test('hmmwv_bumps: W drives over the bumps upright', async () => {
  await settled('hmmwv_bumps', ({ sim, dt, chassis, driver }) => {
    const x0 = sim.poses()[7 * chassis];
    driver.set({ throttle: 0.5 });
    let least = 1;
    for (let k = 0; k < 80; k++) {
      driver.step(dt, Math.round(0.1 / dt));
      least = Math.min(least, upright(sim.poses(), chassis));
    }
    const x = sim.poses()[7 * chassis] - x0;
    console.log(`hmmwv_bumps: ${x.toFixed(1)} m in 8 s, least upright ${least.toFixed(3)}`);
    assert.ok(x > 20, `drove ${x} m`);
    assert.ok(least > 0.9 && sim.q.every(Number.isFinite));
  });
});
