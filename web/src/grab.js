// grab.js — the pull of a Ctrl+drag (inspect.js), evaluated in the worker: a spring-damper from a point fixed
// in the body to the cursor's point, critically damped at GRAB_HZ for the body's own mass (so light and heavy
// bodies follow alike), applied through Sim.fext — which every engine reads for every body (docs/wasm.md).

export const GRAB_HZ = 3;           // natural frequency of the pull on the body's own mass
export const GRAB_DT = 1 / 240;     // s of simulated time one evaluation of the pull is held, at most

/** v rotated by the unit quaternion q = [w, x, y, z]. */
function rotate([w, x, y, z], [vx, vy, vz]) {
  const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
  return [vx + w * tx + y * tz - z * ty, vy + w * ty + z * tx - x * tz, vz + w * tz + x * ty - y * tx];
}

const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** Where the grabbed point `point` (body frame) of body `body` is now: world position and velocity. */
export function grabbedPoint({ body, point }, poses, velocities) {
  const k = 7 * body;
  const origin = [poses[k], poses[k + 1], poses[k + 2]];
  const r = rotate([poses[k + 3], poses[k + 4], poses[k + 5], poses[k + 6]], point);
  const x = origin.map((o, i) => o + r[i]);
  if (!velocities) return { x, v: null };
  const v0 = velocities.subarray(6 * body, 6 * body + 3);
  const wr = cross(velocities.subarray(6 * body + 3, 6 * body + 6), r);
  return { x, v: [v0[0] + wr[0], v0[1] + wr[1], v0[2] + wr[2]] };
}

/**
 * The pull's wrench on the grabbed body into fext (6 per body, base frame [moment about the base origin;
 * force]), the body's other slots cleared; returns the force.
 */
export function applyGrab(grab, mass, poses, velocities, fext) {
  const { x, v } = grabbedPoint(grab, poses, velocities);
  const w = 2 * Math.PI * GRAB_HZ;
  const m = mass > 0 ? mass : 1;
  const F = [0, 1, 2].map((i) => m * w * w * (grab.target[i] - x[i]) - 2 * m * w * v[i]);
  fext.set([...cross(x, F), ...F], 6 * grab.body);
  return F;
}
