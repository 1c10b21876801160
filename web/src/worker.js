// worker.js — owns the simulation. The page sends requests ({id, op, ...}) and gets one reply per request
// ({id, ok, value} or {id, ok: false, error}). While the page plays, the worker steps on its own toward
// wall-clock time × time scale (pace), in slices of at most the page's budget of work, answering requests
// between slices: a 'frame' request is answered with the latest state, so drawing and stepping never wait on
// each other. One step cannot be interrupted here: when a single step alone takes seconds, the page's watchdog
// (STEP_LIMIT_MS in engine.js) terminates this worker and starts a fresh one.

import { isXpbdModel, xpbdTexts, xpbdModelList, sampleRods, samplesFor, badRod, rodKinetic } from './xpbd-models.js';
import { driveRollers, terrainSamples } from './tracks.js';
import { Driver } from '../../wasm/drive.mjs';
import { WheelDriver, tireWheels } from '../../wasm/wheel_drive.mjs';
import { StateRing } from './timeline.js';
import { GRAB_DT, applyGrab, grabbedPoint } from './grab.js';
import * as xpbdCopy from './xpbd-copy.js';
import { SCENE_CONTROLS } from './scene-controls.js';

const SHIM = '../wasm/index.mjs'; // the repository layout is mirrored next to the page (see vite.config.js)
const shim = import(/* @vite-ignore */ new URL(SHIM, import.meta.url).href);

const RUNAWAY = 1e6;     // |qd| beyond this (rad/s, m/s) is a blow-up, not a motion
const MAX_OWED = 0.1;    // s of wall time the run may owe: beyond it the debt is dropped (slower than real time)
const MAX_STEPS = 2e6;   // steps a slice may take
const BEHIND = 0.05;     // s of wall time owed after a slice: the run is behind real time
const UNWATCHED = 1000;  // ms without a frame request after which a run stops (a hidden tab queues nothing)
const WARM_WINDOW = 25;  // ms: the warm-up's measuring window (see warmUp)
const WARM_MAX = 400;    // ms: the warm-up's cap

let sim = null;
let time = 0;
let steps = 0;
let run = null;          // while playing: { dt, timeScale, budget, owed (s of wall time), last (ms), seen (ms), behind }
let halted = null;       // a blow-up the run stopped at, for the next frame to report
let recorded = 0;        // steps at the last state kept on the time line
let paceQueued = false;  // a slice is scheduled
let meter = null;        // the run's work (ms) and frames since `since` (ms)
let load = null;         // over the last second played: { busy (fraction of wall time stepping), stepMs, snapshotMs }
let stepCost = Infinity; // ms per step, measured per model; unknown (one step at a time) until measured
let inputs = { tau: [], act: [], gravity: null, brake: [], throttle: 0, steer: 0 };
let rods = [];           // sim.rods() of an XPBD model with rods
let rodBefore = null;    // their node positions when the last step began (null: no step since open or reset)
let rodDt = 0;           // that step's dt
let drives = [];         // the drive rollers of a tracked model (tracks.js), or a wheeled one's tire wheels: brake[i] acts on drives[i]
let driver = null;       // with drive rollers or tires: throttle, steer and brakes (wasm/drive.mjs, wheel_drive.mjs), set before each step
let initialQ = null;     // the state a hold pose holds before a keyframe is picked
let hasGround = false;   // the model has a ground: frames carry its reaction
let ring = null;         // the time line: the states of the last frames (timeline.js)
let grab = null;         // a Ctrl+drag: { body, point (body frame), target (world) } (grab.js)
let masses = [];         // per body, for the pull
let model = null;        // sim.describe() of the open model
let push = null;         // a scene control's push (scene-controls.js) under way, with `done`: its steps so far
let openedFrom = null;   // the open model's source: a shipped name or { text, name } (what the jit compiles)
let openedFiles;         // the mesh files it was opened with (openModel's files: its colliding meshes' hulls)
let opens = 0;           // models opened so far: the open a jit request is for
let floor = null;        // the page's floor as a collider (setFloor): its height, or null when off
let showContacts = false; // frames carry the contacts of the last step (contact-draw.js)

