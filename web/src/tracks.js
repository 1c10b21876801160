// tracks.js — what the page needs to know about tracked vehicles, from Sim.describe() alone (no three.js, so the
// worker imports it too): the drive rollers the sliders act on, the brake law both sides agree on, and where
// the terrain is sampled for drawing.

const FAR = 200;             // m: how far the terrain mesh reaches beyond the grid (or from the origin)
const GRID_SUBDIVISIONS = 4; // mesh vertices per grid cell: the bicubic surface drawn, not just the samples
const MAX_SIDE = 256;        // mesh vertices per side at most

/**
 * Every band's drive rollers, in file order: { name (the roller body's), body, vidx (its joint's velocity
 * index: the drive torque is tau[vidx]), radius, brakeC (the damper of its brake, N·m·s/rad: describe()'s
 * contact_brake_gains), torque (the slider's half-range, N·m: what the ground's friction can take at that
 * radius, μ · weight · radius, rounded up) }.
 */
export function driveRollers(model) {
  const weight = model.bodies.reduce((s, b) => s + b.mass, 0) * Math.hypot(...model.gravity);
  const mu = model.ground?.mu ?? 1;
  const out = [];
  for (const t of model.tracks ?? []) {
    for (const r of t.rollers) {
      if (!r.drive) continue;
      const b = model.bodies[r.body];
      const torque = mu * weight * r.radius;
      out.push({
        name: b.name, body: r.body, vidx: b.vidx, radius: r.radius, brakeC: r.brake[1],
        torque: torque > 0 ? niceCeil(torque) : 100,
      });
    }
  }
  return out;
}

/** The smallest of 1, 2, 5 × 10^k at or above x. */
function niceCeil(x) {
  const p = 10 ** Math.floor(Math.log10(x));
  return [1, 2, 5, 10].map((m) => m * p).find((v) => v >= x);
}

/**
 * A brake level (the slider, 0 = off to 1 = full) checked: a number in [0, 1], or an Error that says so.
 * @param {unknown} level @param {string} name the roller's
 */
export function checkBrake(level, name) {
  if (typeof level !== 'number' || !Number.isFinite(level) || level < 0 || level > 1) {
    throw new RangeError(`the brake of '${name}' must be a number from 0 (off) to 1 (full), got ${String(level)}`);
  }
  return level;
}

/**
 * The torque on a drive roller's joint with its brake: the drive torque minus level · c · (its joint
 * velocity), a viscous brake at the damper of contact_brake_gains scaled by the level. Evaluated before
 * every step (a damper held over many steps would not be one).
 */
export const brakedTorque = (drive, level, brakeC, qd) => drive - level * brakeC * qd;

/**
 * Where the worker samples the terrain (x and y sample lists): a plane is exact with its corners; a grid is
 * sampled GRID_SUBDIVISIONS times per cell over its extent, plus a ring FAR out (the surface is flat at the
 * edge heights outside the grid, so the ring continues it exactly).
 */
export function terrainSamples(ground) {
  if (!ground) return null;
  if (ground.type !== 'grid') return { xs: [-FAR, FAR], ys: [-FAR, FAR] };
  const axis = (x0, d, n) => {
    const cells = n - 1;
    // GRID_SUBDIVISIONS points per cell while that fits in MAX_SIDE; a finer grid is drawn coarser.
    const fit = Math.floor((MAX_SIDE - 2) / cells);
    const m = fit >= 1 ? cells * Math.min(GRID_SUBDIVISIONS, fit) : MAX_SIDE - 2;
    const v = [x0 - FAR];
    for (let i = 0; i <= m; i++) v.push(x0 + (cells * d * i) / m);
    v.push(x0 + cells * d + FAR);
    return v;
  };
  return { xs: axis(ground.x0, ground.dx, ground.nx), ys: axis(ground.y0, ground.dy, ground.ny) };
}

