// drive.mjs — driving a tracked vehicle through its drive sprockets (docs/wasm.md, "Driving a tracked
// vehicle"): which drive rollers a model has and on which side, the differential mapping of throttle and steer
// onto them, the sprocket motor law, and a Driver that steps a Sim with them and the brake law (the C core's,
// sim.brakeTorque). Plain functions of describe() and the Sim's arrays, shared by the Node API and the page's
// worker.
/** @import { DriveRoller, Sim } from './index.js' */

const TURN_SIDE = 1e-9;   // m: a drive roller's root-frame |y| below this is on neither side
const TOP_SPEED = 5;      // m/s: the default track speed of full throttle (motorLaw)

/** R · v for a row-major 3 × 3 R. */
const mul = (R, v) => [0, 1, 2].map((i) => R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2]);

/**
 * A body's origin and a body-frame direction in the frame of its ancestor `root` (−1: the base), through the
 * tree's pos/rot at q = 0.
 */
function inRoot(model, body, dir, root) {
  let p = [0, 0, 0];
  let a = [...dir];
  for (let b = body; b !== root && b >= 0; b = model.bodies[b].parent) {
    const { pos, rot } = model.bodies[b];
    p = mul(rot, p).map((x, i) => x + pos[i]);
    a = mul(rot, a);
  }
  return { p, a };
}

/**
 * Every band's drive rollers, in file order: { name (the roller body's), body, vidx (its joint's velocity
 * index: the drive torque is tau[vidx]), qidx, radius, brake: [k, c] (describe()'s contact_brake_gains: N·m/rad,
 * N·m·s/rad), grip (μ · weight · radius, N·m: the torque the ground's friction can take at that radius with the
 * whole vehicle's weight on it), side ('left' at root-frame y > 0, 'right' at y < 0, null on the centre line),
 * sign (+1 when the joint turns about the root's +y, −1 about −y: sign · tau drives the band's bottom run
 * towards −x, the vehicle towards the root's +x) }.
 * @param {object} model Sim.describe()
 */
export function driveRollers(model) {
  const weight = model.bodies.reduce((s, b) => s + b.mass, 0) * Math.hypot(...model.gravity);
  const mu = model.ground?.mu ?? 1;
  const out = [];
  for (const t of model.tracks ?? []) {
    for (const r of t.rollers) {
      if (!r.drive) continue;
      const b = model.bodies[r.body];
      const { p, a } = inRoot(model, r.body, b.axis, t.root);
      out.push({
        name: b.name, body: r.body, vidx: b.vidx, qidx: b.qidx, radius: r.radius, brake: [...r.brake],
        grip: mu * weight * r.radius,
        side: p[1] > TURN_SIDE ? 'left' : p[1] < -TURN_SIDE ? 'right' : null,
        sign: a[1] < 0 ? -1 : 1,
      });
    }
  }
  return out;
}

/**
 * A model's differential pair: its drive rollers when there are exactly two, one on each side (left first),
 * else null. What throttle and steer act on.
 * @param {DriveRoller[]} drives @returns {[DriveRoller, DriveRoller] | null}
 */
export function differentialPair(drives) {
  if (drives.length !== 2) return null;
  const left = drives.find((d) => d.side === 'left');
  const right = drives.find((d) => d.side === 'right');
  return left && right ? [left, right] : null;
}

/**
 * Throttle and steer (each −1 … 1) as the two sides' commands (each −1 … 1): left = throttle − steer,
 * right = throttle + steer, both divided by max(1, |throttle| + |steer|) so neither leaves −1 … 1 and their
 * ratio is kept. Steer > 0 turns left (counter-clockwise seen from above): the right track runs faster.
 */
export function differential(throttle, steer) {
  const scale = Math.max(1, Math.abs(throttle) + Math.abs(steer));
  return { left: (throttle - steer) / scale, right: (throttle + steer) / scale };
}

/**
 * The sprocket motor: a torque proportional to the error between the commanded track speed u · topSpeed and the
 * sprocket's ω · radius, full torque at an error of topSpeed, saturating at ±torque:
 * tau = sign · torque · clamp(u − sign · ω · radius / topSpeed, −1, 1). At u = 1 it pulls with the full torque
 * from rest and less as the track nears topSpeed; u = 0 holds the track's speed at 0 (an engine brake).
 */
export function motorTorque(drive, u, torque, topSpeed, qd) {
  const e = u - (drive.sign * qd * drive.radius) / topSpeed;
  return drive.sign * torque * Math.min(1, Math.max(-1, e));
}

/** A level checked: a number in [lo, hi], or a RangeError naming `what`. */
export function checkLevel(value, what, lo, hi, meaning) {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < lo || value > hi) {
    throw new RangeError(`${what} must be a number from ${lo} to ${hi}${meaning ? ` (${meaning})` : ''}, got ${String(value)}`);
  }
  return value;
}