function errorInfo(e) {
  const line = Number.isInteger(e?.line) ? e.line : 0;
  const column = Number.isInteger(e?.column) ? e.column : 0;
  let message = String(e?.message ?? e);
  // MechError messages read "name:line:col: what"; the page shows the place itself.
  const place = `:${line}:${column}: `;
  if (line && message.includes(place)) message = message.slice(message.indexOf(place) + place.length);
  return { name: e?.name ?? 'Error', message, line, column };
}

function applyInputs() {
  const { tau, act, gravity } = inputs;
  for (let i = 0; i < sim.tau.length; i++) sim.tau[i] = Number.isFinite(tau[i]) ? tau[i] : 0;
  for (let i = 0; i < sim.act.length; i++) sim.act[i] = Number.isFinite(act[i]) ? act[i] : 0;
  if (gravity) sim.gravity.set(gravity); // an input of every engine
  // The drive sliders' torques as applied (finite), under the throttle, steer and brake laws.
  if (driver instanceof Driver) driver.set({ tau: drives.map((d) => sim.tau[d.vidx]) });
}

// n steps of dt: those of a push under way one at a time, each with its forces on top of the inputs. Returns
// the steps done: fewer than n when sim.step stopped at its time budget (a MechError with stepsDone; the state
// is that after them), which is no blow-up.
function stepN(dt, n) {
  const total = n;
  for (; push && n > 0; n--) {
    const tau = Float64Array.from(sim.tau);
    const fext = Float64Array.from(sim.fext);
    try {
      push.apply(sim, push.done, dt);
      stepInputs(dt, 1);
    } finally {
      sim.tau.set(tau);
      sim.fext.set(fext);
    }
    if (++push.done === push.steps) push = null;
  }
  try {
    if (n > 0) stepInputs(dt, n);
  } catch (e) {
    if (e?.stepsDone === undefined) throw e;
    return total - n + e.stepsDone;
  }
  return total;
}

// n steps of dt; with a throttle, steer or brake on, one at a time, each with the drive rollers' torques of
// its starting state (wasm/drive.mjs: motor and brake laws) on top of the drive torque the sliders set.
function stepInputs(dt, n) {
  if (rods.length) return stepRods(dt, n);
  if (inputs.hold?.on && sim.nu) return stepHolding(dt, n);
  if (!driver?.active) return sim.step(dt, n);
  driver.step(dt, n);
}

// n steps of a robot whose actuators are motors, holding its pose: one at a time, each motor's ctrl the PD law
// kp (q* − q) − kd q̇ towards the keyframe picked last (the initial state before one is), from the step's start;
// a motor on a tendon holds the tendon's length L = Σ coef q.
function stepHolding(dt, n) {
  const { kp, kd, keyframe } = inputs.hold;
  const target = keyframe >= 0 ? model.keyframes[keyframe]?.q : initialQ;
  const coordinate = (a, x, slot) => (a.joint >= 0 ? x[model.bodies[a.joint][slot]]
    : model.tendons[a.tendon].joints.reduce((s, j, k) => s + model.tendons[a.tendon].coef[k] * x[model.bodies[j][slot]], 0));
  for (let k = 0; k < n; k++) {
    model.actuators.forEach((a, i) => {
      sim.ctrl[i] = kp * (coordinate(a, target, 'qidx') - coordinate(a, sim.q, 'qidx')) - kd * coordinate(a, sim.qd, 'vidx');
    });
    sim.step(dt, 1);
  }
}

// n steps of a model with rods, keeping the nodes' positions before the last one (their kinetic energy).
function stepRods(dt, n) {
  if (n > 1) sim.step(dt, n - 1);
  rodBefore = rods.map((r, i) => Float64Array.from(sim.rodNodes(i)));
  rodDt = dt;
  sim.step(dt, 1);
}

// The first offending entry of the state, or null when it is finite with bounded velocities.
function badState() {
  const { q, qd } = sim;
  for (let i = 0; i < q.length; i++) if (!Number.isFinite(q[i])) return `q[${i}] = ${q[i]}`;
  for (let i = 0; i < qd.length; i++) {
    if (!Number.isFinite(qd[i])) return `qd[${i}] = ${qd[i]}`;
    if (Math.abs(qd[i]) > RUNAWAY) return `qd[${i}] = ${qd[i].toExponential(2)} (runaway)`;
  }
  return rods.length ? badRod(sim, rods) : null;
}

