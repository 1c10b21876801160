// mujoco-side.mjs — the MuJoCo half of the importer's cross-check (import.test.mjs) and of the robots' benchmark
// (bench/wasm_bench.mjs): mujoco-js, the model text MuJoCo is given, and moving states between MuJoCo's
// coordinates and ours (docs/mujoco-mapping.md).
import { eigSym3, matToQ, qToMat } from '../../wasm/import/math.mjs';

let mujoco = null;
let files = 0;

/** mujoco-js, loaded once. */
export async function loadMujoco() {
  if (!mujoco) {
    const { default: load } = await import('mujoco-js');
    mujoco = await load();
    mujoco.FS.mkdir('/import');
  }
  return mujoco;
}

/** A MuJoCo model from MJCF or URDF text (mujoco-js reads from its in-memory file system). */
export async function mujocoModel(text, ext) {
  const mj = await loadMujoco();
  const path = `/import/m${files++}.${ext}`;
  mj.FS.writeFile(path, text);
  const model = mj.MjModel.loadFromXML(path);
  mj.FS.unlink(path);
  return model;
}

/**
 * MJCF's fullinertia="M11 M22 M33 M12 M13 M23" as quat + diaginertia diagonalised here: MuJoCo's own
 * decomposition of fullinertia is off by up to 5e-7 relative on the Panda's link1 (measured with mujoco-js
 * 0.0.7), too coarse for a 1e-9 gate; R diag Rᵀ of the exact decomposition reproduces the matrix to ~1e-17.
 */
export function exactFullInertia(xml) {
  return xml.replace(/fullinertia="([^"]*)"/g, (_, v) => {
    const [a, b, c, d, e, f] = v.trim().split(/\s+/).map(Number);
    const { d: diag, V } = eigSym3([a, d, e, d, b, f, e, f, c]);
    return `quat="${matToQ(V).join(' ')}" diaginertia="${diag.join(' ')}"`;
  });
}

// What MuJoCo leaves out so that its dynamics are the .mech model's: contacts, limits, equality constraints and
// friction loss (joint damping, springs and actuators kept; actuatorLayout silences the ones not imported).
const FLAGS = '<flag contact="disable" limit="disable" equality="disable" frictionloss="disable"/>';
const DISABLED = ['mjDSBL_CONTACT', 'mjDSBL_LIMIT', 'mjDSBL_EQUALITY', 'mjDSBL_FRICTIONLOSS'];

