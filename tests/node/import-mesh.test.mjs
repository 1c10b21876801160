// Meshes in the importer (docs/import.md, "Meshes"): OBJ and STL files read, their mass properties against closed
// forms and against mujoco-js's compiled models (every mesh inertia type, scale, refpos/refquat, a concave mesh),
// the convex hull, <include> and <frame>, a robot whose masses MuJoCo infers from meshes, malformed files.  The
// optional last tests read the shared robot folders (the Unitree Go2, the Shadow Hand) and skip when absent.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';

import { convexHull } from '../../wasm/import/hull.mjs';
import { ImportError, importModel } from '../../wasm/import/index.mjs';
import { diag3, rotateInertia } from '../../wasm/import/math.mjs';
import { meshInertia, parseMesh, placeMesh } from '../../wasm/import/mesh.mjs';
import { root } from './helpers.mjs';
import { loadMujoco, mujocoFromFiles } from './mujoco-side.mjs';
import { openModel } from '../../wasm/index.mjs';

const fixtures = `${root}tests/fixtures/`;
const bytes = (path) => new Uint8Array(readFileSync(path));
const meshFile = (name) => parseMesh(bytes(`${fixtures}meshes/${name}`), name);

/** The files of a folder (one level of subfolders), keyed by relative path, as importModel's files option. */
function folder(dir, only = () => true) {
  const files = {};
  for (const f of readdirSync(dir, { withFileTypes: true })) {
    if (f.isDirectory()) {
      for (const g of readdirSync(`${dir}/${f.name}`)) if (only(g)) files[`${f.name}/${g}`] = bytes(`${dir}/${f.name}/${g}`);
    } else if (only(f.name)) {
      files[f.name] = f.name.endsWith('.xml') ? readFileSync(`${dir}/${f.name}`, 'utf8') : bytes(`${dir}/${f.name}`);
    }
  }
  return files;
}

const meshRobot = () => ({
  'mesh_robot.xml': readFileSync(`${fixtures}mesh_robot.xml`, 'utf8'),
  'mesh_robot_arm.xml': readFileSync(`${fixtures}mesh_robot_arm.xml`, 'utf8'),
  ...Object.fromEntries(readdirSync(`${fixtures}meshes`).map((f) => [`meshes/${f}`, bytes(`${fixtures}meshes/${f}`)])),
});

/** Each .mech body's mass, com and inertia (row-major) from the text. */
function mechBodies(text) {
  const out = new Map();
  let cur = null;
  for (const line of text.split('\n')) {
    let m;
    if ((m = /^body (\S+)/.exec(line))) out.set(m[1], cur = { com: [0, 0, 0] });
    else if (line === 'end') cur = null;
    else if (cur && (m = /^ {2}mass (\S+)/.exec(line))) cur.mass = Number(m[1]);
    else if (cur && (m = /^ {2}com (.*)/.exec(line))) cur.com = m[1].split(' ').map(Number);
    else if (cur && (m = /^ {2}inertia (.*)/.exec(line))) {
      const v = m[1].split(' ').map(Number);
      const [xy, xz, yz] = [v[3] ?? 0, v[4] ?? 0, v[5] ?? 0];
      cur.inertia = [v[0], xy, xz, xy, v[1], yz, xz, yz, v[2]];
    }
  }
  return out;
}

/**
 * The largest relative differences between the imported bodies and MuJoCo's compiled ones: mass, centre of mass
 * (in m, from the joint anchor) and inertia (the full tensor, relative to its largest element).
 */
async function againstMujoco(main, files) {
  const { text, warnings } = importModel(files[main], { name: main, files });
  const ours = mechBodies(text);
  const mj = await loadMujoco();
  const model = await mujocoFromFiles(main, files);
  const worst = { mass: 0, com: 0, inertia: 0, bodies: 0 };
  for (let b = 1; b < model.nbody; b++) {
    const name = mj.mj_id2name(model, 1, b);
    const o = ours.get(name) ?? ours.get(`${name}_2`); // 'base' is a .mech keyword: the importer names it base_2
    if (!o) continue;
    worst.bodies++;
    const I = rotateInertia(Array.from(model.body_iquat.subarray(4 * b, 4 * b + 4)), diag3(...model.body_inertia.subarray(3 * b, 3 * b + 3)));
    const scale = Math.max(...I.map(Math.abs));
    worst.inertia = Math.max(worst.inertia, ...I.map((x, i) => Math.abs(x - o.inertia[i]) / scale));
    worst.mass = Math.max(worst.mass, Math.abs(model.body_mass[b] - o.mass) / model.body_mass[b]);
    const j = model.body_jntadr[b];
    const anchor = j >= 0 && model.jnt_type[j] !== 0 ? model.jnt_pos.subarray(3 * j, 3 * j + 3) : [0, 0, 0];
    for (let k = 0; k < 3; k++) worst.com = Math.max(worst.com, Math.abs(model.body_ipos[3 * b + k] - anchor[k] - o.com[k]));
  }
  model.delete();
  return { worst, warnings, text };
}