// The pull of a Ctrl+drag on its body, from the state as it is now (held for at most GRAB_DT).
function pull() {
  if (grab) applyGrab(grab, masses[grab.body], sim.poses(), sim.velocities(), sim.fext);
}

function snapshot(extra = {}) {
  const poses = Float64Array.from(sim.poses());
  const energy = sim.energy();
  return {
    time,
    steps,
    poses,
    velocities: sim.velocities(),
    state: sim.saveState(), // what a share link carries
    grab: grab && { body: grab.body, from: grabbedPoint(grab, poses).x, to: grab.target },
    timeline: ring.summary(),
    q: Float64Array.from(sim.q),
    qd: Float64Array.from(sim.qd),
    energy: energy.total,
    kinetic: energy.kinetic,
    observe: sim.engine === 'featherstone' ? sim.observe() : null,
    rods: rods.length ? sampleRods(sim, rods) : [],
    rodKinetic: rodBefore ? rodKinetic(sim, rods, rodBefore, rodDt) : rods.map(() => 0),
    ground: hasGround ? sim.groundReaction() : null,
    groundForces: hasGround ? sim.groundForces() : null,
    ghost: xpbdCopy.report(sim), // side by side: the XPBD copy
    contacts: showContacts ? contacts() : null,
    ...extra,
  };
}

// The contacts of the last step, 10 per contact: point, unit normal (Sim.contacts()), then the normal force and
// the friction force (Sim.contactForces(); zeros on XPBD, which reports none).
function contacts() {
  const points = sim.contacts();
  const forces = sim.contactForces();
  const n = points.length / 6;
  const out = new Float64Array(10 * n);
  for (let k = 0; k < n; k++) {
    out.set(points.subarray(6 * k, 6 * k + 6), 10 * k);
    if (forces.length) out.set(forces.subarray(4 * k, 4 * k + 4), 10 * k + 6);
  }
  return out;
}

// The floor on the open Sim as the page asked (off on XPBD and for a model with its own ground).
function applyFloor() {
  if (sim.engine === 'featherstone' && !model.ground) sim.setFloor(floor !== null, floor ?? 0);
}

// Runs `n` steps; on a blow-up, replays the chunk one step at a time from its start to name the first bad
// step, and leaves the state at the last good one.
let chunkStart = null;   // advance's copy of the state a chunk starts from, one array reused
function advance(dt, n) {
  if (chunkStart?.length !== sim.stateSize) chunkStart = new Float64Array(sim.stateSize);
  const start = sim.saveState(chunkStart);
  const pushed = push && { push, done: push.done };
  let failure, done = n;
  try {
    done = stepN(dt, n);
    failure = badState();
  } catch (e) {
    failure = String(e?.message ?? e);
  }
  if (!failure) {
    xpbdCopy.step(sim, dt, done);
    steps += done;
    time += done * dt;
    return null;
  }
  sim.restoreState(start);
  push = pushed && Object.assign(pushed.push, { done: pushed.done });
  for (let k = 0; k < n; k++) {
    const before = sim.saveState();
    let why;
    try {
      stepN(dt, 1);
      why = badState();
    } catch (e) {
      why = String(e?.message ?? e);
    }
    if (why) {
      sim.restoreState(before);
      return { step: steps + 1, time: time + dt, reason: why };
    }
    xpbdCopy.step(sim, dt, 1);
    steps += 1;
    time += dt;
  }
  return { step: steps + 1, time: time + dt, reason: failure };
}

// Keeps the state shown on the time line.
function record() {
  ring.push({ time, steps, state: sim.saveState(), ghost: xpbdCopy.save() });
  recorded = steps;
}

