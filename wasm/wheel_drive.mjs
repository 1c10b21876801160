// wheel_drive.mjs — driving a wheeled vehicle on its tires (docs/wasm.md, "Driving a wheeled vehicle"): which
// wheels carry tires and where they sit, a simple powertrain (an engine's torque–speed map, an automatic gearbox, a
// final drive), an open differential per driven axle, the steering input, a brake per wheel (the C core's,
// sim.brakeTorque), and a WheelDriver with the tracked Driver's shape (set({ throttle, steer, brake }), apply(),
// step()). Plain functions of describe() and the Sim's arrays, shared by the Node API and the page's worker.
/** @import { ModelDescription, Powertrain, Sim, TireWheel } from './index.js' */

const RPM = Math.PI / 30;
const BRAKE_HOLD = 0.5;   // rad/s: a braked wheel turning faster than this is damped, not held (apply())

/**
 * The HMMWV's powertrain, from Project Chrono's HMMWV model (docs/references.md): the engine map of
 * HMMWV_EngineSimpleMap (full-throttle torque `full` and closed-throttle torque `closed`, N·m, at engine speeds
 * `speed`, rad/s; linear between), the forward gear ratios of HMMWV_AutomaticTransmissionSimpleMap (output over
 * input speed) with its shift band (down at 1000 rpm, up at about 2226 rpm) and reverse ratio, and the conical
 * gear ratio 0.2 of HMMWV_Driveline2WD, which drives the rear axle.
 */
export const HMMWV_POWERTRAIN = Object.freeze({
  speed: [-10.472, 83.776, 104.72, 125.664, 146.608, 167.552, 188.496, 209.44, 230.383, 251.327, 282.743],
  full: [406.7, 517.9, 926.0, 1216.2, 1300.2, 1300.2, 1227.0, 1136.2, 1041.3, -271.2, -800.0],
  closed: [0, -20, -20, -30, -30, -30, -40, -50, -70, -100, -800],
  gears: [0.1708, 0.2791, 0.4218, 0.6223, 1.0173, 1.5361],
  reverse: -0.2,
  downshift: 1000 * RPM,
  upshift: 2226 * RPM,
  final: 0.2,
  driven: 'rear',
});

/** The map's torque at engine speed w (rad/s): linear between its points, held beyond the last. */
function interpolate(xs, ys, w) {
  if (w <= xs[0]) return ys[0];
  for (let i = 1; i < xs.length; i++) {
    if (w <= xs[i]) return ys[i - 1] + ((ys[i] - ys[i - 1]) * (w - xs[i - 1])) / (xs[i] - xs[i - 1]);
  }
  return ys[ys.length - 1];
}

/**
 * The engine torque (N·m) at engine speed w (rad/s) and throttle 0 … 1: closed + throttle · (full − closed), as
 * Chrono's simple-map engine mixes its two maps.
 */
export function engineTorque(pt, w, throttle) {
  const closed = interpolate(pt.speed, pt.closed, w);
  return closed + throttle * (interpolate(pt.speed, pt.full, w) - closed);
}

/**
 * Every tire's wheel, in file order: { name (the tire's), body, vidx (its joint's velocity index: the wheel
 * torque is tau[vidx]), qidx, radius, brake: [k, c], side ('left' at y > 0 in the vehicle, 'right' below),
 * axle ('front' ahead of the wheels' mean x, 'rear' behind), sign (+1 when the joint turns about the world's +y at
 * the design pose: sign · tau drives the vehicle towards +x) }, read from the Sim's poses at its current state.
 * @param {ModelDescription} model Sim.describe()
 * @param {Sim} sim
 * @returns {TireWheel[]}
 */