test('OBJ (quads), binary STL and ASCII STL of a unit cube: volume, centre and inertia in closed form', () => {
  for (const name of ['cube.obj', 'cube.stl', 'cube_ascii.stl']) {
    const mesh = meshFile(name);
    for (const type of ['legacy', 'exact', 'convex']) {
      const { measure, com, inertia } = meshInertia(placeMesh(mesh), type, name);
      assert.ok(Math.abs(measure - 1) < 1e-15, `${name} ${type}: volume ${measure}`);
      for (const c of com) assert.ok(Math.abs(c - 0.5) < 1e-15, `${name} ${type}: centre ${com}`);
      const want = diag3(1 / 6, 1 / 6, 1 / 6); // a unit cube of unit density: (1² + 1²) / 12
      for (let i = 0; i < 9; i++) assert.ok(Math.abs(inertia[i] - want[i]) < 1e-15, `${name} ${type}: inertia ${inertia}`);
    }
    // A shell: six unit faces; about x, the two faces across x give 2 · 1/6, the four along it 4 · (1/4 + 1/12).
    const shell = meshInertia(placeMesh(mesh), 'shell', name);
    assert.ok(Math.abs(shell.measure - 6) < 1e-14);
    for (const k of [0, 4, 8]) assert.ok(Math.abs(shell.inertia[k] - 5 / 3) < 1e-14, `${name} shell: ${shell.inertia}`);
  }
});

test('scale, refpos and refquat place a mesh as MuJoCo does; a mirroring scale keeps the volume positive', () => {
  const mesh = meshFile('cube.obj');
  const moved = meshInertia(placeMesh(mesh, { refpos: [0.5, 0.5, 0.5], scale: [2, 3, -4] }), 'exact', 'cube');
  assert.ok(Math.abs(moved.measure - 24) < 1e-13, `volume ${moved.measure}`);
  for (const c of moved.com) assert.ok(Math.abs(c) < 1e-15);
  const want = [24 * (9 + 16) / 12, 24 * (4 + 16) / 12, 24 * (4 + 9) / 12];
  for (let k = 0; k < 3; k++) assert.ok(Math.abs(moved.inertia[4 * k] - want[k]) < 1e-12, `inertia ${moved.inertia}`);
  // refquat is the frame of the mesh file in the mesh's frame: the vertices turn by its inverse.
  const q = [Math.cos(Math.PI / 4), 0, 0, Math.sin(Math.PI / 4)]; // a quarter turn about z
  const turned = placeMesh({ vertices: Float64Array.from([1, 0, 0]), faces: new Uint32Array() }, { refquat: q });
  assert.ok(Math.abs(turned.vertices[0]) < 1e-15 && Math.abs(turned.vertices[1] + 1) < 1e-15, `${turned.vertices}`);
});

test('the convex hull: a cube, points inside, the hull of a concave mesh, and flat input refused', () => {
  const cube = meshFile('cube.stl');
  const h = convexHull(cube.vertices);
  assert.equal(h.faces.length / 3, 12);
  assert.equal(new Set(Array.from(h.faces).map((i) => cube.vertices.slice(3 * i, 3 * i + 3).join())).size, 8);
  // Random points: every one on the inner side of every hull face, and the hull's corners among them.
  let s = 7;
  const rnd = () => ((s = (s * 16807) % 2147483647) / 2147483647) * 2 - 1;
  const pts = Array.from({ length: 3000 }, rnd);
  const hull = convexHull(pts);
  for (let f = 0; f < hull.faces.length; f += 3) {
    const [a, b, c] = [0, 1, 2].map((k) => pts.slice(3 * hull.faces[f + k], 3 * hull.faces[f + k] + 3));
    const n = [(b[1] - a[1]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[1] - a[1]), (b[2] - a[2]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[2] - a[2]), (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])];
    for (let i = 0; i < pts.length; i += 3) {
      const d = n[0] * (pts[i] - a[0]) + n[1] * (pts[i + 1] - a[1]) + n[2] * (pts[i + 2] - a[2]);
      assert.ok(d <= 1e-12, `point ${i / 3} outside hull face ${f / 3} by ${d}`);
    }
  }
  // The L prism's hull is the prism minus the notch's complement: volume 3.5 (its notch's triangle filled).
  const l = meshFile('l_prism.obj');
  assert.ok(Math.abs(meshInertia(placeMesh(l), 'convex', 'l').measure - 3.5) < 1e-14);
  assert.ok(Math.abs(meshInertia(placeMesh(l), 'exact', 'l').measure - 3) < 1e-14);
  assert.throws(() => convexHull([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]), /one plane/);
});