// Up to `target` steps of dt within `budget` ms of work; { done, blowup }.
function work(dt, target, budget) {
  const start = performance.now();
  let done = 0;
  let blowup = null;
  while (done < target && !blowup) {
    // Chunks sized from the measured cost of a step (kept across slices), so even the first chunk of a
    // slow model stays inside the budget; half the remaining budget at a time never overshoots by much.
    const spent = performance.now() - start;
    const n = Math.min(Math.max(1, Math.floor((budget - spent) / stepCost / 2)), target - done,
      grab ? Math.max(1, Math.floor(GRAB_DT / dt)) : Infinity);
    pull();
    const t0 = performance.now(), before = steps;
    blowup = advance(dt, n);
    done += blowup ? n : steps - before; // fewer than n when the shim's step budget stopped the chunk
    stepCost = Math.max((performance.now() - t0) / Math.max(steps - before, 1), 1e-6);
    if (performance.now() - start >= budget) break;
  }
  return { done, blowup };
}

// One slice of the run: the steps owed to wall-clock time × time scale, within the budget; then the next
// slice at once while behind, or when the next step falls due. A blow-up stops the run, and so does a page
// that stopped asking for frames.
function pace() {
  paceQueued = false;
  if (!run) return;
  const now = performance.now();
  if (now - run.seen > UNWATCHED) {
    run = null; // the page stopped asking (a hidden tab): the next frame starts a fresh run
    return;
  }
  const { dt, timeScale, budget } = run;
  applyInputs();
  run.owed = Math.min(run.owed + ((now - run.last) / 1000) * timeScale, MAX_OWED * timeScale);
  run.last = now;
  const stages = sim.stageTimes();
  const { done, blowup } = work(dt, Math.min(Math.floor(run.owed / dt), MAX_STEPS), budget);
  const after = sim.stageTimes();
  meter.work += performance.now() - now;
  meter.contact += after.contact - stages.contact + after.solve - stages.solve;
  meter.steps += done;
  run.owed = Math.max(run.owed - done * dt, 0);
  run.behind = run.owed > BEHIND * timeScale;
  if (blowup) {
    halted = blowup;
    run = null;
    return;
  }
  schedule(run.owed >= dt ? 0 : ((dt - run.owed) / timeScale) * 1000);
}

// The next slice after `ms`: at once (0) through a message to itself, which queues behind the page's requests.
const slices = new MessageChannel();
slices.port1.onmessage = pace;
function schedule(ms) {
  if (paceQueued) return;
  paceQueued = true;
  if (ms > 0) setTimeout(pace, ms);
  else slices.port2.postMessage(null);
}

// The run starts over from the state as it is now: nothing owed.
function restartPace() {
  if (run) Object.assign(run, { owed: 0, last: performance.now(), behind: false });
}

// The page's frame: play (the run goes on with these settings, the latest state back), pause (the run
// stops), or a single step. A run stopped by a blow-up reports it once, and stays stopped.
function frame({ play, single, dt, timeScale, budget }) {
  applyInputs();
  if (single || !play) run = null;
  if (halted) {
    const blowup = halted;
    halted = null;
    if (steps !== recorded) record();
    return snapshot({ behind: false, blowup });
  }
  if (single) {
    pull();
    const blowup = advance(dt, 1);
    if (steps !== recorded) record();
    return snapshot({ behind: false, blowup });
  }
  if (play) {
    if (!run) {
      run = { owed: 0, last: performance.now(), behind: false };
      meter = { since: performance.now(), work: 0, contact: 0, steps: 0, snap: 0, frames: 0 };
      load = null;
    }
    Object.assign(run, { dt, timeScale, budget, seen: performance.now() });
    schedule(0);
  }
  const t0 = performance.now();
  if (steps !== recorded) record();
  const f = snapshot({ behind: run?.behind ?? false, blowup: null, load: run ? load : null });
  if (run) measure(performance.now() - t0);
  return f;
}

// The run's load over each second: how much of it went to stepping, per step (stepMs; contactMs of it in the
// contact stage and the constraint solve, timed inside the step: Sim.stageTimes()), and per frame's copy
// (snapshotMs).
function measure(snapshotMs) {
  const now = performance.now();
  meter.snap += snapshotMs;
  meter.frames++;
  if (now - meter.since < 1000) return;
  const steps = Math.max(meter.steps, 1);
  load = { busy: meter.work / (now - meter.since), stepMs: meter.work / steps, contactMs: meter.contact / steps,
    snapshotMs: meter.snap / meter.frames };
  meter = { since: now, work: 0, contact: 0, steps: 0, snap: 0, frames: 0 };
}

