// helpers.mjs — shared by the Node suite: paths, the native reference
// helper (build/wasm/mech-wasm-ref, the same C compiled natively) and the
// error metric every gate in this project uses.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { openModel as openBudgeted } from '../../wasm/index.mjs';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const modelsDir = `${root}models/`;
export const badDir = `${root}tests/bad/`;
const refTool = `${root}build/wasm/mech-wasm-ref`;

const stems = (dir) => readdirSync(dir)
  .filter((f) => f.endsWith('.mech'))
  .map((f) => f.slice(0, -'.mech'.length))
  .sort();

/** models/*.mech: trees. */
export const treeModelNames = stems(modelsDir);
/** models/loops/*.mech: closed loops and force elements. */
export const loopModelNames = stems(`${modelsDir}loops`);
/** models/tracks/*.mech: tracked vehicles (bands of shoes on their rollers, a ground). */
export const trackModelNames = stems(`${modelsDir}tracks`);
/**
 * models/robots/*.xml and *.urdf, and the folders models/robots/<name>/ holding a scene.xml: MJCF and URDF robots,
 * imported into build/robots/<name>.mech when the build is configured.
 */
export const robotModelNames = readdirSync(`${modelsDir}robots`)
  .filter((f) => /\.(xml|urdf)$/.test(f) || existsSync(`${modelsDir}robots/${f}/scene.xml`))
  .map((f) => f.replace(/\.(xml|urdf)$/, ''))
  .sort();
/** Every shipped model's name (each has a generated module), in the manifest's order; from models/, not from the manifest under test. */
export const modelNames = [...treeModelNames, ...loopModelNames, ...trackModelNames, ...robotModelNames];
/** models/tracks/scenes/*.scene: terrain scenes, listed after the models, each run on its base model's module. */
export const terrainSceneNames = readdirSync(`${modelsDir}tracks/scenes`)
  .filter((f) => f.endsWith('.scene'))
  .map((f) => f.slice(0, -'.scene'.length))
  .sort();
/** What listModels() lists: the models, then the terrain scenes. */
export const listedNames = [...modelNames, ...terrainSceneNames];

/** The .mech file of a shipped model. */
export function modelFile(name) {
  if (loopModelNames.includes(name)) return `${modelsDir}loops/${name}.mech`;
  if (trackModelNames.includes(name)) return `${modelsDir}tracks/${name}.mech`;
  if (robotModelNames.includes(name)) return `${root}build/robots/${name}.mech`;
  return `${modelsDir}${name}.mech`;
}

/** Run the native helper; its stdout as JSON. */
export function nativeRef(...args) {
  if (!existsSync(refTool)) throw new Error(`${refTool} is missing: run \`npm run build\``);
  return JSON.parse(execFileSync(refTool, args.map(String), { encoding: 'utf8', maxBuffer: 1 << 28 }));
}

/** Set a state drawn by nativeRef('states', ...) into a Sim's inputs: q, qd, tau, fext, act. */
export function setState(sim, s) {
  sim.q.set(s.q);
  sim.qd.set(s.qd);
  sim.tau.set(s.tau);
  sim.fext.set(s.fext);
  sim.act.set(s.act);
}

/** max|a - b| / max(1, max|b|), as mech_scaled_error in core/rbda/sample.h. */
export function scaledError(a, b) {
  let diff = 0;
  let scale = 1;
  for (let i = 0; i < b.length; i++) {
    diff = Math.max(diff, Math.abs(a[i] - b[i]));
    scale = Math.max(scale, Math.abs(b[i]));
  }
  return Number.isNaN(diff) ? Infinity : diff / scale;
}

/** An arm on a revolute joint with a quadratic rod clamped to its tip (XPBD): bodies and rods in one world. */
export const ARM_WITH_ROD = `gravity 0 0 -9.81
xpbd
  dt 0.005
  substeps 4
end
body arm
  parent base
  joint revolute y
  mass 1
  com 0.5 0 0
  inertia 0.001 0.08 0.08
end
rod tail
  disc quadratic
  elements 4
  length 0.5
  diameter 0.02
  E 1e7
  rho 1000
  origin 1 0 0
  dir -z
  clamp start arm
end
`;

/**
 * openModel with no time budget on step() (stepBudgetMs Infinity), for the tests that take long calls: they time
 * nothing, and a loaded machine may take seconds for a call an idle one does in a fraction of the default budget.
 * @type {typeof openBudgeted}
 */
export const openModel = (source, options) => openBudgeted(source, { stepBudgetMs: Infinity, ...options });
