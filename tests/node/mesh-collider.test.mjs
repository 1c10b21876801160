// Mesh colliders through the API (docs/mech-format.md, "Meshes"): openModel's files give each colliding mesh its
// convex hull.  A body whose mesh is a box written as an OBJ here, dropped on a plane, comes to rest on its lowest
// vertices and runs as the same body with a box shape, on the runtime Featherstone engine and on XPBD; a prism
// (STL) rests on its face; a mesh of more than 64 hull points is cut to 64 and still rests on its base; a missing
// file is a warning and the mesh is drawn only; a malformed file or a flat mesh is an error naming it; the jit
// takes the files as the runtime engine does.  The sizes
// are binary fractions: mesh files are read in single precision, as MuJoCo reads them.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MechError, openModel } from '../../wasm/index.mjs';

const corners = [];
for (let i = 0; i < 8; i++) corners.push([i & 1 ? 0.25 : -0.25, i & 2 ? 0.125 : -0.125, i & 4 ? 0.125 : -0.125]);
/** A box as an OBJ: its eight corners and twelve triangles. */
const boxObj = `${corners.map((c) => `v ${c.join(' ')}`).join('\n')}
f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n`;
/** A prism along y as an ASCII STL: the triangle (±0.25, −0.125), (0, 0.25) in x z, 0.25 long. */
const prism = [[-0.25, -0.125, -0.125], [0.25, -0.125, -0.125], [0, -0.125, 0.25], [-0.25, 0.125, -0.125], [0.25, 0.125, -0.125], [0, 0.125, 0.25]];
const prismStl = `solid prism\n${[[0, 2, 1], [3, 4, 5], [0, 1, 4], [0, 4, 3], [1, 2, 5], [1, 5, 4], [2, 0, 3], [2, 3, 5]]
  .map((f) => `facet normal 0 0 0\nouter loop\n${f.map((i) => `vertex ${prism[i].join(' ')}`).join('\n')}\nendloop\nendfacet`)
  .join('\n')}\nendsolid prism\n`;
/** A cylinder of radius 0.15 and height 0.25 as 200 rim points per cap: its hull has 400 points, cut to 64. */
const rim = Array.from({ length: 200 }, (_, k) => [0.15 * Math.cos((2 * Math.PI * k) / 200), 0.15 * Math.sin((2 * Math.PI * k) / 200)]);
const drumObj = `${[-0.125, 0.125].flatMap((z) => rim.map(([x, y]) => `v ${x} ${y} ${z}`)).join('\n')}\nf 1 2 201\n`;

const files = { 'assets/box.obj': boxObj, 'prism.stl': prismStl, 'drum.obj': drumObj };

/** A free body with `shape` over a plane, dropped from 0.5 m (by default tilted 30° about x and moving). */
function text(shape, pose = 'q0 0 0 0.5 x 30\n qd0 0.5 1 0 0.5 0 0') {
  return `contact\nstatic plane friction 0.8 0.8\nmesh hb assets/box.obj\nmesh prism prism.stl\nmesh drum drum.obj
body b\n parent base\n joint floating\n mass 3\n inertia 0.02 0.03 0.04\n ${pose}\n shape ${shape}\nend\n`;
}

/** The lowest world height of body points p at the floating pose q = [w x y z, px py pz]. */
function lowest(q, p) {
  const [w, x, y, z] = q;
  const r = [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)];
  return Math.min(...p.map((v) => q[6] + r[0] * v[0] + r[1] * v[1] + r[2] * v[2]));
}

/** `mesh` (the box-like mesh dropped) comes to rest on its corners where `ref` does over 4 s; both disposed. */
function restsAs(mesh, ref) {
  assert.deepEqual(mesh.warnings, []);
  mesh.step(1e-3, 4000);
  ref.step(1e-3, 4000);
  const low = lowest(mesh.q, corners);
  assert.ok(low <= 1e-9 && low >= -1e-3, `lowest corner at ${low} m`);
  for (let k = 0; k < 7; k++) assert.ok(Math.abs(mesh.q[k] - ref.q[k]) <= 1e-9, `q[${k}]: ${mesh.q[k]} vs ${ref.q[k]}`);
  mesh.dispose();
  ref.dispose();
}

