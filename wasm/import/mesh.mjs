// mesh.mjs — mesh files (Wavefront OBJ; STL, binary and ASCII) to triangle
// meshes, and a mesh's mass properties as MuJoCo's compiler computes them
// (MuJoCo documentation, XML reference, "mesh": attributes scale, refpos,
// refquat and inertia = legacy | exact | convex | shell).  Vertices are
// rounded to single precision as MuJoCo's readers store them, so the volume,
// centre of mass and inertia agree with a compiled MuJoCo model to rounding.
// Every error is an ImportError naming the file and the line (text) or the
// byte offset (binary STL).

import { convexHull } from './hull.mjs';
import { qToMat, qnormalize } from './math.mjs';
import { globalInertia, mujocoEig3 } from './mujoco-eig.mjs';
import { ImportError } from './error.mjs';

/** MuJoCo's mjMINVAL: areas and volumes below it are zero. */
const MINVAL = 1e-15;

/**
 * @typedef {{ vertices: Float64Array, faces: Uint32Array, ignoredFaces: number, where?: (t: number) => string }} TriangleMesh
 *   vertices x y z per vertex (single-precision values), faces three vertex indices per triangle
 *   (counter-clockwise seen from outside), ignoredFaces the OBJ faces after its first object (MuJoCo reads only
 *   the first), where(t) the place of triangle t in its file as messages give it ('a.obj:12', 'a.stl: byte 184')
 */

/** The text of a file given as a string or as bytes (UTF-8). */
function textOf(data) {
  return typeof data === 'string' ? data : new TextDecoder('utf-8').decode(data);
}

/**
 * A mesh file by its extension (.obj or .stl, any case).
 * @param {string | Uint8Array} data @param {string} file the name messages show
 * @returns {TriangleMesh}
 */
export function parseMesh(data, file) {
  const ext = /\.([^./\\]*)$/.exec(file)?.[1].toLowerCase();
  if (ext === 'obj') return parseObj(textOf(data), file);
  if (ext === 'stl') return parseStl(typeof data === 'string' ? new TextEncoder().encode(data) : data, file);
  throw new ImportError(`${file}: unknown mesh format '.${ext ?? ''}': expected .obj or .stl`);
}

/**
 * Wavefront OBJ: `v x y z`, faces `f a b c ...` (indices 1-based, negative ones counted back from the last vertex,
 * `a/t/n` forms), polygons split into triangles as a fan.  Faces after a second `o` or `g` are counted in
 * ignoredFaces, not read: MuJoCo reads an OBJ's first object only.
 * @param {string} text @param {string} file @returns {TriangleMesh}
 */
export function parseObj(text, file) {
  const verts = [];
  const faces = [];
  const faceLines = [];
  let ignoredFaces = 0;
  let started = false; // a face has been read: the next o/g line ends the first object
  let ended = false;
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/#.*/, '').trim();
    if (!line.length) continue;
    const words = line.split(/\s+/);
    const at = `${file}:${i + 1}`;
    switch (words[0]) {
      case 'v': {
        if (words.length < 4) throw new ImportError(`${at}: a vertex needs x y z, got '${line.slice(0, 80)}'`, i + 1);
        for (let k = 1; k <= 3; k++) {
          const x = Number(words[k]);
          if (!Number.isFinite(x) || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(words[k])) {
            throw new ImportError(`${at}: bad vertex coordinate '${words[k].slice(0, 40)}'`, i + 1);
          }
          verts.push(Math.fround(x));
        }
        break;
      }
      case 'f': {
        if (ended) { ignoredFaces++; break; }
        if (words.length < 4) throw new ImportError(`${at}: a face needs at least 3 vertices, got ${words.length - 1}`, i + 1);
        const idx = words.slice(1).map((w) => {
          const m = /^([+-]?\d+)(\/[+-]?\d*)?(\/[+-]?\d*)?$/.exec(w);
          const n = m ? Number(m[1]) : NaN;
          if (!Number.isInteger(n) || n === 0) throw new ImportError(`${at}: bad face vertex '${w.slice(0, 40)}' (a 1-based index, a negative one counting back)`, i + 1);
          return n > 0 ? n - 1 : verts.length / 3 + n;
        });
        for (let k = 1; k + 1 < idx.length; k++) {
          faces.push(idx[0], idx[k], idx[k + 1]);
          faceLines.push(i + 1);
        }
        started = true;
        break;
      }
      case 'o': case 'g':
        if (started) ended = true;
        break;
      default: break; // normals, texture coordinates, materials, smoothing groups: not needed here
    }
  }
  const nv = verts.length / 3;
  for (let f = 0; f < faces.length; f++) {
    if (faces[f] < 0 || faces[f] >= nv) {
      const line = faceLines[Math.floor(f / 3)];
      throw new ImportError(`${file}:${line}: a face names vertex ${faces[f] + 1}, but the file has ${nv} vertices`, line);
    }
  }
  const where = (t) => `${file}:${faceLines[t]}`;
  return checked({ vertices: Float64Array.from(verts), faces: Uint32Array.from(faces), ignoredFaces, where }, file);
}