// The open XPBD scene's first steps, then its state back bit for bit. V8 runs a WebAssembly function on its
// baseline code until the function has run hot, then on its optimized code, many times faster
// (docs/benchmarks.md, "Measured reasons in the code"), so without this the run's first second lags.
// Windows of WARM_WINDOW ms until one costs per step within 10 % of the one before (at once when the code is
// optimized already: a second open of the module), WARM_MAX ms at most.
function warmUp() {
  const { dt } = model;
  if (!(dt > 0)) return;
  const state = sim.saveState();
  const start = performance.now();
  let before = Infinity;
  try {
    while (performance.now() - start < WARM_MAX) {
      const t0 = performance.now();
      let n = 0;
      do {
        sim.step(dt, 1);
        n++;
      } while (performance.now() - t0 < WARM_WINDOW);
      const cost = (performance.now() - t0) / n;
      if (cost > 0.9 * before) break;
      before = cost;
    }
  } catch {
    // a scene that fails its first steps fails them again when played, and says so then
  } finally {
    sim.restoreState(state);
  }
}

// Opens a model, from its initial state at time 0, with the mesh files its text names (`files`, by path; none:
// undefined), from which its colliding meshes take their hulls.
async function open({ source, files }) {
  const { openModel } = await shim;
  // The XPBD scenes of models/xpbd (rods) run on engine 'xpbd', by name or as edited text under their name.
  const xpbdName = typeof source === 'string' ? source : source?.name;
  const xpbd = isXpbdModel(xpbdName);
  if (xpbd && typeof source === 'string') source = { text: xpbdTexts.get(source), name: source };
  const next = await openModel(source, xpbd ? { engine: 'xpbd', files } : { files });
  openedFrom = source;
  openedFiles = files;
  const id = ++opens;
  time = 0;
  steps = 0;
  run = null;
  halted = null;
  sim?.dispose();
  sim = next;
  stepCost = Infinity;
  inputs = { tau: [], act: [], gravity: null, brake: [], throttle: 0, steer: 0 };
  rods = sim.rods();
  rodBefore = null;
  model = sim.describe();
  initialQ = Float64Array.from(sim.q);
  push = null;
  masses = model.bodies.map((b) => b.mass);
  grab = null;
  ring = new StateRing();
  record();
  drives = driveRollers(model);
  driver = drives.length && sim.engine === 'featherstone' ? new Driver(sim, {}, model) : null;
  if (!drives.length && model.tires?.length && sim.engine === 'featherstone') {
    drives = tireWheels(model, sim);
    driver = new WheelDriver(sim, {}, model);
  }
  hasGround = Boolean(model.ground) && sim.engine === 'featherstone';
  floor = null; // the page sets it for this model (floor())
  if (sim.engine === 'xpbd') warmUp();
  const sideBySide = { reason: await xpbdCopy.prepare(await shim, source, sim.engine, files) };
  const samples = hasGround ? terrainSamples(model.ground) : null;
  return {
    name: sim.name,
    description: sim.description,
    backend: sim.backend,
    engine: sim.engine,
    rodInfo: rods,
    rodSamples: rods.map(samplesFor),
    nq: sim.nq,
    nv: sim.nv,
    nb: sim.nb,
    nact: sim.nact,
    bodyNames: [...sim.bodyNames],
    model,
    terrain: samples && { ...samples, h: sim.terrainHeights(samples.xs, samples.ys) },
    gravity: [...sim.gravity],
    sceneValues: liveValues(),
    sideBySide,
    open: id,
    ...snapshot(),
  };
}

// The open scene's live sliders (scene-controls.js) as the run has them: key → value, or null when this run
// has nothing for it to move (an edited scene without a motor, say).
function liveValues() {
  const out = {};
  for (const [key, v] of Object.entries(SCENE_CONTROLS[sim.name]?.values ?? {})) {
    if (!v.apply) continue;
    try {
      out[key] = v.read(sim, model);
    } catch {
      out[key] = null;
    }
  }
  return out;
}