test('mesh mass properties match mujoco-js (3.3): box, torus and a concave mesh, every inertia type, ≤ 1e-9', async () => {
  const files = {
    'cube.stl': bytes(`${fixtures}meshes/cube.stl`),
    'torus.obj': bytes(`${fixtures}meshes/torus.obj`),
    'l_prism.obj': bytes(`${fixtures}meshes/l_prism.obj`),
  };
  for (const file of Object.keys(files)) {
    for (const type of ['legacy', 'exact', 'convex', 'shell']) {
      files['m.xml'] = `<mujoco><asset><mesh name="m" file="${file}" scale="0.3 0.2 0.1" refpos="0.1 0 0" refquat="1 0.2 0.3 0.1" inertia="${type}"/></asset>
        <worldbody><body name="a"><joint axis="1 0 0"/><geom type="mesh" mesh="m" pos="0.1 0 0" euler="10 20 30" density="900"/></body></worldbody></mujoco>`;
      const { worst } = await againstMujoco('m.xml', files);
      assert.equal(worst.bodies, 1);
      assert.ok(worst.mass <= 1e-12 && worst.com <= 1e-15 && worst.inertia <= 1e-9, `${file} ${type}: ${JSON.stringify(worst)}`);
    }
  }
});

test('a mesh given inline (vertex and face, or vertices only: their convex hull) has the mass properties MuJoCo gives it', async () => {
  for (const face of [' face="0 2 1 0 1 3 0 3 2 1 2 3"', '']) {
    const files = { 'm.xml': `<mujoco><asset><mesh name="t" vertex="0 0 0 1 0 0 0 1 0 0.2 0.3 1.5 0.1 0.1 0.1"${face}/></asset>
      <worldbody><body name="a"><joint/><geom type="mesh" mesh="t" density="3" euler="10 0 30"/></body></worldbody></mujoco>` };
    if (face) files['m.xml'] = files['m.xml'].replace(' 0.1 0.1 0.1"', '"');
    const { worst, warnings } = await againstMujoco('m.xml', files);
    assert.ok(worst.bodies === 1 && worst.mass <= 1e-12 && worst.com <= 1e-15 && worst.inertia <= 1e-9, `${face || 'hull'}: ${JSON.stringify(worst)}`);
    assert.ok(warnings.includes('1 mesh geoms of meshes given inline (.mech draws mesh files) dropped'), warnings.join('\n'));
  }
});

test('a robot whose masses MuJoCo infers from meshes (included tree, frames, childclass) matches MuJoCo ≤ 1e-9', async () => {
  const { worst, warnings, text } = await againstMujoco('mesh_robot.xml', meshRobot());
  console.log(`mesh robot: relative mass ${worst.mass.toExponential(2)}, centre ${worst.com.toExponential(2)} m, inertia ${worst.inertia.toExponential(2)} over ${worst.bodies} bodies`);
  assert.equal(worst.bodies, 4);
  assert.ok(worst.mass <= 1e-12 && worst.com <= 1e-15 && worst.inertia <= 1e-9, JSON.stringify(worst));
  assert.ok(!warnings.some((w) => /not among the files/.test(w)), warnings.join('\n'));
  assert.match(text, /^poi tip link2 /m);
});