/**
 * STL: binary (80-byte header, a 32-bit triangle count, 50 bytes per triangle) when the size fits the count,
 * else ASCII (`solid`, `facet normal`, `outer loop`, three `vertex x y z`, `endloop`, `endfacet`, `endsolid`).
 * @param {Uint8Array} bytes @param {string} file @returns {TriangleMesh}
 */
export function parseStl(bytes, file) {
  if (bytes.length >= 84) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const n = view.getUint32(80, true);
    if (84 + 50 * n === bytes.length) {
      if (n === 0) throw new ImportError(`${file}: byte 80: a binary STL with no triangles`);
      const vertices = new Float64Array(9 * n);
      for (let t = 0; t < n; t++) {
        for (let k = 0; k < 9; k++) {
          const at = 84 + 50 * t + 12 + 4 * k;
          const x = view.getFloat32(at, true);
          if (!Number.isFinite(x)) throw new ImportError(`${file}: byte ${at}: vertex coordinate is not finite (triangle ${t + 1})`);
          vertices[9 * t + k] = x;
        }
      }
      const where = (t) => `${file}: byte ${84 + 50 * t}`;
      return checked({ vertices, faces: Uint32Array.from({ length: 3 * n }, (_, i) => i), ignoredFaces: 0, where }, file);
    }
  }
  const text = new TextDecoder('utf-8').decode(bytes);
  if (!/^\s*solid/.test(text)) {
    const n = bytes.length >= 84 ? new DataView(bytes.buffer, bytes.byteOffset).getUint32(80, true) : 0;
    throw new ImportError(bytes.length >= 84
      ? `${file}: byte 80: a binary STL's header counts ${n} triangles, which take ${84 + 50 * n} bytes, but the file has ${bytes.length} (and it is not ASCII STL: it does not begin with 'solid')`
      : `${file}: byte ${bytes.length}: too short for a binary STL (84 bytes of header) and not ASCII STL (no 'solid')`);
  }
  return parseAsciiStl(text, file);
}

