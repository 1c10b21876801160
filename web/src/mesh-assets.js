// mesh-assets.js — the mesh files a model's `mesh` lines name (docs/mech-format.md, "Meshes"), kept by model name
// for as long as the page is open (a dropped folder's files), and their geometry for drawing: OBJ and STL read
// by three.js's own loaders, placed as MuJoCo places a mesh (scale ⊙ R(refquat)ᵀ (v − refpos)).
import * as THREE from 'three';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';

const filesByModel = new Map(); // model name -> { path: Uint8Array }

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
  await Promise.all([...new Set(model.meshes.map((m) => normalize(m.file)))].map(async (path) => {
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

/** A path as the files are keyed: '/' separators, '.' and '..' resolved. */
function normalize(path) {
  const out = [];
  for (const part of path.replace(/\\/g, '/').split('/')) {
    if (part === '..') out.pop();
    else if (part && part !== '.') out.push(part);
  }
  return out.join('/');
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

/**
 * The geometry of each of a model's meshes (`model.meshes`, from describe()), index for index; null for one whose
 * file is not among `files` or does not read. Normals are recomputed after placing (a mirroring scale reverses
 * the winding, so the faces are turned back).
 */
export function meshGeometries(model, files) {
  const cache = new Map();
  return (model.meshes ?? []).map((m) => {
    const path = normalize(m.file);
    const bytes = files?.[path] ?? files?.[path.replace(/^.*\//, '')]; // as the importer finds files (files.mjs)
    if (!bytes) return null;
    let base = cache.get(m.file);
    if (base === undefined) {
      try {
        base = readGeometry(m.file, bytes);
      } catch {
        base = null;
      }
      cache.set(m.file, base);
    }
    if (!base) return null;
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
  });
}