test('<frame> composes pos and every orientation form, and its childclass reaches the elements inside', () => {
  const xml = (inner) => `<mujoco><default><default class="k"><geom type="box" size="0.1 0.2 0.3" density="10"/></default></default>
    <worldbody><body name="a"><joint/>${inner}</body></worldbody></mujoco>`;
  const flat = importModel(xml('<geom class="k" pos="0.1 0.2 0.3" euler="30 20 10"/>')).text;
  const framed = importModel(xml('<frame pos="0.1 0 0" euler="30 0 0"><frame pos="0 0.2 0.3" quat="1 0 0 0" childclass="k"><geom euler="0 20 10"/></frame></frame>')).text;
  // Rotations about moving axes: euler 30 20 10 = the frame's 30 about x, then 20 about y and 10 about z. The frame
  // at x 0.1 turned 30° about x carries (0, 0.2, 0.3) elsewhere, so compare the mass properties as computed.
  const a = mechBodies(flat).get('a');
  const b = mechBodies(framed).get('a');
  assert.equal(a.mass, b.mass);
  for (let i = 0; i < 9; i++) assert.ok(Math.abs(a.inertia[i] - b.inertia[i]) < 1e-15, `inertia ${a.inertia} vs ${b.inertia}`);
  const c = Math.cos(Math.PI / 6);
  const s = Math.sin(Math.PI / 6);
  const want = [0.1, 0.2 * c - 0.3 * s, 0.2 * s + 0.3 * c];
  for (let k = 0; k < 3; k++) assert.ok(Math.abs(b.com[k] - want[k]) < 1e-15, `com ${b.com} vs ${want}`);
  // axisangle, and a joint inside a frame turns with it.
  const j = importModel(xml('<geom class="k"/><frame axisangle="0 0 1 90"><body name="b"><joint axis="1 0 0"/><geom class="k"/></body></frame>')).text;
  assert.match(j, /body b\n {2}parent a\n {2}joint revolute x\n {2}rot z 90\n/);
});

