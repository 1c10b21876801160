// xpbd-copy.js — side by side, the worker's half: a second Sim of the open model's text on XPBD, stepped with
// the main Sim's dt, step count, tau and gravity, and what a frame reports of it (side-by-side.js draws it).

const LOOP = /^\s*loop\s/m; // a `loop` block: the model is not a kinematic tree

let text = null; // the open model's text, when XPBD can run it beside the main Sim
let name = '';
let files; // its mesh files (openModel's files), for its colliding meshes' hulls
let copy = null; // the XPBD Sim, while side by side is on

/**
 * For a newly opened model (`source`: a shipped name or { text, name }; `meshFiles`: the files it was opened
 * with): closes the copy of the last one, and returns why this one cannot run side by side (a sentence), or null
 * when it can.
 */
export async function prepare({ openModel, loadModelText }, source, engine, meshFiles) {
  close();
  text = null;
  files = meshFiles;
  if (engine === 'xpbd') return 'An XPBD scene runs on XPBD already.';
  const own = typeof source === 'string' ? await loadModelText(source) : source.text;
  if (LOOP.test(own)) return 'Side by side compares kinematic trees; this model has closed loops.';
  name = typeof source === 'string' ? source : source.name;
  try {
    (await openModel({ text: own, name }, { engine: 'xpbd', files })).dispose();
  } catch (e) {
    return `XPBD cannot run this model: ${String(e?.message ?? e).replace(/^[^\n]*?:\d+:\d+: /, '')}`;
  }
  text = own;
  return null;
}

/** Opens the copy, at the model's initial state. */
export async function open({ openModel }) {
  if (text === null) throw new Error('this model cannot run side by side on XPBD');
  close();
  copy = await openModel({ text, name }, { engine: 'xpbd', files });
}

export function close() {
  copy?.dispose();
  copy = null;
}

/** n steps of dt with the main Sim's tau and gravity as they are now. */
export function step(sim, dt, n) {
  if (!copy || n <= 0) return;
  copy.tau.set(sim.tau);
  copy.gravity.set(sim.gravity);
  try {
    copy.step(dt, n);
  } catch (e) {
    if (e?.stepsDone === undefined) throw e; // stopped at its time budget: the copy lags behind, and says so by its time
  }
}

export const reset = () => copy?.reset();

/** The copy's state for the time line, or null. */
export const save = () => copy?.saveState() ?? null;

/** Back to a state save() gave, when the copy is open. */
export function restore(state) {
  if (copy && state) copy.restoreState(state);
}

/**
 * What a frame carries of the copy (null when off): its poses, the gap — the largest distance between the
 * origins of a body on the two runs (m) — and its residuals of the last substep.
 */
export function report(sim) {
  if (!copy) return null;
  const poses = Float64Array.from(copy.poses());
  const main = sim.poses();
  let gap = 0;
  for (let k = 0; k < poses.length; k += 7) {
    gap = Math.max(gap, Math.hypot(poses[k] - main[k], poses[k + 1] - main[k + 1], poses[k + 2] - main[k + 2]));
  }
  const { primal, constraint } = copy.residuals();
  return { poses, gap, primal, constraint };
}