function parseAsciiStl(text, file) {
  // Tokens with their line numbers.
  const tokens = [];
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    for (const w of lines[i].trim().split(/\s+/)) if (w.length) tokens.push([w, i + 1]);
  }
  let k = 0;
  const lineOf = () => (tokens[Math.min(k, tokens.length - 1)]?.[1] ?? 1);
  const fail = (what) => new ImportError(`${file}:${lineOf()}: ${what}`, lineOf());
  const expect = (word) => {
    if (tokens[k]?.[0].toLowerCase() !== word) throw fail(`expected '${word}', got ${tokens[k] ? `'${tokens[k][0].slice(0, 40)}'` : 'the end of the file'}`);
    k++;
  };
  const number = () => {
    const w = tokens[k]?.[0];
    const x = Number(w);
    if (w === undefined || !Number.isFinite(x) || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(w)) throw fail(`expected a number, got ${w === undefined ? 'the end of the file' : `'${w.slice(0, 40)}'`}`);
    k++;
    return x;
  };
  expect('solid');
  while (k < tokens.length && !['facet', 'endsolid'].includes(tokens[k][0].toLowerCase())) k++; // the solid's name
  const verts = [];
  const facetLines = [];
  while (tokens[k]?.[0].toLowerCase() === 'facet') {
    facetLines.push(lineOf());
    k++;
    expect('normal');
    number(); number(); number();
    expect('outer');
    expect('loop');
    for (let v = 0; v < 3; v++) {
      expect('vertex');
      for (let c = 0; c < 3; c++) verts.push(Math.fround(number()));
    }
    expect('endloop');
    expect('endfacet');
  }
  expect('endsolid');
  if (!verts.length) throw fail('an ASCII STL with no facets');
  const n = verts.length / 9;
  const where = (t) => `${file}:${facetLines[t]}`;
  return checked({ vertices: Float64Array.from(verts), faces: Uint32Array.from({ length: 3 * n }, (_, i) => i), ignoredFaces: 0, where }, file);
}

/** MuJoCo's own checks of a mesh read from a file: at least 4 vertices, at least one face. */
function checked(mesh, file) {
  if (mesh.vertices.length < 12) throw new ImportError(`${file}: a mesh needs at least 4 vertices, this one has ${mesh.vertices.length / 3}`);
  if (!mesh.faces.length) throw new ImportError(`${file}: a mesh without faces`);
  return mesh;
}

/**
 * A mesh's vertices and faces as MuJoCo's compiler places them: minus refpos, rotated by refquat's inverse, scaled;
 * faces reversed when the scale mirrors the mesh; `where` kept (the triangles keep their order).
 * @param {TriangleMesh} mesh
 * @param {{ scale?: number[], refpos?: number[], refquat?: number[] }} [options]
 * @returns {{ vertices: Float64Array, faces: Uint32Array, where?: (t: number) => string }}
 */
export function placeMesh(mesh, { scale = [1, 1, 1], refpos = [0, 0, 0], refquat = [1, 0, 0, 0] } = {}) {
  const v = Float64Array.from(mesh.vertices);
  const R = qToMat(qnormalize(refquat) ?? [1, 0, 0, 0]);
  for (let i = 0; i < v.length; i += 3) {
    const p = [v[i] - refpos[0], v[i + 1] - refpos[1], v[i + 2] - refpos[2]];
    for (let r = 0; r < 3; r++) v[i + r] = (R[r] * p[0] + R[3 + r] * p[1] + R[6 + r] * p[2]) * scale[r]; // Rᵀ p
  }
  const faces = Uint32Array.from(mesh.faces);
  if (scale[0] * scale[1] * scale[2] < 0) {
    for (let f = 0; f < faces.length; f += 3) [faces[f + 1], faces[f + 2]] = [faces[f + 2], faces[f + 1]];
  }
  return { vertices: v, faces, where: mesh.where };
}

/** Area, unit normal and centroid of triangle (a, b, c), as MuJoCo's `triangle` (area 0 below MINVAL). */
function triangle(v, a, b, c) {
  const center = [0, 1, 2].map((k) => (v[3 * a + k] + v[3 * b + k] + v[3 * c + k]) / 3);
  const e = [v[3 * b] - v[3 * a], v[3 * b + 1] - v[3 * a + 1], v[3 * b + 2] - v[3 * a + 2]];
  const f = [v[3 * c] - v[3 * a], v[3 * c + 1] - v[3 * a + 1], v[3 * c + 2] - v[3 * a + 2]];
  const n = [e[1] * f[2] - e[2] * f[1], e[2] * f[0] - e[0] * f[2], e[0] * f[1] - e[1] * f[0]];
  const len = Math.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (len < MINVAL) return { area: 0, normal: n, center };
  return { area: 0.5 * len, normal: n.map((x) => x / len), center };
}