export function tireWheels(model, sim) {
  const poses = sim.poses();
  const tires = model.tires ?? [];
  const x = tires.map((t) => poses[7 * t.body]);
  const mid = x.reduce((s, v) => s + v, 0) / Math.max(1, x.length);
  return tires.map((t, i) => {
    const b = model.bodies[t.body];
    const [w, qx, qy, qz] = poses.slice(7 * t.body + 3, 7 * t.body + 7);
    // the joint axis in the world: R(q) · axis, R from the unit quaternion (w, x, y, z)
    const a = b.axis;
    const ay = 2 * (qx * qy + w * qz) * a[0] + (1 - 2 * (qx * qx + qz * qz)) * a[1] + 2 * (qy * qz - w * qx) * a[2];
    return /** @type {TireWheel} */ ({
      name: t.name, body: t.body, vidx: b.vidx, qidx: b.qidx, radius: t.radius, brake: [t.brake[0], t.brake[1]],
      side: poses[7 * t.body + 1] > 0 ? 'left' : 'right',
      axle: x[i] > mid ? 'front' : 'rear',
      sign: ay < 0 ? -1 : 1,
    });
  });
}

/** A level checked: a number in [lo, hi], or a RangeError naming `what`. */
function checkLevel(value, what, lo, hi, meaning) {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < lo || value > hi) {
    throw new RangeError(`${what} must be a number from ${lo} to ${hi}${meaning ? ` (${meaning})` : ''}, got ${String(value)}`);
  }
  return value;
}

/**
 * Drives a wheeled vehicle's Sim: throttle through the powertrain to the driven axle's open differential (equal
 * torques on its two wheels), steer through the model's steering input (the input named 'steer': act = −k · steer
 * · steerRange, the HMMWVs' rack and Pitman arm turning left at negative travel), a brake level per wheel; set
 * before every step, since each depends on the state.
 *
 *   const driver = new WheelDriver(sim);
 *   driver.set({ throttle: 1, steer: 0.3 });
 *   driver.step(dt, 1000);
 */
export class WheelDriver {
  /**
   * @param {Sim} sim the Sim to drive
   * @param {{ powertrain?: Powertrain, steerRange?: number }} [options] powertrain: HMMWV_POWERTRAIN's shape (the
   *   default); steerRange: the steering input's travel at steer ±1 (its unit: m of rack, rad of Pitman arm),
   *   default `STEER_RANGE` of the input's unit
   */
  constructor(sim, options = {}, model = sim.describe()) {
    this.sim = sim;
    this.wheels = tireWheels(model, sim);
    if (!this.wheels.length) throw new RangeError(`'${model.name}' has no tire (a 'tire' block on a wheel) to drive`);
    this.powertrain = options.powertrain ?? HMMWV_POWERTRAIN;
    this.driven = this.wheels.filter((w) => w.axle === this.powertrain.driven);
    this.steering = model.inputs.find((i) => i.name === 'steer') ?? null;
    const range = options.steerRange ?? (this.steering ? STEER_RANGE[this.steering.unit] : 0);
    if (!(Number.isFinite(range) && range >= 0)) throw new RangeError(`steerRange must be a number >= 0, got ${range}`);
    this.steerRange = range;
    this.gear = 0;
    this.throttle = 0;
    this.steer = 0;
    this.brake = this.wheels.map(() => 0);
    this.locks = this.wheels.map(() => 0);
  }

  /** Throttle, steer or a brake is on: each step needs its own torques. */
  get active() {
    return this.throttle !== 0 || this.steer !== 0 || this.brake.some((b) => b > 0);
  }

