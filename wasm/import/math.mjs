// math.mjs — the rotation and rigid-body arithmetic of the importer:
// quaternions (w x y z, R(q) v = q ⊗ (0, v) ⊗ q*, as in docs/conventions.md),
// rigid transforms { p, q } and the mass properties of welded parts.  Plain
// numbers only, no dependencies.

/** @returns {number[]} a ⊗ b */
export function qmul(a, b) {
  return [
    a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
    a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
    a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
    a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
  ];
}

/** q / |q|, or null for a zero (or non-finite) quaternion. */
export function qnormalize(q) {
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  if (!(n > 0) || !Number.isFinite(n)) return null;
  return q.map((x) => x / n);
}

/** The rotation by `angle` radians about `axis` (any length > 0), or null for a zero axis. */
export function qAxisAngle(axis, angle) {
  const n = Math.hypot(axis[0], axis[1], axis[2]);
  if (!(n > 0) || !Number.isFinite(n)) return null;
  const s = Math.sin(angle / 2) / n;
  return [Math.cos(angle / 2), axis[0] * s, axis[1] * s, axis[2] * s];
}

/** R(q) v. */
export function qrot(q, v) {
  const m = qToMat(q);
  return [
    m[0] * v[0] + m[1] * v[1] + m[2] * v[2],
    m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
    m[6] * v[0] + m[7] * v[1] + m[8] * v[2],
  ];
}

/** The row-major rotation matrix of a unit quaternion. */
export function qToMat(q) {
  const [w, x, y, z] = q;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}

/** The unit quaternion of a rotation matrix (row-major, columns the rotated axes); Shepperd's method. */
export function matToQ(m) {
  const t = m[0] + m[4] + m[8];
  let q;
  if (t > 0) {
    const s = 2 * Math.sqrt(1 + t);
    q = [s / 4, (m[7] - m[5]) / s, (m[2] - m[6]) / s, (m[3] - m[1]) / s];
  } else if (m[0] > m[4] && m[0] > m[8]) {
    const s = 2 * Math.sqrt(1 + m[0] - m[4] - m[8]);
    q = [(m[7] - m[5]) / s, s / 4, (m[1] + m[3]) / s, (m[2] + m[6]) / s];
  } else if (m[4] > m[8]) {
    const s = 2 * Math.sqrt(1 + m[4] - m[0] - m[8]);
    q = [(m[2] - m[6]) / s, (m[1] + m[3]) / s, s / 4, (m[5] + m[7]) / s];
  } else {
    const s = 2 * Math.sqrt(1 + m[8] - m[0] - m[4]);
    q = [(m[3] - m[1]) / s, (m[2] + m[6]) / s, (m[5] + m[7]) / s, s / 4];
  }
  return qnormalize(q) ?? [1, 0, 0, 0];
}

/** [axis, angle in radians] of a unit quaternion; angle 0 (axis z) for the identity. */
export function qToAxisAngle(q) {
  const [w, x, y, z] = w0(q);
  const s = Math.hypot(x, y, z);
  if (s === 0) return [[0, 0, 1], 0];
  return [[x / s, y / s, z / s], 2 * Math.atan2(s, w)];
}

/** The same rotation with w >= 0. */
function w0(q) {
  return q[0] < 0 ? q.map((x) => -x) : q;
}

/** Rigid transforms { p, q }: a frame's origin and attitude in its parent's coordinates. */
export const IDENTITY_T = Object.freeze({ p: [0, 0, 0], q: [1, 0, 0, 0] });

/** a ∘ b: b's frame given in a's, returned in a's parent. */
export function compose(a, b) {
  const r = qrot(a.q, b.p);
  return { p: [a.p[0] + r[0], a.p[1] + r[1], a.p[2] + r[2]], q: qnormalize(qmul(a.q, b.q)) ?? [1, 0, 0, 0] };
}