/**
 * Each directed edge used once: MuJoCo's check of consistently oriented faces (exact inertia), on the vertices
 * welded where they coincide, as MuJoCo's compiler removes repeated vertices first (an STL repeats each vertex
 * per facet); faces of no area are skipped, as MuJoCo skips them. Two faces using an edge in the same direction
 * are named by their places in the file (`where`), else by their numbers; a vertex by its first number.
 */
function checkOrientation(faces, vertices, name, where) {
  const seen = new Map(); // directed edge -> the triangle using it
  const nv = vertices.length / 3;
  const first = new Map(); // a position -> the first vertex there
  const welded = Uint32Array.from({ length: nv }, (_, i) => {
    const key = `${vertices[3 * i]} ${vertices[3 * i + 1]} ${vertices[3 * i + 2]}`;
    if (!first.has(key)) first.set(key, i);
    return first.get(key);
  });
  const place = (t) => (where ? where(t) : `face ${t + 1}`);
  for (let f = 0; f < faces.length; f += 3) {
    if (!(triangle(vertices, faces[f], faces[f + 1], faces[f + 2]).area > Math.sqrt(MINVAL))) continue;
    for (let k = 0; k < 3; k++) {
      const a = welded[faces[f + k]];
      const b = welded[faces[f + ((k + 1) % 3)]];
      const key = a * nv + b;
      if (seen.has(key)) {
        throw new ImportError(`${name}: faces have inconsistent orientation: ${place(f / 3)} uses the edge from vertex ${a + 1} to vertex ${b + 1} in the same direction as ${place(seen.get(key))} (each edge of a closed surface runs once each way)`);
      }
      seen.set(key, f / 3);
    }
  }
}

/**
 * The mass properties of a placed mesh per unit density, as MuJoCo's mjCMesh computes them: `measure` the volume
 * (or, for a shell, the area), `com` the centre of mass, `inertia` the row-major tensor about it (multiply by the
 * density, or by mass / measure) as MuJoCo keeps it: the principal moments and axes its compiler finds
 * (mujoco-eig.mjs), through its equivalent inertia box.  `type` is MuJoCo's mesh inertia: 'legacy' (its default: every tetrahedron
 * from the faces' centroid counted positive, exact for convex meshes), 'exact' (signed, any closed mesh),
 * 'convex' (the convex hull's) or 'shell' (a thin surface of unit areal density).
 * @param {{ vertices: Float64Array, faces: Uint32Array }} placed @param {string} type
 * @param {string} name how messages name the mesh
 * @returns {{ measure: number, com: number[], inertia: number[] }}
 */