const CASES = [
  ['OBJ: a bad vertex', 'a.obj', 'v 0 0 0\nv 1 0 x\n', 'a.obj:2: bad vertex coordinate \'x\''],
  ['OBJ: a face naming a vertex that does not exist', 'a.obj', 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 9\n', 'a.obj:6: a face names vertex 9, but the file has 4 vertices'],
  ['OBJ: a face of two vertices', 'a.obj', 'v 0 0 0\nf 1 1\n', 'a.obj:2: a face needs at least 3 vertices, got 2'],
  ['OBJ: a bad face index', 'a.obj', 'v 0 0 0\nf 1 2 a/b\n', "a.obj:2: bad face vertex 'a/b' (a 1-based index, a negative one counting back)"],
  ['OBJ: no faces', 'a.obj', 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n', 'a.obj: a mesh without faces'],
  ['STL: binary with the wrong size', 'a.stl', (() => { const b = new Uint8Array(84 + 50 * 2 - 3); b[80] = 2; return b; })(),
    "a.stl: byte 80: a binary STL's header counts 2 triangles, which take 184 bytes, but the file has 181 (and it is not ASCII STL: it does not begin with 'solid')"],
  ['STL: too short', 'a.stl', new Uint8Array(10), "a.stl: byte 10: too short for a binary STL (84 bytes of header) and not ASCII STL (no 'solid')"],
  ['STL: ASCII missing a vertex', 'a.stl', 'solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nendloop\nendfacet\nendsolid\n', "a.stl:6: expected 'vertex', got 'endloop'"],
  ['STL: ASCII bad number', 'a.stl', 'solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 zero\n', "a.stl:4: expected a number, got 'zero'"],
  ['an unknown mesh format', 'a.ply', 'ply', "a.ply: unknown mesh format '.ply': expected .obj or .stl"],
];

test('malformed mesh files: errors name the file and the line (or the byte offset of a binary STL)', () => {
  for (const [what, file, data, message] of CASES) {
    assert.throws(() => parseMesh(data, file), (e) => e instanceof ImportError && e.message === message, `${what}: expected ${message}`);
  }
});

test('bad meshes where mass is inferred, includes that cycle or are missing: errors naming file and line', () => {
  const cube = readFileSync(`${fixtures}meshes/cube.obj`, 'utf8');
  const model = (mesh, extra = '') => `<mujoco>\n<asset>\n<mesh ${mesh}/>\n</asset>\n<worldbody><body name="a"><joint/><geom type="mesh" mesh="m"/></body></worldbody>${extra}</mujoco>`;
  const flat = 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 4\nf 1 4 3\n';
  const inward = cube.replace(/^f (\d+) (\d+) (\d+) (\d+)$/gm, 'f $4 $3 $2 $1');
  const mixed = cube.replace('f 1 4 3 2', 'f 2 3 4 1').replace('f 5 6 7 8', 'f 8 7 6 5');
  const cases = [
    [model('name="m" file="flat.obj"'), { 'flat.obj': flat },
      "m.xml:3:1: <mesh name=\"m\">: mesh 'm' ('flat.obj'): volume is too small (0) to give it a mass: a flat or open mesh (MuJoCo: mesh inertia=\"shell\")"],
    [model('name="m" file="in.obj" inertia="exact"'), { 'in.obj': inward }, "m.xml:3:1: <mesh name=\"m\">: mesh 'm' ('in.obj'): volume is negative (-1): its faces are oriented inward"],
    [model('name="m" file="mixed.obj" inertia="exact"'), { 'mixed.obj': mixed },
      "m.xml:3:1: <mesh name=\"m\">: mesh 'm' ('mixed.obj'): faces have inconsistent orientation: mixed.obj:12 uses the edge from vertex 1 to vertex 2 in the same direction as mixed.obj:10 (each edge of a closed surface runs once each way)"],
    [model('name="m" file="gone.obj"'), {}, "m.xml:5:35: <geom>: the geom of body 'a' has mass MuJoCo would infer from mesh 'm', whose file 'gone.obj' is not among the files given"],
    [model('name="m" file="bad.obj"'), { 'bad.obj': 'v 0 0 0\nv 1 0\n' }, "bad.obj:2: a vertex needs x y z, got 'v 1 0'"],
    ['<mujoco>\n<include file="b.xml"/>\n</mujoco>', { 'b.xml': '<mujoco>\n\n<include file="m.xml"/></mujoco>' },
      "b.xml:3:1: <include>: includes 'm.xml' again: a cycle (m.xml -> b.xml -> m.xml)"],
    ['<mujoco>\n<include file="parts/none.xml"/>\n</mujoco>', {},
      "m.xml:2:1: <include>: the included file 'parts/none.xml' is not among the files given (importModel's files option)"],
    ['<mujoco>\n<include file="b.xml"/>\n</mujoco>', { 'b.xml': '<mujoco><worldbody>\n<body name="a"><joint type="spiral"/></body></worldbody></mujoco>' },
      "b.xml:2:16: <joint>: joint '(unnamed joint of body 'a')': unknown joint type 'spiral' (MJCF: free, ball, slide, hinge)"],
  ];
  for (const [xml, files, want] of cases) {
    assert.throws(() => importModel(xml, { name: 'm.xml', files }), (e) => {
      assert.ok(e instanceof ImportError, e.stack);
      if (typeof want === 'string') assert.equal(e.message, want);
      else assert.match(e.message, want);
      return true;
    });
  }
  assert.throws(() => importModel('<mujoco/>', { files: { 'a.obj': 3 } }), /files\['a\.obj'\] must be a string or a Uint8Array/);
  assert.throws(() => importModel('<mujoco/>', { files: { '../a.obj': '' } }), /not a path inside the model's folder/);
});

// Bad input, one test per error: the exact message, naming the file and line (a binary STL: the byte offset).
const cubeObj = () => readFileSync(`${fixtures}meshes/cube.obj`, 'utf8');
const inferred = (file, inertia = '') => `<mujoco>\n<asset>\n<mesh name="m" file="${file}"${inertia}/>\n</asset>\n<worldbody><body name="a"><joint/><geom type="mesh" mesh="m"/></body></worldbody></mujoco>`;
const refused = (xml, files, message) => assert.throws(() => importModel(xml, { name: 'm.xml', files }), (e) => {
  assert.ok(e instanceof ImportError, e.stack);
  assert.equal(e.message, message);
  return true;
});

test('bad input: an OBJ vertex coordinate that is not a number names the file and line', () => {
  refused(inferred('a.obj'), { 'a.obj': 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1,5\nf 1 2 3\n' }, "a.obj:4: bad vertex coordinate '1,5'");
});

test('bad input: an OBJ face naming a vertex past the last names the file and line', () => {
  refused(inferred('a.obj'), { 'a.obj': 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 2 3 -5\n' }, 'a.obj:7: a face names vertex 0, but the file has 4 vertices');
});

test('bad input: a binary STL whose size disagrees with its triangle count names the byte of the count', () => {
  const stl = new Uint8Array(84 + 50 * 12 + 7);
  new DataView(stl.buffer).setUint32(80, 12, true);
  refused(inferred('part.stl'), { 'part.stl': stl },
    "part.stl: byte 80: a binary STL's header counts 12 triangles, which take 684 bytes, but the file has 691 (and it is not ASCII STL: it does not begin with 'solid')");
});

test('bad input: a binary STL vertex that is not finite names its byte', () => {
  const stl = bytes(`${fixtures}meshes/cube.stl`);
  new DataView(stl.buffer).setFloat32(84 + 50 * 3 + 12 + 4 * 4, Infinity, true);
  refused(inferred('cube.stl'), { 'cube.stl': stl }, 'cube.stl: byte 262: vertex coordinate is not finite (triangle 4)');
});

test('bad input: faces of inconsistent orientation where exact inertia needs it name the two faces\' lines', () => {
  const turned = cubeObj().replace('f 2 3 7 6', 'f 6 7 3 2');
  refused(inferred('turned.obj', ' inertia="exact"'), { 'turned.obj': turned },
    "m.xml:3:1: <mesh name=\"m\">: mesh 'm' ('turned.obj'): faces have inconsistent orientation: turned.obj:13 uses the edge from vertex 6 to vertex 7 in the same direction as turned.obj:11 (each edge of a closed surface runs once each way)");
});

test('bad input: an edge shared by three faces (not a closed surface) where exact inertia needs one', () => {
  refused(inferred('fin.obj', ' inertia="exact"'), { 'fin.obj': `${cubeObj()}f 1 2 7\n` },
    "m.xml:3:1: <mesh name=\"m\">: mesh 'm' ('fin.obj'): faces have inconsistent orientation: fin.obj:16 uses the edge from vertex 1 to vertex 2 in the same direction as fin.obj:12 (each edge of a closed surface runs once each way)");
});

test('a face of no area (a vertex named twice) is skipped by the orientation check, as MuJoCo skips it', () => {
  const mesh = parseMesh(`${cubeObj()}f 1 2 1\nf 3 3 4\n`, 'cube.obj');
  assert.equal(meshInertia(placeMesh(mesh), 'exact', 'cube').measure, 1);
});

test('bad input: an STL facet turned inward in an exact-inertia mesh names its line (vertices welded, as MuJoCo does)', () => {
  const facet = (a, b, c) => `facet normal 0 0 0\nouter loop\nvertex ${a}\nvertex ${b}\nvertex ${c}\nendloop\nendfacet\n`;
  const tet = ['0 0 0', '1 0 0', '0 1 0', '0 0 1'];
  const stl = `solid t\n${facet(tet[0], tet[2], tet[1])}${facet(tet[0], tet[1], tet[3])}${facet(tet[1], tet[2], tet[3])}${facet(tet[0], tet[2], tet[3])}endsolid t\n`;
  refused(inferred('tet.stl', ' inertia="exact"'), { 'tet.stl': stl },
    "m.xml:3:1: <mesh name=\"m\">: mesh 'm' ('tet.stl'): faces have inconsistent orientation: tet.stl:23 uses the edge from vertex 1 to vertex 2 in the same direction as tet.stl:2 (each edge of a closed surface runs once each way)");
});

test('bad input: a mesh of zero volume whose mass MuJoCo would infer names the mesh, its file and the way out', () => {
  refused(inferred('flat.obj'), { 'flat.obj': 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 4\nf 1 4 3\n' },
    "m.xml:3:1: <mesh name=\"m\">: mesh 'm' ('flat.obj'): volume is too small (0) to give it a mass: a flat or open mesh (MuJoCo: mesh inertia=\"shell\")");
});

test('bad input: an <include> cycle names the chain, at the including element', () => {
  refused('<mujoco>\n<include file="arm.xml"/>\n</mujoco>', { 'arm.xml': '<mujoco>\n<include file="hand.xml"/>\n</mujoco>', 'hand.xml': '<mujoco>\n\n<include file="arm.xml"/>\n</mujoco>' },
    "hand.xml:3:1: <include>: includes 'arm.xml' again: a cycle (m.xml -> arm.xml -> hand.xml -> arm.xml)");
  refused('<mujoco>\n<include file="./m.xml"/>\n</mujoco>', {}, "m.xml:2:1: <include>: includes './m.xml' again: a cycle (m.xml -> m.xml)");
});

test('bad input: a missing include names the file and the line of the including element, in an included file too', () => {
  refused('<mujoco>\n<include file="arm.xml"/>\n</mujoco>', { 'arm.xml': '<mujoco>\n  <include file="parts/hand.xml"/>\n</mujoco>' },
    "arm.xml:2:3: <include>: the included file 'parts/hand.xml' is not among the files given (importModel's files option)");
});

test('a missing visual mesh is a warning naming its file, and the model still imports', () => {
  const xml = '<mujoco><compiler meshdir="assets"/><asset><mesh file="shell.stl"/></asset><worldbody><body name="a"><joint/><inertial mass="1" diaginertia="1 1 1"/><geom type="mesh" mesh="shell"/></body></worldbody></mujoco>';
  const { text, warnings } = importModel(xml, { name: 'm.xml', files: { 'assets/other.stl': bytes(`${fixtures}meshes/cube.stl`) } });
  assert.ok(warnings.includes("mesh 'shell': the file 'assets/shell.stl' is not among the files given: its geoms are not drawn"), warnings.join('\n'));
  assert.match(text, /^body a$/m);
  // No files at all: one warning counts them.
  const none = importModel(xml, { name: 'm.xml' }).warnings;
  assert.ok(none.includes("1 mesh file named and no files given (importModel's files option): their geoms are not drawn"), none.join('\n'));
});

test('a colliding mesh whose file gives no hull is written visual with a warning naming it, and the model opens', async () => {
  const xml = '<mujoco><compiler meshdir="assets"/><asset><mesh file="link.obj"/><mesh file="flat.obj"/></asset><worldbody>'
    + '<body name="a"><joint/><inertial mass="1" diaginertia="1 1 1"/><geom type="mesh" mesh="link"/><geom type="mesh" mesh="link"/>'
    + '<geom type="mesh" mesh="flat" contype="0" conaffinity="0"/></body></worldbody></mujoco>';
  const files = { 'assets/link.obj': 'this is not a mesh\n', 'assets/flat.obj': 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n' };
  const { text, warnings } = importModel(xml, { name: 'm.xml', files });
  assert.deepEqual(warnings.filter((w) => /cannot collide/.test(w)),
    ["mesh 'link' cannot collide (assets/link.obj: a mesh needs at least 4 vertices, this one has 0): its geoms are written visual"]);
  assert.deepEqual(text.match(/^ {2}shape mesh .*$/gm), ['  shape mesh link visual', '  shape mesh link visual', '  shape mesh flat visual']);
  const sim = await openModel({ text, name: 'm' }, { files });
  assert.deepEqual(sim.warnings, []);
  sim.dispose();
});

/** An axis-aligned box from `lo` to `hi` as OBJ text. */
function boxObj(lo, hi) {
  const v = [];
  for (let i = 0; i < 8; i++) v.push(`v ${i & 1 ? hi[0] : lo[0]} ${i & 2 ? hi[1] : lo[1]} ${i & 4 ? hi[2] : lo[2]}`);
  return `${v.join('\n')}\nf 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n`;
}

// A URDF crate on a floating joint: drawn from its package:// mesh, colliding through the same file named by a
// file:// path elsewhere (found by its name, as MuJoCo's URDF import finds it), a Collada visual dropped.
const CRATE_URDF = `<robot name="crate">
  <link name="world"/>
  <link name="crate">
    <inertial><mass value="6"/><inertia ixx="0.04" iyy="0.065" izz="0.065" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><mesh filename="package://crate_description/meshes/crate.obj" scale="0.5 0.5 0.5"/></geometry></visual>
    <visual><geometry><mesh filename="package://crate_description/meshes/label.dae"/></geometry></visual>
    <collision><geometry><mesh filename="file:///opt/ros/share/crate_description/meshes/crate.obj" scale="0.5 0.5 0.5"/></geometry></collision>
  </link>
  <joint name="free" type="floating"><parent link="world"/><child link="crate"/><origin xyz="0 0 0.4"/></joint>
</robot>
`;

test('URDF meshes: found by path or by name, drawn and colliding through the same file, rest on the floor; missing and Collada ones named', async () => {
  const files = { 'meshes/crate.obj': boxObj([-0.3, -0.2, -0.2], [0.3, 0.2, 0.2]) };
  const { text, warnings } = importModel(CRATE_URDF, { name: 'crate.urdf', files });
  assert.deepEqual(text.match(/^(mesh | {2}shape ).*$/gm), ['mesh crate meshes/crate.obj scale 0.5 0.5 0.5',
    '  shape mesh crate visual', '  shape mesh crate friction 1 1']);
  assert.ok(warnings.includes('1 mesh visuals not in STL or OBJ (.dae) dropped'), warnings.join('\n'));
  for (const backend of /** @type {const} */ (['runtime', 'jit'])) {
    const sim = await openModel({ text, name: 'crate' }, { backend, files });
    assert.deepEqual(sim.warnings, []);
    sim.setFloor(true, 0);
    sim.step(2e-3, 1000);
    // on its 0.3 × 0.2 face, the centre 0.1 m up less the soft contact's depth
    assert.ok(sim.q[6] > 0.099 && sim.q[6] < 0.1, `${backend}: centre at ${sim.q[6]} m`);
    sim.dispose();
  }
  const none = importModel(CRATE_URDF, { name: 'crate.urdf' });
  assert.ok(none.warnings.includes("2 mesh files named and no files given (importModel's files option)"), none.warnings.join('\n'));
  assert.doesNotMatch(none.text, /^mesh /m);
  const other = importModel(CRATE_URDF, { name: 'crate.urdf', files: { 'meshes/other.obj': files['meshes/crate.obj'] } });
  assert.ok(other.warnings.includes("mesh 'package://crate_description/meshes/crate.obj' is not among the files given: its visuals are not drawn, its collisions do not collide"), other.warnings.join('\n'));
});

// The shared robot folders: MECH_ROBOTS names them, else a 'shared/data/robots' beside the clone (or beside the
// folder holding it, for a git worktree).
const shared = process.env.MECH_ROBOTS ?? [`${root}../shared/data/robots`, `${root}../../shared/data/robots`].find((d) => existsSync(d)) ?? '';
const sharedHere = existsSync(`${shared}/unitree_go2/scene.xml`) && existsSync(`${shared}/shadow_hand/right_hand.xml`);

test('the Unitree Go2 (scene.xml including go2.xml) imports with its meshes, the missing base_4.obj named, and matches MuJoCo', { skip: !sharedHere && 'the shared robot folders are not here' }, async () => {
  const files = folder(`${shared}/unitree_go2`);
  const { warnings, text } = importModel(files['scene.xml'], { name: 'scene.xml', files });
  assert.ok(warnings.includes("mesh 'base_4': the file 'assets/base_4.obj' is not among the files given: its geoms are not drawn"), warnings.join('\n'));
  assert.equal((text.match(/^body /gm) ?? []).length, 13);
  assert.equal((text.match(/^mesh /gm) ?? []).length, 15);
  assert.equal((text.match(/^ {2}shape mesh /gm) ?? []).length, 32);
  // MuJoCo cannot load the model without base_4.obj: it is given the file without that mesh.
  files['go2.xml'] = files['go2.xml'].replace(/<mesh file="base_4\.obj" \/>/, '').replace(/<geom mesh="base_4"[^>]*\/>/, '');
  const { worst } = await againstMujoco('scene.xml', files);
  console.log(`Go2: relative mass ${worst.mass.toExponential(2)}, centre ${worst.com.toExponential(2)} m, inertia ${worst.inertia.toExponential(2)} over ${worst.bodies} bodies`);
  assert.equal(worst.bodies, 13);
  assert.ok(worst.mass <= 1e-12 && worst.com <= 1e-15 && worst.inertia <= 1e-9, JSON.stringify(worst));
});

test('the Shadow Hand (scene_right.xml including right_hand.xml) imports with its meshes and matches MuJoCo', { skip: !sharedHere && 'the shared robot folders are not here' }, async () => {
  const files = folder(`${shared}/shadow_hand`);
  const { warnings, text } = importModel(files['scene_right.xml'], { name: 'scene_right.xml', files });
  assert.ok(!warnings.some((w) => /not among the files/.test(w)), warnings.join('\n'));
  // 24 drawn meshes, and the 6 colliding ones (the forearm's and the five fingertips') as hull colliders.
  assert.equal((text.match(/^ {2}shape mesh .* visual$/gm) ?? []).length, 24);
  assert.equal((text.match(/^ {2}shape mesh (?!.* visual$)/gm) ?? []).length, 6);
  const { worst } = await againstMujoco('scene_right.xml', files);
  console.log(`Shadow Hand: relative mass ${worst.mass.toExponential(2)}, centre ${worst.com.toExponential(2)} m, inertia ${worst.inertia.toExponential(2)} over ${worst.bodies} bodies`);
  assert.equal(worst.bodies, 26); // the hand's 25 and the scene's free cube
  assert.ok(worst.mass <= 1e-12 && worst.com <= 1e-15 && worst.inertia <= 1e-9, JSON.stringify(worst));
});

test('the Shadow Hand with inertia from its meshes and geoms (inertiafromgeom="true") matches MuJoCo ≤ 1e-9', { skip: !sharedHere && 'the shared robot folders are not here' }, async () => {
  const files = folder(`${shared}/shadow_hand`);
  files['right_hand.xml'] = files['right_hand.xml'].replace('<compiler ', '<compiler inertiafromgeom="true" ');
  const { worst } = await againstMujoco('right_hand.xml', files);
  console.log(`Shadow Hand, inertia from meshes: relative mass ${worst.mass.toExponential(2)}, centre ${worst.com.toExponential(2)} m, inertia ${worst.inertia.toExponential(2)} over ${worst.bodies} bodies`);
  assert.equal(worst.bodies, 25);
  assert.ok(worst.mass <= 1e-12 && worst.com <= 1e-15 && worst.inertia <= 1e-9, JSON.stringify(worst));
});