for (const engine of /** @type {const} */ (['featherstone', 'xpbd'])) {
  test(`${engine}: a box-like mesh rests as a box does`, async () => {
    const mesh = await openModel({ text: text('mesh hb'), name: 'mesh' }, { engine, files });
    restsAs(mesh, await openModel({ text: text('box 0.5 0.25 0.25'), name: 'box' }, { engine }));
  });

  test(`${engine}: a prism from an STL rests on its face`, async () => {
    const sim = await openModel({ text: text('mesh prism'), name: 'prism' }, { engine, files });
    sim.step(1e-3, 4000);
    const low = lowest(sim.q, prism);
    assert.ok(low <= 1e-9 && low >= -1e-3, `lowest vertex at ${low} m`);
    assert.ok(Math.abs(sim.q[6] - (0.125 + low)) < 1e-6, `centre at ${sim.q[6]} m: not on its face`);
    sim.dispose();
  });
}

test('a hull of 400 points is cut to 64 and still stands on its base', async () => {
  for (const engine of /** @type {const} */ (['featherstone', 'xpbd'])) {
    const sim = await openModel({ text: text('mesh drum', 'q0 0 0 0.3'), name: 'drum' }, { engine, files });
    sim.step(1e-3, 4000);
    const [w, x, y] = sim.q;
    // on its cap: the soft contact's depths differ over the kept rim points, a tilt of the order of depth / radius
    const tilt = 2 * Math.asin(Math.min(1, Math.hypot(x, y) / Math.hypot(w, x, y, sim.q[3])));
    assert.ok(sim.q[6] <= 0.125 + 1e-9 && sim.q[6] >= 0.124, `${engine}: centre at ${sim.q[6]} m`);
    assert.ok(tilt < 0.01, `${engine}: tilted ${tilt} rad`);
    sim.dispose();
  }
});

test('the jit takes the files too: its box-like mesh rests as the runtime engine\'s does; paths resolve as the importer\'s', async () => {
  const jit = await openModel({ text: text('mesh hb'), name: 'mesh' }, { backend: 'jit', files: { 'assets\\.\\box.obj': boxObj } });
  assert.equal(jit.backend, 'jit');
  restsAs(jit, await openModel({ text: text('mesh hb'), name: 'mesh' }, { files }));
  const without = await openModel({ text: text('mesh hb'), name: 'nofile' }, { backend: 'jit' });
  assert.match(without.warnings.join('\n'), /mesh 'hb': its file 'assets\/box.obj' was not given/);
  without.dispose();
});

test('a colliding mesh without its file is drawn only, with a warning naming it', async () => {
  const sim = await openModel({ text: text('mesh hb'), name: 'nofile' });
  assert.equal(sim.warnings.length, 1);
  assert.match(sim.warnings[0], /mesh 'hb': its file 'assets\/box.obj' was not given/);
  sim.step(1e-3, 1000);
  assert.ok(sim.q[6] < -3, 'falls through');
  sim.dispose();
  const visual = await openModel({ text: text('mesh hb visual'), name: 'visual' });
  assert.deepEqual(visual.warnings, []);
  visual.dispose();
});

test('a malformed or flat mesh file is an error naming it', async () => {
  await assert.rejects(openModel({ text: text('mesh hb'), name: 'bad' }, { files: { 'assets/box.obj': 'v 0 0 0\nf 1 2 3\n' } }),
    /box\.obj/);
  const flat = 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n';
  await assert.rejects(openModel({ text: text('mesh hb'), name: 'flat' }, { files: { 'assets/box.obj': flat } }),
    (e) => e instanceof MechError && /mesh 'hb' \(assets\/box\.obj\)/.test(e.message));
  await assert.rejects(openModel('threelink', { backend: 'generated', files }), RangeError);
  await assert.rejects(openModel({ text: text('mesh hb'), name: 'files' }, { files: { 'assets/box.obj': 3 } }), TypeError);
});