/**
 * Drives a tracked vehicle's Sim: throttle and steer on its differential pair through the motor law, a brake
 * level per drive roller, and a torque of one's own per drive roller on top; set before every step, since each
 * depends on the state. Other joint forces (sim.tau of other joints, fext, gravity) are left as they are.
 *
 *   const driver = new Driver(sim);
 *   driver.set({ throttle: 1, steer: 0.3 });
 *   driver.step(dt, 1000);
 */
export class Driver {
  /**
   * @param {Sim} sim the Sim to drive (sim may be replaced later: driver.sim = other)
   * @param {{ torque?: number, topSpeed?: number }} [options] torque: full-throttle torque per sprocket (N·m),
   *   default half the grip (μ · weight · radius / 2: both sides together take what the ground's friction can);
   *   topSpeed: the track speed of full throttle (m/s), default 5
   */
  constructor(sim, options = {}, model = sim.describe()) {
    this.sim = sim;
    this.drives = driveRollers(model);
    if (!this.drives.length) throw new RangeError(`'${model.name}' has no drive roller (a track roller with 'drive') to drive`);
    this.pair = differentialPair(this.drives);
    const torque = options.torque ?? this.drives[0].grip / 2;
    const topSpeed = options.topSpeed ?? TOP_SPEED;
    if (!(Number.isFinite(torque) && torque > 0)) throw new RangeError(`torque must be a positive number (N·m), got ${torque}`);
    if (!(Number.isFinite(topSpeed) && topSpeed > 0)) throw new RangeError(`topSpeed must be a positive number (m/s), got ${topSpeed}`);
    this.torque = torque;
    this.topSpeed = topSpeed;
    this.throttle = 0;
    this.steer = 0;
    this.brake = this.drives.map(() => 0);
    this.extra = this.drives.map(() => 0);
    this.locks = this.drives.map(() => 0);
  }

  /**
   * A torque that depends on the state is on (throttle, steer or a brake), so each step needs its own; without
   * one, sim.tau holding the own torques (apply() once) serves any number of steps.
   */
  get active() {
    return this.throttle !== 0 || this.steer !== 0 || this.brake.some((b) => b > 0);
  }

  /**
   * New inputs, each optional: throttle and steer (−1 … 1; only with a differential pair), brake (a level
   * 0 … 1 for every drive roller, or a list of one per drive roller) and tau (a torque of one's own per drive
   * roller, N·m). A bad value throws, naming it, and changes nothing. A brake applied from 0 locks where its
   * sprocket is now.
   */
  set({ throttle, steer, brake, tau } = {}) {
    const n = this.drives.length;
    for (const [what, v] of [['throttle', throttle], ['steer', steer]]) {
      if (v === undefined) continue;
      checkLevel(v, what, -1, 1);
      if (v !== 0 && !this.pair) throw new RangeError(`${what} needs two drive rollers, one on each side; this model has ${n}`);
    }
    const levels = brake === undefined ? null : typeof brake === 'number' ? this.drives.map(() => brake) : brake;
    if (levels) {
      if (!Array.isArray(levels) || levels.length !== n) throw new TypeError(`brake must be a level or a list of ${n} levels, one per drive roller`);
      levels.forEach((b, i) => checkLevel(b, `the brake of '${this.drives[i].name}'`, 0, 1, '0 off, 1 full'));
    }
    if (tau !== undefined) {
      if (!Array.isArray(tau) || tau.length !== n || !tau.every(Number.isFinite)) throw new TypeError(`tau must be a list of ${n} finite torques (N·m), one per drive roller`);
    }
    if (throttle !== undefined) this.throttle = throttle;
    if (steer !== undefined) this.steer = steer;
    if (levels) {
      levels.forEach((b, i) => {
        if (b > 0 && !(this.brake[i] > 0)) this.locks[i] = this.sim.q[this.drives[i].qidx];
        this.brake[i] = b;
      });
    }
    if (tau) this.extra = [...tau];
  }

  /** The brakes lock anew where the sprockets are (after the state was reset or restored). */
  relock() {
    this.drives.forEach((d, i) => { this.locks[i] = this.sim.q[d.qidx]; });
  }

  /** Per drive roller, the command of its side (−1 … 1), 0 without a differential pair. */
  commands() {
    if (!this.pair) return this.drives.map(() => 0);
    const { left, right } = differential(this.throttle, this.steer);
    return this.drives.map((d) => (d === this.pair[0] ? left : right));
  }

  /** Writes every drive roller's torque for the state as it is into sim.tau; returns them. */
  apply() {
    const { qd, tau } = this.sim;
    const u = this.commands();
    const motor = this.throttle !== 0 || this.steer !== 0;
    return this.drives.map((d, i) => {
      let t = this.extra[i];
      if (motor) t += motorTorque(d, u[i], this.torque, this.topSpeed, qd[d.vidx]);
      if (this.brake[i] > 0) t += this.sim.brakeTorque(d.body, this.brake[i], this.locks[i]);
      tau[d.vidx] = t;
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