// The open model compiled by the jit (jit-switch.js), swapped in for the runtime Sim in place: the compile awaits
// while frames go on stepping the runtime Sim, then the jit Sim takes its whole state (time, q, qd, qdd, contact)
// and its external forces between two frames; the inputs are applied to it at once. Dropped (`stale`) when
// the model of `open` (the count in its reply) is no longer the one running; a jit that refuses the model, or
// its state, rejects and leaves the runtime Sim running.
async function jit({ open: which }) {
  if (which !== opens) return { stale: true };
  const base = sim;
  const from = openedFrom;
  if (base.backend !== 'runtime' || base.engine !== 'featherstone') {
    throw new Error(`the jit compiles a model on the runtime engine; '${base.name}' runs on ${base.backend}`);
  }
  const { openModel, loadModelText } = await shim;
  const t0 = performance.now();
  const text = typeof from === 'string' ? await loadModelText(from) : from.text;
  const next = await openModel({ text, name: base.name }, { backend: 'jit', files: openedFiles });
  const compileMs = performance.now() - t0;
  if (sim !== base) {
    next.dispose();
    return { stale: true };
  }
  // The last state the runtime engine made stays on the time line: the jit's first step goes on from it.
  if (steps !== recorded) record();
  try {
    next.restoreState(sim.saveState());
    next.fext.set(sim.fext);
  } catch (e) {
    next.dispose();
    throw e;
  }
  sim.dispose();
  sim = next;
  applyFloor();
  if (driver) driver.sim = sim;
  applyInputs();
  // When the jit began to run, on the clock the page shares (timeOrigin: the worker's differs from the page's).
  const swapped = performance.timeOrigin + performance.now();
  return { stale: false, backend: sim.backend, compileMs, swapped, time, steps };
}

// Parses text in the runtime engine only to report its first error (null when it loads).
async function check({ text, name }) {
  const { openModel } = await shim;
  try {
    (await openModel({ text, name }, isXpbdModel(name) ? { engine: 'xpbd' } : { backend: 'runtime' })).dispose();
    return null;
  } catch (e) {
    return errorInfo(e);
  }
}

