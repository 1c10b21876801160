// hull.mjs — the convex hull of a point set in 3D: the incremental algorithm
// with conflict lists (de Berg, Cheong, van Kreveld & Overmars,
// "Computational Geometry: Algorithms and Applications", ch. 11), taking the
// farthest outside point first as Quickhull does (Barber, Dobkin & Huhdanpaa
// 1996).  Points within a tolerance of a face count as on it, so the hull's
// faces are triangles of extreme points, oriented counter-clockwise seen
// from outside.

import { ImportError } from './error.mjs';

/**
 * @param {Float64Array | number[]} v x y z per point
 * @returns {{ vertices: number[], faces: Uint32Array }} vertices the indices into `v` of the hull's points, faces
 *   three indices into `v` per triangle
 * @throws {ImportError} when the points are fewer than 4 or all on one plane
 */
export function convexHull(v) {
  const n = v.length / 3;
  const P = (i, k) => v[3 * i + k];
  let extent = 0;
  for (let i = 0; i < v.length; i++) extent = Math.max(extent, Math.abs(v[i]));
  const eps = 1e-12 * Math.max(extent, 1e-300) * 3;

  const sub = (a, b) => [P(a, 0) - P(b, 0), P(a, 1) - P(b, 1), P(a, 2) - P(b, 2)];
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

  // The initial tetrahedron: the two points farthest apart along an axis, the point farthest from their line,
  // the point farthest from their plane.
  let i0 = 0;
  let i1 = 0;
  let best = -1;
  for (let k = 0; k < 3; k++) {
    let lo = 0;
    let hi = 0;
    for (let i = 1; i < n; i++) {
      if (P(i, k) < P(lo, k)) lo = i;
      if (P(i, k) > P(hi, k)) hi = i;
    }
    if (P(hi, k) - P(lo, k) > best) [best, i0, i1] = [P(hi, k) - P(lo, k), lo, hi];
  }
  if (n < 4 || !(best > eps)) throw new ImportError(`a convex hull needs 4 points not on one plane (${n} points)`);
  const d01 = sub(i1, i0);
  let i2 = -1;
  best = eps * best;
  for (let i = 0; i < n; i++) {
    const c = cross(d01, sub(i, i0));
    const s = Math.sqrt(dot(c, c));
    if (s > best) [best, i2] = [s, i];
  }
  if (i2 < 0) throw new ImportError('a convex hull of points all on one line');
  const n012 = cross(d01, sub(i2, i0));
  const unit = Math.sqrt(dot(n012, n012));
  let i3 = -1;
  best = eps;
  for (let i = 0; i < n; i++) {
    const s = Math.abs(dot(n012, sub(i, i0))) / unit;
    if (s > best) [best, i3] = [s, i];
  }
  if (i3 < 0) throw new ImportError('a convex hull of points all on one plane');

  /** Faces: a, b, c (counter-clockwise from outside), unit normal, offset, outside points, alive. */
  const faces = [];
  const edges = new Map(); // directed edge a→b (a * n + b) -> face index
  function addFace(a, b, c) {
    const nrm = cross(sub(b, a), sub(c, a));
    const len = Math.sqrt(dot(nrm, nrm)) || 1;
    const u = nrm.map((x) => x / len);
    const f = { a, b, c, n: u, d: u[0] * P(a, 0) + u[1] * P(a, 1) + u[2] * P(a, 2), outside: [], alive: true };
    faces.push(f);
    const id = faces.length - 1;
    edges.set(a * n + b, id);
    edges.set(b * n + c, id);
    edges.set(c * n + a, id);
    return id;
  }
  const dist = (f, i) => f.n[0] * P(i, 0) + f.n[1] * P(i, 1) + f.n[2] * P(i, 2) - f.d;

  // Orient the tetrahedron's faces outward.
  const above = dot(n012, sub(i3, i0)) > 0;
  const [a, b, c] = above ? [i0, i2, i1] : [i0, i1, i2];
  addFace(a, b, c);
  addFace(a, i3, b);
  addFace(b, i3, c);
  addFace(c, i3, a);

  function assign(points, candidates) {
    for (const i of points) {
      for (const id of candidates) {
        if (dist(faces[id], i) > eps) { faces[id].outside.push(i); break; }
      }
    }
  }
  const all = [];
  for (let i = 0; i < n; i++) if (i !== i0 && i !== i1 && i !== i2 && i !== i3) all.push(i);
  assign(all, [0, 1, 2, 3]);

  const stack = [0, 1, 2, 3];
  while (stack.length) {
    const id = stack.pop();
    const f = faces[id];
    if (!f.alive || !f.outside.length) continue;
    // The farthest outside point.
    let eye = f.outside[0];
    let far = dist(f, eye);
    for (const i of f.outside) {
      const s = dist(f, i);
      if (s > far) [far, eye] = [s, i];
    }
    // The faces it sees, found across edges from this one; the horizon is where they meet faces it does not see.
    const visible = new Set([id]);
    const todo = [id];
    const horizon = [];
    while (todo.length) {
      const g = faces[todo.pop()];
      for (const [p, q] of [[g.a, g.b], [g.b, g.c], [g.c, g.a]]) {
        const other = edges.get(q * n + p);
        if (visible.has(other)) continue;
        if (dist(faces[other], eye) > eps) {
          visible.add(other);
          todo.push(other);
        } else {
          horizon.push([p, q]);
        }
      }
    }
    const orphans = [];
    for (const g of visible) {
      const h = faces[g];
      h.alive = false;
      for (const i of h.outside) if (i !== eye) orphans.push(i);
      h.outside = [];
      for (const [p, q] of [[h.a, h.b], [h.b, h.c], [h.c, h.a]]) if (edges.get(p * n + q) === g) edges.delete(p * n + q);
    }
    const created = horizon.map(([p, q]) => addFace(p, q, eye));
    assign(orphans, created);
    stack.push(...created);
  }

  const out = [];
  const used = new Set();
  for (const f of faces) {
    if (!f.alive) continue;
    out.push(f.a, f.b, f.c);
    used.add(f.a).add(f.b).add(f.c);
  }
  return { vertices: [...used].sort((x, y) => x - y), faces: Uint32Array.from(out) };
}
