// contact_solve.mjs — the Unitree Go2 standing on the floor: one step of the generated engine in WebAssembly (the
// jit's module, generateCode's WebAssembly) against mujoco-js's mj_step on the same scene.  Not a test: it prints a
// table (docs/benchmarks.md, "The constraint solve").
//
//   node bench/contact_solve.mjs            (after `npm run build`; needs the shared robots' unitree_go2 folder)
//
// Both sides: the scene.xml with the go2.xml it includes, MuJoCo's step (0.002 s), started at the 'home' keyframe,
// the same PD law on every actuator, ctrl = kp (q* − q) − kd qd to the keyframe's joint angles, set from
// JavaScript before each step; SETTLE steps untimed, then the fastest of ROUNDS runs of STEPS steps (CPU time, the
// three runs below taking turns).  Ours: the
// importer's colliders on the floor (the scene's plane when the import gives it, else sim.setFloor(true, 0)).  The
// constraint solve's share of our step: 1 − (a step with the floor off, from the same state: the robot in free fall,
// the same dynamics and integration; with the scene's own plane, 100 m above it) / (a step standing).
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { importModel, openModel } from '../wasm/index.mjs';
import { loadMujoco, mujocoFromFiles } from '../tests/node/mujoco-side.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
// The robots' folder as tests/node/import-mesh.test.mjs finds it (MECH_ROBOTS names another).
const robots = process.env.MECH_ROBOTS ?? [join(root, '../shared/data/robots'), join(root, '../../shared/data/robots')]
  .find((d) => existsSync(d)) ?? '';
const dir = join(robots, 'unitree_go2');
const KP = 100, KD = 2, DT = 0.002;
const SETTLE = 500, STEPS = 2000, ROUNDS = 5;

const cpu = () => {
  try {
    return /Model name:\s*(.*)/.exec(execSync('lscpu', { encoding: 'utf8' }))[1];
  } catch {
    return 'unknown CPU';
  }
};

if (!existsSync(join(dir, 'scene.xml'))) {
  console.log(`contact_solve: skipped, ${dir} is not here`);
  process.exit(0);
}

/** The .xml and .obj files of the robot's folder, by their path relative to it. */
function folder() {
  const out = {};
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, e.name);
      if (e.isDirectory()) walk(path);
      else if (/\.(xml|obj)$/i.test(e.name)) out[relative(dir, path).split('\\').join('/')] = new Uint8Array(readFileSync(path));
    }
  };
  walk(dir);
  return out;
}

const files = folder();
const scene = new TextDecoder().decode(files['scene.xml']);
delete files['scene.xml'];

const cpuUs = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/** µs of this process's CPU time per step of each run(n) doing n steps, taking turns round by round: the fastest of ROUNDS. */
function usPerStep(runs) {
  const best = runs.map(() => Infinity);
  for (let r = 0; r < ROUNDS; r++) {
    runs.forEach((run, i) => {
      const t0 = cpuUs();
      run(STEPS);
      best[i] = Math.min(best[i], (cpuUs() - t0) / STEPS);
    });
  }
  return best;
}

// ---- ours: the jit's WebAssembly of the imported model ----
const imported = await importModel(scene, { name: 'scene.xml', files });
const sim = await openModel({ text: imported.text, name: 'go2' }, { backend: 'jit' });
const model = sim.describe();
const ownPlane = model.statics.some((s) => s.type === 'plane');
if (!ownPlane) sim.setFloor(true, 0);
sim.resetToKeyframe('home');

// ---- MuJoCo: the same folder in its file system (base_4.obj is not shipped: its mesh and geom go) ----
const mjFiles = { ...files, 'scene.xml': scene };
mjFiles['go2.xml'] = new TextDecoder().decode(files['go2.xml'])
  .replace(/<mesh file="base_4\.obj" \/>/, '')
  .replace(/<geom mesh="base_4"[^>]*\/>/, '');
const mj = await loadMujoco();
const mjModel = await mujocoFromFiles('scene.xml', mjFiles);
const data = new mj.MjData(mjModel);
const home = mj.mj_name2id(mjModel, mj.mjtObj.mjOBJ_KEY.value, 'home');
mj.mj_resetDataKeyframe(mjModel, data, home);
sim.q[6] = data.qpos[2]; // the keyframe's base height (the import keeps the free joint's initial state)

// The PD law on both sides, each actuator to its joint.
const ours = model.actuators.map((a) => [model.bodies[a.joint].qidx, model.bodies[a.joint].vidx]);
const qStar = Float64Array.from(sim.q);
const oursStep = (n) => {
  const { q, qd, ctrl } = sim;
  for (let k = 0; k < n; k++) {
    for (let i = 0; i < ours.length; i++) ctrl[i] = KP * (qStar[ours[i][0]] - q[ours[i][0]]) - KD * qd[ours[i][1]];
    sim.step(DT);
  }
};
const theirs = [];
for (let i = 0; i < mjModel.nu; i++) {
  const j = mjModel.actuator_trnid[2 * i];
  theirs.push([mjModel.jnt_qposadr[j], mjModel.jnt_dofadr[j]]);
}
const mjStar = Float64Array.from(data.qpos);
const mjStep = (n) => {
  const ctrl = data.ctrl, qpos = data.qpos, qvel = data.qvel;
  for (let k = 0; k < n; k++) {
    for (let i = 0; i < theirs.length; i++) ctrl[i] = KP * (mjStar[theirs[i][0]] - qpos[theirs[i][0]]) - KD * qvel[theirs[i][1]];
    mj.mj_step(mjModel, data);
  }
};

oursStep(SETTLE);
mjStep(SETTLE);
const standing = sim.saveState();
const stats = sim.solverStats();
const contacts = sim.contacts().length / 6;
// The step without the solve: the floor off, or with the scene's own plane the robot 100 m above it.
const floor = (on) => { if (!ownPlane) sim.setFloor(on, 0); };
let height = 0;
const [oursUs, fallingUs, mjUs] = usPerStep([
  (n) => { floor(true); sim.restoreState(standing); oursStep(n); height = sim.q[6]; },
  (n) => { floor(false); sim.restoreState(standing); if (ownPlane) sim.q[6] += 100; oursStep(n); },
  mjStep,
]);

console.log(`Go2 standing (kp ${KP}, kd ${KD}, dt ${DT} s), ${cpu()}, Node ${process.version}`);
console.log(`  floor: ${ownPlane ? "the scene's plane" : 'sim.setFloor(true, 0) (the import has no plane)'}; ` +
  `ours ${contacts} contacts, ${stats.rows} rows, ${stats.sweeps} sweeps, base ${height.toFixed(4)} m; ` +
  `MuJoCo ${data.ncon} contacts, base ${data.qpos[2].toFixed(4)} m`);
console.log('  engine                          µs/step');
console.log(`  mech generated (jit) + solve    ${oursUs.toFixed(2).padStart(8)}`);
console.log(`  the same, floor off (no solve)  ${fallingUs.toFixed(2).padStart(8)}`);
console.log(`  mujoco-js 0.0.7 mj_step         ${mjUs.toFixed(2).padStart(8)}`);
console.log(`  mj_step / ours: ${(mjUs / oursUs).toFixed(2)}×; the constraint solve's share of our step: ` +
  `${(100 * (1 - fallingUs / oursUs)).toFixed(0)} %`);
data.delete();
mjModel.delete();
sim.dispose();
