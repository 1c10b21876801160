#!/usr/bin/env node
// simplify-meshes.mjs — OBJ meshes made small enough to ship: every file of a folder read (`v` and `f` lines,
// polygons fanned, the first object's faces and any later ones alike, as three.js draws them), vertices at the
// same position welded, the triangles simplified by meshoptimizer's edge-collapse simplifier (Garland and Heckbert
// 1997, quadric error metrics) to at most TRIANGLES each, within ERROR of the mesh's size, and written as OBJ with
// positions only (10 µm resolution for metre units).  Used for the shipped Go2 (models/robots/README.md):
//
//   node scripts/simplify-meshes.mjs <source folder> <output folder> [triangles] [error]
//
// Prints each file's triangle counts and sizes, and the total.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MeshoptSimplifier } from 'meshoptimizer';

const [src, out, triangles = '1000', error = '0.005'] = process.argv.slice(2);
if (!src || !out) {
  console.error('usage: node scripts/simplify-meshes.mjs <source folder> <output folder> [triangles] [error]');
  process.exit(2);
}
const TRIANGLES = Number(triangles);
const ERROR = Number(error);

/** An OBJ's welded vertices (Float32Array, xyz) and triangles (Uint32Array). */
function readObj(text) {
  const index = new Map(); // position text -> welded index
  const positions = [];
  const fileToWelded = [];
  const tris = [];
  for (const line of text.split(/\r?\n/)) {
    const w = line.trim().split(/\s+/);
    if (w[0] === 'v') {
      const key = `${Number(w[1])} ${Number(w[2])} ${Number(w[3])}`;
      if (!index.has(key)) {
        index.set(key, positions.length / 3);
        positions.push(Number(w[1]), Number(w[2]), Number(w[3]));
      }
      fileToWelded.push(index.get(key));
    } else if (w[0] === 'f') {
      const ids = w.slice(1).map((t) => {
        const k = parseInt(t.split('/')[0], 10);
        return fileToWelded[k > 0 ? k - 1 : fileToWelded.length + k];
      });
      for (let i = 1; i + 1 < ids.length; i++) {
        if (ids[0] !== ids[i] && ids[i] !== ids[i + 1] && ids[0] !== ids[i + 1]) tris.push(ids[0], ids[i], ids[i + 1]);
      }
    }
  }
  return { positions: new Float32Array(positions), indices: new Uint32Array(tris) };
}

/** OBJ text of the vertices the triangles use, in first-use order. */
function writeObj(positions, indices) {
  const remap = new Map();
  const v = [];
  const f = [];
  const num = (x) => String(Math.round(x * 1e5) / 1e5);
  for (let i = 0; i < indices.length; i += 3) {
    const ids = [indices[i], indices[i + 1], indices[i + 2]].map((k) => {
      if (!remap.has(k)) {
        remap.set(k, remap.size + 1);
        v.push(`v ${num(positions[3 * k])} ${num(positions[3 * k + 1])} ${num(positions[3 * k + 2])}`);
      }
      return remap.get(k);
    });
    f.push(`f ${ids.join(' ')}`);
  }
  return `# simplified by scripts/simplify-meshes.mjs (meshoptimizer)\n${v.join('\n')}\n${f.join('\n')}\n`;
}

await MeshoptSimplifier.ready;
mkdirSync(out, { recursive: true });
let before = 0;
let after = 0;
for (const name of readdirSync(src).filter((n) => /\.obj$/i.test(n)).sort()) {
  const text = readFileSync(join(src, name), 'utf8');
  const { positions, indices } = readObj(text);
  const target = Math.min(indices.length, 3 * TRIANGLES);
  const [simple, err] = MeshoptSimplifier.simplify(indices, positions, 3, target, ERROR, ['LockBorder']);
  const obj = writeObj(positions, simple);
  writeFileSync(join(out, name), obj);
  before += text.length;
  after += obj.length;
  console.log(`${name}: ${indices.length / 3} -> ${simple.length / 3} triangles (error ${err.toExponential(1)}), ${text.length} -> ${obj.length} bytes`);
}
console.log(`total: ${before} -> ${after} bytes`);