export function meshInertia(placed, type, name) {
  const v = placed.vertices;
  let faces = placed.faces;
  if (type === 'exact') checkOrientation(faces, v, name, placed.where);
  // The faces' centroid, from every face of the mesh (MuJoCo's ComputeFaceCentroid).
  const facecen = [0, 0, 0];
  let area = 0;
  for (let f = 0; f < faces.length; f += 3) {
    const t = triangle(v, faces[f], faces[f + 1], faces[f + 2]);
    for (let k = 0; k < 3; k++) facecen[k] += t.area * t.center[k];
    area += t.area;
  }
  if (!(area >= MINVAL)) throw new ImportError(`${name}: surface area is too small (${area})`);
  for (let k = 0; k < 3; k++) facecen[k] /= area;
  if (type === 'convex') faces = convexHull(v).faces;
  // The centre of mass: pyramids from the faces' centroid (volume) or the faces themselves (shell).
  const com = [0, 0, 0];
  let measure = 0;
  const shellFaces = placed.faces;
  const list = type === 'shell' ? shellFaces : faces;
  for (let f = 0; f < list.length; f += 3) {
    const t = triangle(v, list[f], list[f + 1], list[f + 2]);
    let w = t.area;
    if (type !== 'shell') {
      w = ((t.center[0] - facecen[0]) * t.normal[0] + (t.center[1] - facecen[1]) * t.normal[1] + (t.center[2] - facecen[2]) * t.normal[2]) * t.area / 3;
      if (type === 'legacy') w = Math.abs(w);
    }
    measure += w;
    for (let k = 0; k < 3; k++) com[k] += w * (t.center[k] * 3 / 4 + facecen[k] / 4);
  }
  if (type === 'shell') {
    if (!(measure >= MINVAL)) throw new ImportError(`${name}: surface area is too small (${measure})`);
  } else if (!(measure >= MINVAL)) {
    throw new ImportError(measure < 0
      ? `${name}: volume is negative (${measure}): its faces are oriented inward`
      : `${name}: volume is too small (${measure}) to give it a mass: a flat or open mesh (MuJoCo: mesh inertia="shell")`);
  }
  for (let k = 0; k < 3; k++) com[k] /= measure;
  // Second moments about the centre of mass (MuJoCo's ComputeInertia), which also recomputes the measure.
  const P = [0, 0, 0, 0, 0, 0];
  const pairs = [[0, 0], [1, 1], [2, 2], [0, 1], [0, 2], [1, 2]];
  const c = (i) => [v[3 * i] - com[0], v[3 * i + 1] - com[1], v[3 * i + 2] - com[2]];
  let total = 0;
  const C = type === 'shell' ? 12 : 20;
  for (let f = 0; f < list.length; f += 3) {
    const D = c(list[f]);
    const E = c(list[f + 1]);
    const F = c(list[f + 2]);
    const t = triangle([...D, ...E, ...F], 0, 1, 2);
    let w = type === 'shell' ? t.area : (t.center[0] * t.normal[0] + t.center[1] * t.normal[1] + t.center[2] * t.normal[2]) * t.area / 3;
    if (type === 'legacy') w = Math.abs(w);
    total += w;
    for (let j = 0; j < 6; j++) {
      const [a, b] = pairs[j];
      P[j] += (w / C) * (2 * (D[a] * D[b] + E[a] * E[b] + F[a] * F[b])
        + D[a] * E[b] + D[b] * E[a] + D[a] * F[b] + D[b] * F[a] + E[a] * F[b] + E[b] * F[a]);
    }
  }
  const full = [P[1] + P[2], -P[3], -P[4], -P[3], P[0] + P[2], -P[5], -P[4], -P[5], P[0] + P[1]];
  const { eigval: d, quat } = mujocoEig3(full);
  if (!(d[0] > 0)) throw new ImportError(`${name}: its inertia has no positive principal moment`);
  for (let i = 0; i < 3; i++) {
    if (d[(i + 1) % 3] + d[(i + 2) % 3] < d[i] * (1 - 1e-6) - 1e-9) {
      throw new ImportError(`${name}: its principal moments ${d.map((x) => Number(x.toPrecision(6))).join(' ')} break A + B >= C`);
    }
  }
  // MuJoCo's equivalent inertia box (mjCMesh boxsz) and the geom inertia it gives (mjCGeom::SetInertia), per unit
  // density: the same moments up to rounding, computed in its order.
  const box = [0, 1, 2].map((k) => 0.5 * Math.sqrt(6 * (d[(k + 1) % 3] + d[(k + 2) % 3] - d[k]) / total));
  const moments = [0, 1, 2].map((k) => (total * (box[(k + 1) % 3] ** 2 + box[(k + 2) % 3] ** 2)) / 3);
  return { measure: total, com, inertia: globalInertia(moments, quat) };
}
