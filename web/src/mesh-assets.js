// mesh-assets.js — the mesh files a model's `mesh` lines name (docs/mech-format.md, "Meshes"), kept by model name
// for as long as the page is open (a dropped folder's files), and their geometry for drawing: OBJ and STL read
// by three.js's own loaders, placed as MuJoCo places a mesh (scale ⊙ R(refquat)ᵀ (v − refpos)). A mesh of more
// than DRAW_BUDGET triangles is drawn simplified (mesh-simplify.js): a Menagerie robot's visual meshes run to
// 10 000–100 000 triangles each, and software WebGL draws a few hundred thousand per frame at an interactive rate.
// The files themselves are kept whole: the importer's mass properties and hulls read them.
import * as THREE from 'three';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import { filesByPath, normalizePath } from '../../wasm/import/path.mjs';
import { toastMore } from './status.js';

/** Triangles a mesh is drawn with at most. */
export const DRAW_BUDGET = 20_000;

const filesByModel = new Map(); // model name -> { path: Uint8Array }
const drawable = new WeakMap(); // a file's bytes -> its geometry as drawn (simplified when heavy), or null
let simplifier = null;

/** Keep `files` ({ 'relative/path': Uint8Array }) as the files of model `name` (none: forget them). */
export function setModelFiles(name, files) {
  if (files && Object.keys(files).length) filesByModel.set(name, files);
  else filesByModel.delete(name);
}

/** The files kept for model `name`, or null. */
export function modelFiles(name) {
  return filesByModel.get(name) ?? null;
}

/**
 * Fetches the mesh files of a shipped model (models/<name>/ beside the texts in wasm/dist, cmake/wasm_modules.cmake)
 * and keeps them as its files, when it names meshes and none are kept: they load when the model is opened. A file
 * that does not load is left out (its shapes are not drawn).
 */
export async function fetchShippedMeshes(name, model) {
  if (!model.meshes?.length || filesByModel.has(name)) return;
  const files = {};
  const paths = new Set(model.meshes.map((m) => normalizePath(m.file)).filter(Boolean));
  await Promise.all([...paths].map(async (path) => {
    const rel = `../wasm/dist/models/${name}/${path}`; // a variable, so that the bundler does not resolve it
    try {
      const response = await fetch(new URL(rel, import.meta.url));
      if (response.ok) files[path] = new Uint8Array(await response.arrayBuffer());
    } catch {
      // not drawn
    }
  }));
  setModelFiles(name, files);
}

/** One mesh file's triangles as a BufferGeometry (every object of an OBJ merged), or null when it is not readable. */
function readGeometry(path, bytes) {
  if (/\.stl$/i.test(path)) {
    const copy = bytes.slice().buffer; // the loader reads an ArrayBuffer of exactly the file
    return new STLLoader().parse(copy);
  }
  const group = new OBJLoader().parse(new TextDecoder().decode(bytes));
  const parts = [];
  group.traverse((o) => {
    if (o.isMesh) parts.push(o.geometry.getAttribute('position'));
  });
  if (!parts.length) return null;
  const n = parts.reduce((s, a) => s + a.count, 0);
  const position = new Float32Array(3 * n);
  let at = 0;
  for (const a of parts) {
    position.set(a.array.subarray(0, 3 * a.count), at);
    at += 3 * a.count;
  }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(position, 3));
  return geometry;
}

/** `geometry` with at most DRAW_BUDGET triangles; whole, after a toast, when the simplifier does not load. */
async function simplified(geometry, path) {
  try {
    simplifier ??= import('./mesh-simplify.js');
    const soup = await (await simplifier).simplifySoup(Float32Array.from(geometry.getAttribute('position').array), DRAW_BUDGET);
    const out = new THREE.BufferGeometry();
    out.setAttribute('position', new THREE.BufferAttribute(soup, 3));
    return out;
  } catch (e) {
    simplifier = null;
    toastMore(`${path} is drawn with all its triangles: the simplifier did not load (${e.message}).`);
    return geometry;
  }
}

/** A file's geometry as drawn: read, then simplified when over DRAW_BUDGET triangles; null when it does not read. */
async function drawnGeometry(path, bytes) {
  if (drawable.has(bytes)) return drawable.get(bytes);
  let geometry;
  try {
    geometry = readGeometry(path, bytes);
  } catch {
    geometry = null;
  }
  const position = geometry?.getAttribute('position');
  if (!position?.count) geometry = null;
  else if (position.count / 3 > DRAW_BUDGET) geometry = await simplified(geometry, path);
  drawable.set(bytes, geometry);
  return geometry;
}

/**
 * The geometry of each of a model's meshes (`model.meshes`, from describe()), index for index; null for one whose
 * file is not among `files` (the importer's warning names it) or does not read (a toast names it). Normals are
 * recomputed after placing (a mirroring scale reverses the winding, so the faces are turned back).
 */
export async function meshGeometries(model, files) {
  const out = [];
  const unread = new Set();
  const fileAt = filesByPath(files ?? undefined); // as the importer and the engine find files
  for (const m of model.meshes ?? []) {
    const bytes = fileAt(m.file);
    const base = bytes ? await drawnGeometry(m.file, bytes) : null;
    if (bytes && !base) unread.add(m.file);
    out.push(base && placed(base, m));
  }
  if (unread.size) toastMore(`Not drawn: ${[...unread].join(', ')} (no triangles read from ${unread.size === 1 ? 'it' : 'them'} as OBJ or STL).`);
  return out;
}

/** A copy of `base` placed as mesh `m` says (refpos, refquat, scale), its normals recomputed. */
function placed(base, m) {
  const g = base.clone();
  g.deleteAttribute('normal');
  g.translate(-m.refpos[0], -m.refpos[1], -m.refpos[2]);
  const [w, x, y, z] = m.refquat;
  g.applyQuaternion(new THREE.Quaternion(x, y, z, w).invert());
  g.scale(m.scale[0], m.scale[1], m.scale[2]);
  if (m.scale[0] * m.scale[1] * m.scale[2] < 0) {
    const p = g.getAttribute('position');
    for (let i = 0; i < p.count; i += 3) {
      for (let k = 0; k < 3; k++) {
        const a = p.getComponent(i + 1, k);
        p.setComponent(i + 1, k, p.getComponent(i + 2, k));
        p.setComponent(i + 2, k, a);
      }
    }
  }
  g.computeVertexNormals();
  return g;
}
