// xpbd-models.js — the XPBD scenes of models/xpbd/ (Cosserat rods, and the §9.1 pendulum and 3-RPS robot),
// bundled as text (they are not in the shim's manifest: they run on engine 'xpbd' only). Used by the worker:
// listed after the manifest's models in the gallery group 'xpbd' from the build's scenes.json, opened by name or
// as edited text under the same name, always on engine 'xpbd'; their rods are sampled for drawing every frame.
const texts = import.meta.glob('../../models/xpbd/*.mech', { query: '?raw', import: 'default', eager: true });

// wasm/dist/scenes.json (cmake/wasm_modules.cmake, written by the native parser): one entry per scene in the
// manifest's shape plus nrod. Relative to this file as the shim is to the worker (vite.config.js); a variable,
// so Vite leaves the URL alone.
const SCENES = '../wasm/dist/scenes.json';

/** name → .mech text */
export const xpbdTexts = new Map(
  Object.entries(texts)
    .map(([path, text]) => [path.replace(/^.*\//, '').replace(/\.mech$/, ''), text])
    .sort(([a], [b]) => a.localeCompare(b)),
);

/** True when `name` is one of these scenes: the worker then opens it on engine 'xpbd'. */
export const isXpbdModel = (name) => xpbdTexts.has(name);

/** Gallery entries of the scenes, as the build listed them: no scene is opened to learn about it. */
export async function xpbdModelList() {
  const url = new URL(SCENES, import.meta.url);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText} (run npm run build)`);
  return response.json();
}

/** Centreline samples per rod for drawing: 8 per element, 24 at least, 600 at most. */
export const samplesFor = (rod) => Math.min(600, Math.max(24, 8 * rod.elements));

/**
 * Each rod's interpolated centreline with frames, copied out of WebAssembly memory:
 * Float64Array(12(n + 1)), positions (3 per sample) then row-major frames (9 per sample).
 */
export function sampleRods(sim, rods) {
  return rods.map((rod, i) => {
    const n = samplesFor(rod);
    const { positions, frames } = sim.rodCentreline(i, n, { frames: true });
    const out = new Float64Array(12 * (n + 1));
    out.set(positions);
    out.set(frames, 3 * (n + 1));
    return out;
  });
}

/** The first non-finite rod node, as a blow-up reason, or null. */
export function badRod(sim, rods) {
  for (let i = 0; i < rods.length; i++) {
    const p = sim.rodNodes(i);
    for (let k = 0; k < p.length; k++) {
      if (!Number.isFinite(p[k])) return `rod '${rods[i].name}' node ${Math.floor(k / 3)} is ${p[k]}`;
    }
  }
  return null;
}

/**
 * Each rod's translational kinetic energy (J) over the last step: its nodes' displacement from `before` (their
 * positions when the step began) over dt as their velocities, each node carrying an equal share of the rod's
 * mass ρ·πd²/4·L (the two end nodes half a share).
 */
export function rodKinetic(sim, rods, before, dt) {
  return rods.map((rod, i) => {
    const p = sim.rodNodes(i);
    const b = before[i];
    const n = rod.nodes;
    const share = (rod.rho * Math.PI * rod.diameter ** 2 / 4 * rod.length) / Math.max(n - 1, 1);
    let e = 0;
    for (let k = 0; k < n; k++) {
      const v2 = ((p[3 * k] - b[3 * k]) ** 2 + (p[3 * k + 1] - b[3 * k + 1]) ** 2 + (p[3 * k + 2] - b[3 * k + 2]) ** 2) / dt ** 2;
      e += 0.5 * (k === 0 || k === n - 1 ? share / 2 : share) * v2;
    }
    return e;
  });
}
