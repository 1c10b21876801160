// mujoco-eig.mjs — the principal axes of an inertia as MuJoCo's compiler
// finds them (mjuu_eig3 in its user_util.cc, Apache-2.0): a Jacobi iteration
// on a quaternion that stops when the largest off-diagonal element is below
// 1e-12 in absolute terms.  For a small body (inertia ~1e-7 kg m²) it stops
// early, so MuJoCo's compiled principal moments differ from the tensor's by
// up to ~1e-5 relative; a mesh geom's inertia and a body's inertia summed from
// several geoms are what this iteration returns, and the importer reproduces
// it operation for operation to give the model MuJoCo compiles.

const EPS = 1e-14; // MuJoCo's mjEPS in its compiler
const EIG_EPS = 1e-12;

function normvec(v) {
  let nrm = 0;
  for (const x of v) nrm += x * x;
  if (nrm < EPS) return v;
  nrm = Math.sqrt(nrm);
  return Math.abs(nrm - 1) > EPS ? v.map((x) => x / nrm) : v;
}

/** MuJoCo's mjuu_quat2mat: row-major. */
export function quat2mat(q) {
  if (q[0] === 1 && q[1] === 0 && q[2] === 0 && q[3] === 0) return [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const [q00, q01, q02, q03] = [q[0] * q[0], q[0] * q[1], q[0] * q[2], q[0] * q[3]];
  const [q11, q12, q13, q22, q23, q33] = [q[1] * q[1], q[1] * q[2], q[1] * q[3], q[2] * q[2], q[2] * q[3], q[3] * q[3]];
  return [
    q00 + q11 - q22 - q33, 2 * (q12 - q03), 2 * (q13 + q02),
    2 * (q12 + q03), q00 - q11 + q22 - q33, 2 * (q23 - q01),
    2 * (q13 - q02), 2 * (q23 + q01), q00 - q11 - q22 + q33,
  ];
}

/** MuJoCo's mjuu_mulquat (normalized). */
export function mulquat(a, b) {
  return normvec([
    a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
    a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
    a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
    a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
  ]);
}

function mulmat(A, B) {
  const r = new Array(9);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) r[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
  return r;
}

const transpose = (m) => [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]];

/**
 * MuJoCo's mjuu_eig3 of a symmetric 3×3 (row-major): eigenvalues in decreasing order and the quaternion whose
 * rotation matrix has the eigenvectors as columns.
 * @param {number[]} mat @returns {{ eigval: number[], quat: number[] }}
 */
export function mujocoEig3(mat) {
  let quat = [1, 0, 0, 0];
  const eigval = [0, 0, 0];
  for (let iter = 0; iter < 500; iter++) {
    const eigvec = quat2mat(quat);
    const D = mulmat(mulmat(transpose(eigvec), mat), eigvec);
    eigval[0] = D[0];
    eigval[1] = D[4];
    eigval[2] = D[8];
    let rk;
    let ck;
    let rotk;
    if (Math.abs(D[1]) > Math.abs(D[2]) && Math.abs(D[1]) > Math.abs(D[5])) [rk, ck, rotk] = [0, 1, 2];
    else if (Math.abs(D[2]) > Math.abs(D[5])) [rk, ck, rotk] = [0, 2, 1];
    else [rk, ck, rotk] = [1, 2, 0];
    if (Math.abs(D[3 * rk + ck]) < EIG_EPS) break;
    const tau = (D[4 * ck] - D[4 * rk]) / (2 * D[3 * rk + ck]);
    const t = tau >= 0 ? 1.0 / (tau + Math.sqrt(1 + tau * tau)) : -1.0 / (-tau + Math.sqrt(1 + tau * tau));
    const c = 1.0 / Math.sqrt(1 + t * t);
    if (c > 1.0 - EIG_EPS) break;
    const tmp = [0, 0, 0, 0];
    tmp[rotk + 1] = tau >= 0 ? -Math.sqrt(0.5 - 0.5 * c) : Math.sqrt(0.5 - 0.5 * c);
    if (rotk === 1) tmp[rotk + 1] = -tmp[rotk + 1];
    tmp[0] = Math.sqrt(1.0 - tmp[rotk + 1] * tmp[rotk + 1]);
    quat = normvec(mulquat(quat, normvec(tmp)));
  }
  // Sort in decreasing order (bubble sort: 0, 1, 0), turning the frame with each swap.
  for (let j = 0; j < 3; j++) {
    const j1 = j % 2;
    if (eigval[j1] + EIG_EPS < eigval[j1 + 1]) {
      [eigval[j1], eigval[j1 + 1]] = [eigval[j1 + 1], eigval[j1]];
      const tmp = [0.707106781186548, 0, 0, 0];
      tmp[((j1 + 2) % 3) + 1] = tmp[0];
      quat = normvec(mulquat(quat, tmp));
    }
  }
  return { eigval, quat };
}

/** R(q) diag(d) Rᵀ, row-major (MuJoCo's mjuu_globalinertia, as a full matrix). */
export function globalInertia(d, q) {
  const m = quat2mat(q);
  const out = new Array(9);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) out[3 * i + j] = m[3 * i] * d[0] * m[3 * j] + m[3 * i + 1] * d[1] * m[3 * j + 1] + m[3 * i + 2] * d[2] * m[3 * j + 2];
  return out;
}

/**
 * A full inertia (row-major) as MuJoCo's compiler keeps it: its principal moments and axes from mjuu_eig3, put
 * back together.
 */
export function asMujocoCompiles(I) {
  const { eigval, quat } = mujocoEig3(I);
  return globalInertia(eigval, quat);
}