  /**
   * New inputs, each optional: throttle (−1 … 1; below 0 the reverse gear), steer (−1 … 1, > 0 turns left; needs
   * a steering input) and brake (a level 0 … 1 for every wheel, or a list of one per wheel). A bad value throws,
   * naming it, and changes nothing. A brake applied from 0 locks where its wheel is now.
   */
  set({ throttle, steer, brake } = {}) {
    const n = this.wheels.length;
    if (throttle !== undefined) checkLevel(throttle, 'throttle', -1, 1);
    if (steer !== undefined) {
      checkLevel(steer, 'steer', -1, 1);
      if (steer !== 0 && !this.steering) throw new RangeError("steer needs a steering input (an rsda or tsda 'steer' with 'input')");
    }
    const levels = brake === undefined ? null : typeof brake === 'number' ? this.wheels.map(() => brake) : brake;
    if (levels) {
      if (!Array.isArray(levels) || levels.length !== n) throw new TypeError(`brake must be a level or a list of ${n} levels, one per wheel`);
      levels.forEach((b, i) => checkLevel(b, `the brake of '${this.wheels[i].name}'`, 0, 1, '0 off, 1 full'));
    }
    if (throttle !== undefined) this.throttle = throttle;
    if (steer !== undefined) this.steer = steer;
    if (levels) {
      levels.forEach((b, i) => {
        if (b > 0 && !(this.brake[i] > 0)) this.locks[i] = this.sim.q[this.wheels[i].qidx];
        this.brake[i] = b;
      });
    }
  }

  /** The brakes lock anew where the wheels are (after the state was reset or restored). */
  relock() {
    this.wheels.forEach((w, i) => { this.locks[i] = this.sim.q[w.qidx]; });
  }

  /**
   * The powertrain at the driven wheels' mean spin: the gear (shifted up above the upshift speed, down below the
   * downshift speed, reverse for throttle < 0), the engine speed and torque, and the torque on each driven wheel
   * (the open differential's half of engine torque / ratio).
   */
  drive() {
    const pt = this.powertrain;
    const { qd } = this.sim;
    const spin = this.driven.reduce((s, w) => s + w.sign * qd[w.vidx], 0) / Math.max(1, this.driven.length);
    const reverse = this.throttle < 0;
    let ratio = (reverse ? pt.reverse : pt.gears[this.gear]) * pt.final;
    let engine = spin / ratio;
    if (!reverse) {
      if (engine > pt.upshift && this.gear < pt.gears.length - 1) this.gear++;
      else if (engine < pt.downshift && this.gear > 0) this.gear--;
      ratio = pt.gears[this.gear] * pt.final;
      engine = spin / ratio;
    }
    const torque = engineTorque(pt, engine, Math.abs(this.throttle));
    return { gear: reverse ? -1 : this.gear, engine, torque, wheel: torque / ratio / Math.max(1, this.driven.length) };
  }

  /** Writes every wheel's torque (drive and brake) for the state as it is into sim.tau, the steering into act; returns the torques. */
  apply() {
    const { tau, act } = this.sim;
    const wheel = this.throttle !== 0 ? this.drive().wheel : 0;
    // positive rack travel (+y) and Pitman arm angle steer these vehicles right: steer > 0 (left) is their negative
    if (this.steering) act[this.steering.act] = -this.steering.k * this.steer * this.steerRange;
    return this.wheels.map((w, i) => {
      let t = this.driven.includes(w) ? w.sign * wheel : 0;
      if (this.brake[i] > 0) {
        // A turning wheel's brake is its damper alone (the lock follows the wheel): the spring holds only once
        // the wheel is all but still, so it never winds up while the vehicle slows and springs back after.
        if (Math.abs(this.sim.qd[w.vidx]) > BRAKE_HOLD) this.locks[i] = this.sim.q[w.qidx];
        t += this.sim.brakeTorque(w.body, this.brake[i], this.locks[i]);
      }
      tau[w.vidx] = t;
      return t;
    });
  }

  /** n steps of dt, each with the torques of the state it starts from. */
  step(dt, n = 1) {
    for (let k = 0; k < n; k++) {
      this.apply();
      this.sim.step(dt, 1);
    }
  }
}

/**
 * The steering input's travel at steer ±1, by its unit: the HMMWV's rack (m) and Pitman arm (rad), each turning
 * the front wheels about 19–23° (the data's "Maximum Steering Angle" is 30.23°; the rack linkage reaches a
 * toggle past about 0.065 m, so full lock is not offered; docs/wasm.md).
 */
export const STEER_RANGE = Object.freeze({ m: 0.05, rad: 0.4 });