const ops = {
  async models() {
    const { listModels } = await shim;
    return [...(await listModels()), ...(await xpbdModelList())];
  },
  async text({ name }) {
    if (isXpbdModel(name)) return xpbdTexts.get(name);
    const { loadModelText } = await shim;
    return loadModelText(name);
  },
  open,
  check,
  // What this build's shim offers beyond opening models: the code generator (generateCode, and with it the jit).
  async features() {
    return { codegen: typeof (await shim).generateCode === 'function' };
  },
  // The model's text as generated C (a string) or WebAssembly (a Uint8Array): the Download menu (download.js).
  async generate({ text, name, target }) {
    const { generateCode } = await shim;
    return generateCode(text, { target, name });
  },
  jit,
  inputs(msg) {
    const brake = msg.brake ?? [];
    const throttle = msg.throttle ?? 0;
    const steer = msg.steer ?? 0;
    // A bad brake level, throttle or steer is refused with the reason (driver.set changes nothing then), and
    // the inputs before it stay.
    if (!Array.isArray(brake)) throw new TypeError('brake must be a list of levels, one per drive roller or tire wheel');
    if (driver) driver.set({ brake: drives.map((d, i) => brake[i] ?? 0), throttle, steer });
    else if (throttle || steer || brake.some((b) => b)) throw new RangeError(`${sim.name} has no drive roller or tire to drive`);
    inputs = { tau: msg.tau ?? [], act: msg.act ?? [], gravity: msg.gravity ?? null, brake, throttle, steer, hold: msg.hold ?? null };
    return null;
  },
  frame,
  reset({ keyframe } = {}) {
    if (Number.isInteger(keyframe)) sim.resetToKeyframe(keyframe); // its q, qd and ctrl (the page's sliders follow)
    else sim.reset();
    driver?.relock(); // a brake on holds where the sprockets are now
    xpbdCopy.reset();
    push = null;
    rodBefore = null;
    time = 0;
    steps = 0;
    halted = null;
    restartPace();
    ring = new StateRing();
    record();
    return snapshot();
  },
  // A scene control's button (scene-controls.js): its push, from the next step on, at the page's dt; a push
  // that starts the scene over resets it first (the frame says `reset`).
  push({ action, values, dt }) {
    const own = SCENE_CONTROLS[sim.name];
    const control = own?.actions[action];
    if (!control) throw new RangeError(`${sim.name} has no control '${action}'`);
    for (const [key, { label, min, max }] of Object.entries(own.values)) {
      const v = values?.[key];
      if (!(Number.isFinite(v) && v >= min && v <= max)) throw new RangeError(`${label} must be from ${min} to ${max}, got ${v}`);
    }
    if (!(dt > 0)) throw new RangeError(`dt must be positive, got ${dt}`);
    const next = control.push(model, values, dt);
    const frame = next.reset ? { ...ops.reset(), reset: true } : snapshot({ reset: false });
    push = { ...next, done: 0 };
    return frame;
  },
  // A live slider of the scene (scene-controls.js) moved: its value applies from the next step on.
  sceneValue({ key, value }) {
    const v = SCENE_CONTROLS[sim.name]?.values[key];
    if (!v?.apply) throw new RangeError(`${sim.name} has no live control '${key}'`);
    if (!(Number.isFinite(value) && value >= v.min && value <= v.max)) throw new RangeError(`${v.label} must be from ${v.min} to ${v.max}, got ${value}`);
    v.apply(sim, model, value);
    return null;
  },
  // The time line: back to the kept state at `index`, bit for bit.
  seek({ index }) {
    const entry = ring.seek(index);
    sim.restoreState(entry.state);
    driver?.relock();
    xpbdCopy.restore(entry.ghost);
    push = null;
    ({ time, steps } = entry);
    recorded = steps;
    halted = null;
    restartPace();
    return snapshot();
  },
  // A share link's state; refused (RangeError naming why) when it is not one of this model on this engine.
  restore({ time: t, steps: n, state }) {
    sim.restoreState(state);
    driver?.relock();
    xpbdCopy.close(); // its state is not in the link
    push = null;
    time = t;
    steps = n;
    halted = null;
    restartPace();
    ring = new StateRing();
    record();
    return snapshot();
  },
  // Side by side (xpbd-copy.js): on opens the XPBD copy and starts both runs over from the initial state.
  async sideBySide({ on }) {
    if (!on) {
      xpbdCopy.close();
      return snapshot();
    }
    await xpbdCopy.open(await shim);
    return ops.reset();
  },
  // The page's floor as a collider under the model (floor.js): on at `height`, or off. Only a Featherstone model
  // without a ground of its own has one; the reply says whether it is on.
  floor({ on, height }) {
    if (typeof on !== 'boolean' || !Number.isFinite(height)) throw new TypeError('floor: on (a boolean) and a finite height');
    floor = on ? height : null;
    applyFloor();
    return { on: sim.floor !== null };
  },
  // Frames carry the contacts (contact-draw.js) or not; the frame now, with them.
  showContacts({ on }) {
    showContacts = Boolean(on);
    return snapshot();
  },
  // A Ctrl+drag: pull `point` (body frame) of `body` toward `target` (world); null lets go.
  grab({ grab: next }) {
    const vector = (v) => Array.isArray(v) && v.length === 3 && v.every(Number.isFinite);
    if (next && !(Number.isInteger(next.body) && next.body >= 0 && next.body < sim.nb && vector(next.point) && vector(next.target))) {
      throw new TypeError('grab: a body index, a body-frame point and a world target');
    }
    if (grab) sim.fext.fill(0, 6 * grab.body, 6 * grab.body + 6);
    grab = next;
    return null;
  },
};

self.onmessage = async ({ data }) => {
  const { id, op } = data;
  try {
    if (!['models', 'text', 'open', 'check', 'features', 'generate'].includes(op) && !sim) throw new Error('no model is open');
    const value = await ops[op](data);
    const transfer = value?.poses
      ? [value.poses.buffer, value.q.buffer, value.qd.buffer, value.velocities.buffer, value.state.buffer, ...value.rods.map((r) => r.buffer), ...(value.ground ? [value.ground.buffer, value.groundForces.buffer] : []), ...(value.contacts ? [value.contacts.buffer] : [])]
      : [];
    self.postMessage({ id, ok: true, value }, transfer);
  } catch (e) {
    self.postMessage({ id, ok: false, error: errorInfo(e) });
  }
};
