// tracks.js — what the page needs to know about tracked vehicles, from Sim.describe() alone (no three.js, so the
// worker imports it too): the drive rollers the sliders act on (their laws: wasm/drive.mjs, which the worker
// steps with), and where the terrain is sampled for drawing.
import { driveRollers as drivesOf } from '../../wasm/drive.mjs';

const FAR = 200;             // m: how far the terrain mesh reaches beyond the grid (or from the origin)
const GRID_SUBDIVISIONS = 4; // mesh vertices per grid cell: the bicubic surface drawn, not just the samples
const MAX_SIDE = 256;        // mesh vertices per side at most

/**
 * Every band's drive rollers, in file order (wasm/drive.mjs's driveRollers: name, body, vidx, qidx, radius,
 * brake gains, grip, side, sign), each with torque: the drive slider's half-range (N·m), the grip
 * μ · weight · radius rounded up.
 */
export function driveRollers(model) {
  return drivesOf(model).map((d) => ({ ...d, torque: d.grip > 0 ? niceCeil(d.grip) : 100 }));
}

/** The smallest of 1, 2, 5 × 10^k at or above x. */
function niceCeil(x) {
  const p = 10 ** Math.floor(Math.log10(x));
  return [1, 2, 5, 10].map((m) => m * p).find((v) => v >= x);
}

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