/** The MJCF text MuJoCo gets: `<option>` with FLAGS and meshes (files not shipped) removed. */
export function forMujoco(xml) {
  return withFlags(exactFullInertia(xml)
    .replace(/<mesh [^>]*\/>/g, '')
    .replace(/<geom [^>]*mesh="[^"]*"[^>]*\/>/g, ''));
}

/** MJCF text with FLAGS in its `<option>` (added when it has none). */
export function withFlags(xml) {
  if (/<option[^>]*\/>/.test(xml)) return xml.replace(/<option([^>]*)\/>/, `<option$1>${FLAGS}</option>`);
  return xml.replace(/(<mujoco[^>]*>)/, `$1<option>${FLAGS}</option>`);
}

let folders = 0;
/** MuJoCo's model of `main` among `files` ({ 'relative/path': string | Uint8Array }), written into its file system. */
export async function mujocoFromFiles(main, files) {
  const mj = await loadMujoco();
  const base = `/import/f${folders++}`;
  mj.FS.mkdir(base);
  for (const [path, data] of Object.entries(files)) {
    const parts = path.split('/');
    for (let k = 1; k < parts.length; k++) {
      const dir = `${base}/${parts.slice(0, k).join('/')}`;
      if (!mj.FS.analyzePath(dir).exists) mj.FS.mkdir(dir);
    }
    mj.FS.writeFile(`${base}/${path}`, data);
  }
  return mj.MjModel.loadFromXML(`${base}/${main}`);
}

/**
 * A robot file as MuJoCo loads it for comparison with its import: MJCF through forMujoco; URDF as it is (its
 * <mujoco> extension takes no <option>), with FLAGS' switches set in the loaded model's disableflags.
 */
export async function mujocoRobot(text, format) {
  if (format === 'mjcf') return mujocoModel(forMujoco(text), 'xml');
  const mj = await loadMujoco();
  const model = await mujocoModel(text, 'urdf');
  for (const bit of DISABLED) model.opt.disableflags |= mj.mjtDisableBit[bit].value;
  return model;
}

/**
 * MuJoCo's actuators matched to the Sim's by name: [{ mu (MuJoCo's index), ours (index in sim.ctrl) }]. One the
 * import dropped (a tendon transmission) is silenced, its gain and bias zeroed, so both sides have the same forces.
 */
export function actuatorLayout(mj, model, sim) {
  const ours = sim.describe().actuators.map((/** @type {{ name: string }} */ a) => a.name);
  const stride = model.nu ? model.actuator_gainprm.length / model.nu : 0;
  const pairs = [];
  for (let i = 0; i < model.nu; i++) {
    const k = ours.indexOf(mj.mj_id2name(model, mj.mjtObj.mjOBJ_ACTUATOR.value, i));
    if (k >= 0) {
      pairs.push({ mu: i, ours: k });
    } else {
      model.actuator_gainprm.fill(0, stride * i, stride * (i + 1));
      model.actuator_biasprm.fill(0, stride * i, stride * (i + 1));
    }
  }
  return pairs;
}

/**
 * A MuJoCo model of free, ball, hinge and slide joints and a .mech Sim: MuJoCo's qacc mapped to our qdd at the Sim's (q, qd, tau) and,
 * through `actuators` (actuatorLayout), its ctrl.
 */
export function mujocoQdd(mj, model, data, sim, layout, actuators = []) {
  const { q, qd, tau } = sim;
  for (const a of actuators) data.ctrl[a.mu] = sim.ctrl[a.ours];
  const out = new Float64Array(sim.nv);
  // Fill MuJoCo's state joint by joint.
  for (const j of layout) {
    if (j.free) {
      const Q = q.subarray(j.q, j.q + 4);
      const R = qToMat(Q);
      const w = qd.subarray(j.v, j.v + 3);
      const v = qd.subarray(j.v + 3, j.v + 6);
      const n = tau.subarray(j.v, j.v + 3);
      const f = tau.subarray(j.v + 3, j.v + 6);
      const Rv = (x) => [0, 1, 2].map((r) => R[3 * r] * x[0] + R[3 * r + 1] * x[1] + R[3 * r + 2] * x[2]);
      data.qpos.set([...q.subarray(j.q + 4, j.q + 7), ...Q], j.mq);
      data.qvel.set([...Rv(v), ...w], j.mv);
      data.qfrc_applied.set([...Rv(f), ...n], j.mv);
    } else if (j.ball) { // the same coordinates: a quaternion, the body-frame angular velocity
      data.qpos.set(q.subarray(j.q, j.q + 4), j.mq);
      data.qvel.set(qd.subarray(j.v, j.v + 3), j.mv);
      data.qfrc_applied.set(tau.subarray(j.v, j.v + 3), j.mv);
    } else {
      data.qpos[j.mq] = q[j.q];
      data.qvel[j.mv] = qd[j.v];
      data.qfrc_applied[j.mv] = tau[j.v];
    }
  }
  mj.mj_forward(model, data);
  const a = data.qacc;
  for (const j of layout) {
    if (j.free) {
      const R = qToMat(q.subarray(j.q, j.q + 4));
      const w = qd.subarray(j.v, j.v + 3);
      const v = qd.subarray(j.v + 3, j.v + 6);
      const lin = [a[j.mv], a[j.mv + 1], a[j.mv + 2]];
      const RtL = [0, 1, 2].map((c) => R[c] * lin[0] + R[3 + c] * lin[1] + R[6 + c] * lin[2]);
      const wxv = [w[1] * v[2] - w[2] * v[1], w[2] * v[0] - w[0] * v[2], w[0] * v[1] - w[1] * v[0]];
      out.set([a[j.mv + 3], a[j.mv + 4], a[j.mv + 5]], j.v);
      out.set([0, 1, 2].map((k) => RtL[k] - wxv[k]), j.v + 3);
    } else if (j.ball) {
      out.set([a[j.mv], a[j.mv + 1], a[j.mv + 2]], j.v);
    } else {
      out[j.v] = a[j.mv];
    }
  }
  return out;
}

/**
 * Where each MuJoCo joint's coordinates are, on both sides, matched by the body that carries it (our body
 * names are the source's): [{ free, ball, q, v (ours), mq, mv (MuJoCo's) }].
 */
export function jointLayout(mj, model, sim) {
  const bodies = sim.describe().bodies;
  const layout = [];
  for (let j = 0; j < model.njnt; j++) {
    const b = model.jnt_bodyid[j];
    const name = mj.mj_id2name(model, 1 /* mjOBJ_BODY */, b);
    const ours = bodies.find((x) => x.name === name);
    if (!ours) throw new Error(`no body '${name}' in the imported model`);
    layout.push({ free: model.jnt_type[j] === 0, ball: model.jnt_type[j] === 1, q: ours.qidx, v: ours.vidx, mq: model.jnt_qposadr[j], mv: model.jnt_dofadr[j] });
  }
  return layout;
}