/** A point given in t's frame, in t's parent. */
export function apply(t, v) {
  const r = qrot(t.q, v);
  return [t.p[0] + r[0], t.p[1] + r[1], t.p[2] + r[2]];
}

/** R I Rᵀ for a row-major 3×3 I and the rotation of q. */
export function rotateInertia(q, I) {
  const R = qToMat(q);
  const RI = new Array(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) RI[3 * i + j] += R[3 * i + k] * I[3 * k + j];
  const out = new Array(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) out[3 * i + j] += RI[3 * i + k] * R[3 * j + k];
  // Exactly symmetric, as the tensor is.
  for (let i = 0; i < 3; i++) for (let j = i + 1; j < 3; j++) out[3 * j + i] = out[3 * i + j] = (out[3 * i + j] + out[3 * j + i]) / 2;
  return out;
}

/**
 * The mass properties of parts welded together, each { mass, com, inertia }
 * (com and the inertia about it, row-major, all in one frame): total mass,
 * combined centre of mass and the inertia about it (parallel-axis theorem).
 */
export function combineMass(parts) {
  const used = parts.filter((p) => p.mass > 0);
  const mass = used.reduce((s, p) => s + p.mass, 0);
  if (!(mass > 0)) return { mass: 0, com: [0, 0, 0], inertia: new Array(9).fill(0) };
  if (used.length === 1) return { mass, com: [...used[0].com], inertia: [...used[0].inertia] };
  const com = [0, 1, 2].map((k) => used.reduce((s, p) => s + p.mass * p.com[k], 0) / mass);
  const inertia = new Array(9).fill(0);
  for (const p of used) {
    const d = [p.com[0] - com[0], p.com[1] - com[1], p.com[2] - com[2]];
    const dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        inertia[3 * i + j] += p.inertia[3 * i + j] + p.mass * ((i === j ? dd : 0) - d[i] * d[j]);
      }
    }
  }
  return { mass, com, inertia };
}

/**
 * Symmetric 3×3 A (row-major) = V diag(d) Vᵀ by cyclic Jacobi run to machine precision (as tests/mujoco/mjcf.c does in C);
 * V's columns are the eigenvectors, det V = +1.
 */
export function eigSym3(A) {
  const a = [...A];
  const v = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  for (let sweep = 0; sweep < 64; sweep++) {
    const off = Math.abs(a[1]) + Math.abs(a[2]) + Math.abs(a[5]);
    if (off === 0) break;
    for (const [p, q] of [[0, 1], [0, 2], [1, 2]]) {
      const apq = a[3 * p + q];
      if (apq === 0) continue;
      const theta = (a[3 * q + q] - a[3 * p + p]) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1);
      const s = t * c;
      // A ← Jᵀ A J with the rotation J in the (p, q) plane.
      for (let k = 0; k < 3; k++) {
        const akp = a[3 * k + p];
        const akq = a[3 * k + q];
        a[3 * k + p] = c * akp - s * akq;
        a[3 * k + q] = s * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[3 * p + k];
        const aqk = a[3 * q + k];
        a[3 * p + k] = c * apk - s * aqk;
        a[3 * q + k] = s * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[3 * k + p];
        const vkq = v[3 * k + q];
        v[3 * k + p] = c * vkp - s * vkq;
        v[3 * k + q] = s * vkp + c * vkq;
      }
    }
  }
  const det = v[0] * (v[4] * v[8] - v[5] * v[7]) - v[1] * (v[3] * v[8] - v[5] * v[6]) + v[2] * (v[3] * v[7] - v[4] * v[6]);
  if (det < 0) for (let k = 0; k < 3; k++) v[3 * k + 2] = -v[3 * k + 2];
  return { d: [a[0], a[4], a[8]], V: v };
}

/** diag(a, b, c) row-major. */
export function diag3(a, b, c) {
  return [a, 0, 0, 0, b, 0, 0, 0, c];
}
