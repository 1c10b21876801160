// mjcf.mjs — MuJoCo MJCF to source nodes (emit.mjs).  What is read follows
// the MJCF reference of MuJoCo's documentation: frames (pos, quat, axisangle,
// euler with compiler eulerseq, xyaxes, zaxis), <default> classes with
// childclass, compiler angle, hinge/slide/free joints, <inertial> with
// diaginertia + orientation or fullinertia, inertia inferred from geoms
// (compiler inertiafromgeom) and from meshes (mjcf-mesh.mjs), geoms as
// shapes, sites as points of interest, option gravity and integrator,
// actuators and keyframes (mjcf_actuators.mjs), colliders, world planes and
// boxes, <contact><exclude>, joint limits and friction loss
// (mjcf_contact.mjs), <include> (mjcf-include.mjs) and <frame>.  Everything
// else is reported as a warning.

import { IDENTITY_T, apply, combineMass, compose, diag3, qAxisAngle, qmul, qnormalize, qrot, matToQ, rotateInertia } from './math.mjs';
import { parseXml, readers } from './xml.mjs';
import { MAX_BODIES } from './emit.mjs';
import { fileSet } from './files.mjs';
import { expandIncludes } from './mjcf-include.mjs';
import { meshAssets } from './mjcf-mesh.mjs';
import { asMujocoCompiles } from './mujoco-eig.mjs';
import { readActuators, readIntegrator, readKeyframes } from './mjcf_actuators.mjs';
import { contactReader } from './mjcf_contact.mjs';
import { readEqualities, readTendons } from './mjcf_tendons.mjs';

const ORIENTATIONS = ['quat', 'axisangle', 'euler', 'xyaxes', 'zaxis'];
const DROPPED_SECTIONS = {
  sensor: 'sensors',
  visual: 'visual settings',
  statistic: 'statistics', custom: 'custom data', extension: 'extensions', size: 'size settings',
  deformable: 'deformables',
};

/** The rotation taking z to `z` along the shortest arc (MuJoCo's zaxis), or null for a zero vector. */
export function zToQ(z) {
  const n = Math.hypot(z[0], z[1], z[2]);
  if (!(n > 0) || !Number.isFinite(n)) return null;
  const u = z.map((x) => x / n);
  const axis = [-u[1], u[0], 0]; // (0, 0, 1) × u
  const s = Math.hypot(axis[0], axis[1]);
  if (s < 1e-14) return u[2] > 0 ? [1, 0, 0, 0] : [0, 1, 0, 0];
  return qAxisAngle(axis, Math.atan2(s, u[2]));
}

/**
 * @param {string} text
 * @param {{ file: string, files?: { get: (path: string) => string | Uint8Array | undefined } }} options files: what
 *   <include> and meshes name, by path relative to the model file's folder (files.mjs)
 * @returns {{ model: string, gravity: number[], nodes: object[], warnings: string[] }}
 */
export function readMjcf(text, { file, files = fileSet(undefined) }) {
  const root = parseXml(text, file);
  const { fail, vec, num } = readers(file);
  if (root.name !== 'mujoco') throw fail(root, 'the root element of an MJCF file is <mujoco>');
  expandIncludes(root, { file: file.replace(/^.*[\\/]/, ''), dir: '', files });
  const warnings = [];
  const warn = (w) => warnings.push(w);
  const tally = new Map(); // one warning per kind of thing dropped, with a count
  const drop = (what) => tally.set(what, (tally.get(what) ?? 0) + 1);

  // compiler
  let angle = 'degree';
  let eulerseq = 'xyz';
  let fromGeom = 'auto';
  let meshdir = '';
  let assetdir = '';
  let autolimits = true; // MuJoCo's default: a range given makes a joint limited
  for (const c of root.children.filter((e) => e.name === 'compiler')) {
    if (c.attrs.autolimits !== undefined) autolimits = c.attrs.autolimits === 'true';
    meshdir = c.attrs.meshdir ?? meshdir;
    assetdir = c.attrs.assetdir ?? assetdir;
    if (c.attrs.angle !== undefined) {
      if (!['degree', 'radian'].includes(c.attrs.angle)) throw fail(c, `angle="${c.attrs.angle}": expected degree or radian`);
      angle = c.attrs.angle;
    }
    if (c.attrs.eulerseq !== undefined) {
      if (!/^[xyzXYZ]{3}$/.test(c.attrs.eulerseq)) throw fail(c, `eulerseq="${c.attrs.eulerseq}": expected three of xyzXYZ`);
      eulerseq = c.attrs.eulerseq;
    }
    if (c.attrs.inertiafromgeom !== undefined) {
      if (!['true', 'false', 'auto'].includes(c.attrs.inertiafromgeom)) throw fail(c, `inertiafromgeom="${c.attrs.inertiafromgeom}": expected true, false or auto`);
      fromGeom = c.attrs.inertiafromgeom;
    }
    if (c.attrs.coordinate === 'global') throw fail(c, 'coordinate="global" is not supported (MuJoCo removed it too): use local frames');
    for (const k of ['boundmass', 'boundinertia', 'settotalmass', 'balanceinertia', 'fusestatic']) {
      if (c.attrs[k] !== undefined && c.attrs[k] !== 'false' && Number(c.attrs[k]) !== 0 && !(k === 'settotalmass' && Number(c.attrs[k]) < 0)) {
        warn(`compiler ${k}="${c.attrs[k]}" not applied: masses and inertias are imported as written`);
      }
    }
  }
  const toRad = angle === 'degree' ? Math.PI / 180 : 1;
  const contact = contactReader({ warn, drop, num, vec, fail, autolimits });

  // option
  let gravity = [0, 0, -9.81];
  const options = root.children.filter((e) => e.name === 'option');
  const integrator = readIntegrator(options.findLast((o) => o.attrs.integrator !== undefined), { fail, warn });
  for (const o of options) {
    gravity = vec(o, 'gravity', 3, gravity);
    contact.option(o);
    const other = Object.keys(o.attrs).filter((k) => !['gravity', 'integrator', ...contact.option.reads].includes(k));
    if (other.length) warn(`<option> ${other.join(', ')} dropped (.mech has gravity and the integrator; runs choose their own step)`);
    if (o.children.length) warn('<option> flags dropped');
  }

  // assets: material colours
  const materials = new Map();
  for (const a of root.children.filter((e) => e.name === 'asset')) {
    for (const e of a.children) {
      if (e.name === 'material' && e.attrs.name !== undefined) materials.set(e.attrs.name, e);
    }
  }

  // defaults: class name -> { joint, geom, site, ... } attribute maps, inherited
  const classes = new Map();
  const visit = (el, parentClass, depth) => {
    if (depth > 256) throw fail(el, 'defaults nested more than 256 deep');
    const name = el.attrs.class ?? (parentClass ? undefined : 'main');
    if (name === undefined) throw fail(el, 'a nested <default> needs a class attribute');
    if (classes.has(name)) throw fail(el, `default class '${name}' is defined twice`);
    const cls = {};
    for (const [k, v] of Object.entries(parentClass ?? {})) cls[k] = { ...v };
    classes.set(name, cls);
    for (const c of el.children) {
      if (c.name === 'default') visit(c, cls, depth + 1);
      else cls[c.name] = { ...(cls[c.name] ?? {}), ...c.attrs };
    }
  };
  const topDefaults = root.children.filter((e) => e.name === 'default');
  for (const d of topDefaults) visit(d, classes.get('main') ?? null, 0);
  if (!classes.has('main')) classes.set('main', {});
  const meshes = meshAssets(root.children.filter((e) => e.name === 'asset'), {
    attrsOf: (el) => resolved(el, 'main'), vec, fail, files, meshdir: meshdir || assetdir, warn,
  });

  /** An element's attributes with its class defaults under them; `cls` the class in effect. */
  function resolved(el, cls) {
    const name = el.attrs.class ?? cls;
    const c = classes.get(name);
    if (!c) throw fail(el, `unknown default class '${name}'`);
    const base = c[el.name] ?? {};
    // An orientation given on the element replaces any the class gives.
    const own = ORIENTATIONS.some((k) => el.attrs[k] !== undefined);
    const merged = { ...base };
    if (own) for (const k of ORIENTATIONS) delete merged[k];
    if (el.attrs.fromto !== undefined || own) delete merged.fromto;
    return Object.assign(merged, el.attrs);
  }

  /** The attitude an element's attributes give (identity when none). */
  function orientation(el, attrs) {
    const given = ORIENTATIONS.filter((k) => attrs[k] !== undefined);
    if (given.length > 1) throw fail(el, `more than one orientation (${given.join(', ')})`);
    const zero = () => fail(el, `${given[0]}="${attrs[given[0]]}" is not a rotation (zero vector)`);
    switch (given[0]) {
      case undefined: return [1, 0, 0, 0];
      case 'quat': return qnormalize(vec(el, 'quat', 4, null, attrs)) ?? (() => { throw zero(); })();
      case 'axisangle': {
        const v = vec(el, 'axisangle', 4, null, attrs);
        return qAxisAngle(v.slice(0, 3), v[3] * toRad) ?? (() => { throw zero(); })();
      }
      case 'euler': {
        const v = vec(el, 'euler', 3, null, attrs);
        let q = [1, 0, 0, 0];
        for (let i = 0; i < 3; i++) {
          const c = eulerseq[i];
          const axis = { x: [1, 0, 0], y: [0, 1, 0], z: [0, 0, 1] }[c.toLowerCase()];
          const r = qAxisAngle(axis, v[i] * toRad);
          q = c === c.toLowerCase() ? qmul(q, r) : qmul(r, q); // lower case: moving axes
        }
        return qnormalize(q);
      }
      case 'xyaxes': {
        const v = vec(el, 'xyaxes', 6, null, attrs);
        const nx = Math.hypot(v[0], v[1], v[2]);
        if (!(nx > 0)) throw zero();
        const x = v.slice(0, 3).map((a) => a / nx);
        const d = x[0] * v[3] + x[1] * v[4] + x[2] * v[5];
        const y0 = [v[3] - d * x[0], v[4] - d * x[1], v[5] - d * x[2]];
        const ny = Math.hypot(...y0);
        if (!(ny > 1e-12)) throw fail(el, `xyaxes="${attrs.xyaxes}": y is parallel to x`);
        const y = y0.map((a) => a / ny);
        const z = [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];
        return matToQ([x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2]]);
      }
      default: return zToQ(vec(el, 'zaxis', 3, null, attrs)) ?? (() => { throw zero(); })();
    }
  }

  function rgbaOf(el, attrs) {
    if (attrs.rgba !== undefined) return vec(el, 'rgba', 4, null, attrs);
    const m = attrs.material !== undefined ? materials.get(attrs.material) : undefined;
    return m?.attrs.rgba !== undefined ? vec(m, 'rgba', 4, null) : null;
  }

  /**
   * A geom: its frame, type, sizes, mass properties (own frame; `needMass`: MuJoCo infers the body's from its geoms)
   * and shape (or null).
   */
  function geom(el, cls, body, needMass) {
    const a = resolved(el, cls);
    const type = a.type ?? 'sphere';
    let size = vec(el, 'size', [1, 2, 3], [0, 0, 0], a);
    let t = { p: vec(el, 'pos', 3, [0, 0, 0], a), q: orientation(el, a) };
    if (a.fromto !== undefined && ['capsule', 'cylinder', 'box', 'ellipsoid'].includes(type)) {
      const f = vec(el, 'fromto', 6, null, a);
      const d = [f[3] - f[0], f[4] - f[1], f[5] - f[2]];
      const q = zToQ(d);
      if (!q) throw fail(el, `fromto="${a.fromto}" has zero length`);
      t = { p: [(f[0] + f[3]) / 2, (f[1] + f[4]) / 2, (f[2] + f[5]) / 2], q };
      const half = Math.hypot(...d) / 2;
      size = type === 'box' || type === 'ellipsoid' ? [size[0], size[1] ?? size[0], half] : [size[0], half];
    }
    const need = { sphere: 1, capsule: 2, cylinder: 2, box: 3, ellipsoid: 3 }[type];
    const s = (i) => size[i] ?? 0;
    const color = rgbaOf(el, a);
    const where = `geom ${el.attrs.name !== undefined ? `'${el.attrs.name}' ` : ''}of body '${body}'`;
    let shape = null;
    let volume = 0;
    let unit = null; // inertia per unit mass, geom frame
    let com = t.p; // centre of mass, body frame
    if (need !== undefined && size.length >= need && size.slice(0, need).every((x) => x > 0)) {
      const [r, h] = [s(0), s(1)];
      switch (type) {
        case 'sphere': shape = { type, size: [r] }; volume = (4 / 3) * Math.PI * r ** 3; unit = diag3(0.4 * r * r, 0.4 * r * r, 0.4 * r * r); break;
        case 'box': {
          shape = { type, size: [2 * s(0), 2 * s(1), 2 * s(2)] };
          volume = 8 * s(0) * s(1) * s(2);
          const [x, y, z] = [2 * s(0), 2 * s(1), 2 * s(2)];
          unit = diag3((y * y + z * z) / 12, (x * x + z * z) / 12, (x * x + y * y) / 12);
          break;
        }
        case 'cylinder': {
          shape = { type, size: [r, 2 * h] };
          volume = Math.PI * r * r * 2 * h;
          const i = (3 * r * r + 4 * h * h) / 12;
          unit = diag3(i, i, (r * r) / 2);
          break;
        }
        case 'capsule': {
          shape = { type, size: [r, 2 * h] };
          // MuJoCo's capsule: a cylinder of height 2h and two hemispheres (mjCGeom's inertia).
          const height = 2 * h;
          const vs = (4 / 3) * Math.PI * r ** 3;
          const vc = Math.PI * r * r * height;
          volume = vs + vc;
          const i = (vc * (height * height / 12 + r * r / 4) + vs * (2 * r * r / 5 + height * height / 4 + 3 * height * r / 8)) / volume;
          unit = diag3(i, i, (vc * r * r / 2 + vs * 2 * r * r / 5) / volume);
          break;
        }
        case 'ellipsoid': {
          volume = (4 / 3) * Math.PI * s(0) * s(1) * s(2);
          const [x, y, z] = [s(0), s(1), s(2)];
          unit = diag3((y * y + z * z) / 5, (x * x + z * z) / 5, (x * x + y * y) / 5);
          drop('ellipsoid shapes (no .mech ellipsoid; their mass counts)');
          break;
        }
        default: break;
      }
    } else if (type === 'mesh') {
      const m = meshes.get(a.mesh);
      if (a.mesh === undefined) throw fail(el, 'a mesh geom needs a mesh attribute');
      if (!m) throw fail(el, `unknown mesh '${a.mesh}'`);
      const props = needMass ? meshes.massProperties(m) : null;
      if (props) {
        volume = props.measure;
        unit = props.inertia.map((x) => x / props.measure);
        com = apply(t, props.com);
      }
      const group = num(el, 'group', 0, a);
      const collides = num(el, 'contype', 1, a) !== 0 || num(el, 'conaffinity', 1, a) !== 0;
      if (group >= 3 && !collides) drop('visual mesh geoms in groups 3 and above (MuJoCo does not draw them by default)');
      else if (m.path === null) drop('mesh geoms of meshes given inline (.mech draws mesh files)');
      else if (!/^[^\s#]+\.(obj|stl)$/i.test(m.path)) drop('mesh geoms whose file is not an .obj or .stl path without spaces or #');
      else if (meshes.present(m)) shape = { type, mesh: m, size: [] };
    } else if (type === 'plane' || type === 'hfield' || type === 'sdf') {
      drop(`${type} geoms`);
    } else if (need !== undefined) {
      drop('geoms with a zero or missing size');
    } else {
      throw fail(el, `unknown geom type '${type}'`);
    }
    const massAttr = num(el, 'mass', undefined, a);
    const density = num(el, 'density', 1000, a);
    let mass = 0;
    if (unit) mass = massAttr ?? density * volume;
    else if (massAttr > 0 || type === 'mesh') mass = NaN; // mass we cannot place
    if (shape) shape.color = color;
    return { type, where, t, com, mass, unit, shape };
  }

  const nodes = [];
  const world = root.children.filter((e) => e.name === 'worldbody');
  if (world.length === 0) throw fail(root, 'no <worldbody>');

  /**
   * The elements of a body with the <frame>s among them opened (MuJoCo documentation, XML reference, "frame"):
   * each with the pose `T` of the frames around it in the body's frame and the default class in effect (a frame's
   * childclass, else the one around it).
   */
  function* framed(children, T, cls, depth = 0) {
    for (const c of children) {
      if (c.name !== 'frame') {
        yield { c, T, cls };
        continue;
      }
      if (depth > 256) throw fail(c, 'frames nested more than 256 deep');
      const k = c.attrs.childclass;
      if (k !== undefined && !classes.has(k)) throw fail(c, `unknown childclass '${k}'`);
      yield* framed(c.children, compose(T, { p: vec(c, 'pos', 3, [0, 0, 0]), q: orientation(c, c.attrs) }), k ?? cls, depth + 1);
    }
  }

  /** Walk a body (or the worldbody) and its children; `frame`: the pose of the <frame>s it sits in. */
  function walk(el, parent, cls, frame = IDENTITY_T) {
    const isWorld = el.name === 'worldbody';
    const a = el.attrs; // bodies take no defaults
    const childclass = el.attrs.childclass ?? cls;
    if (el.attrs.childclass !== undefined && !classes.has(el.attrs.childclass)) throw fail(el, `unknown childclass '${el.attrs.childclass}'`);
    let node = null;
    if (!isWorld) {
      if (nodes.length >= MAX_BODIES) throw fail(el, `more than ${MAX_BODIES} bodies (.mech's limit)`);
      node = {
        name: a.name ?? '', el, parent, X: compose(frame, { p: vec(el, 'pos', 3, [0, 0, 0], a), q: orientation(el, a) }),
        joint: null, weld: 'merge', parts: [], shapes: [], sites: [],
      };
      if (a.mocap === 'true') warn(`body '${a.name}' is a mocap body: imported as welded to its parent`);
      if (a.gravcomp !== undefined && Number(a.gravcomp) !== 0) warn(`body '${a.name}': gravcomp dropped`);
      nodes.push(node);
    }
    const bodyName = isWorld ? 'world' : node.name || `#${nodes.length - 1}`;
    const joints = [];
    let inertial = null;
    const geoms = [];
    const children = [];
    for (const { c, T, cls: inFrame } of framed(el.children, IDENTITY_T, childclass)) {
      switch (c.name) {
        case 'body': children.push({ c, T, cls: inFrame }); break;
        case 'joint': case 'freejoint': joints.push({ c, T, cls: inFrame }); break;
        case 'inertial':
          if (inertial) throw fail(c, `body '${bodyName}' has two <inertial> elements`);
          if (T !== IDENTITY_T) throw fail(c, 'an <inertial> cannot be inside a <frame>');
          inertial = c;
          break;
        case 'geom': geoms.push({ c, T, cls: inFrame }); break;
        case 'site': {
          const s = resolved(c, inFrame);
          if (s.name === undefined) { drop('unnamed sites'); break; }
          const p = apply(T, vec(c, 'pos', 3, [0, 0, 0], s));
          if (isWorld) world0.push({ name: s.name, p });
          else node.sites.push({ name: s.name, p });
          break;
        }
        case 'camera': case 'light': drop(`${c.name}s`); break;
        case 'composite': case 'flexcomp': case 'replicate': case 'attach': case 'plugin':
          throw fail(c, `<${c.name}> is not supported yet`);
        default: drop(`<${c.name}> elements in bodies`);
      }
    }
    if (isWorld) {
      if (joints.length) throw fail(joints[0].c, 'the world body cannot have joints');
      if (inertial) drop('<inertial> of the world body');
      for (const { c, T, cls: inFrame } of geoms) worldGeom(c, T, inFrame);
    } else {
      if (joints.length > 1) {
        const names = joints.map(({ c: j }) => `'${j.attrs.name ?? j.name}'`).join(', ');
        throw fail(joints[1].c, `body '${bodyName}' has ${joints.length} joints (${names}): a .mech body carries one joint, and the usual chain of massless bodies cannot be written (.mech bodies need mass > 0); split the body or merge the joints`);
      }
      if (joints.length === 1) node.joint = jointInFrame(joint(joints[0].c, joints[0].cls, bodyName), joints[0].T);
      // mass properties
      const useGeoms = fromGeom === 'true' || (fromGeom === 'auto' && !inertial);
      const gs = geoms.map(({ c, T, cls: inFrame }) => {
        const g = geom(c, inFrame, bodyName, useGeoms);
        return { ...g, t: compose(T, g.t), com: apply(T, g.com) };
      });
      gs.forEach((g, i) => {
        const { c, cls: inFrame } = geoms[i];
        // Every mesh geom counts (a collision mesh in group 3 is not drawn, but it is a collider .mech lacks).
        let collider = g.shape || g.type === 'mesh' ? contact.collider(c, resolved(c, inFrame)) : null;
        if (g.shape?.type === 'mesh' && !collider.visual && !meshes.collides(g.shape.mesh)) collider = { visual: true };
        if (g.shape) node.shapes.push({ ...g.shape, t: g.t, collider });
      });
      if (useGeoms) {
        const bad = gs.find((g) => Number.isNaN(g.mass));
        if (bad) {
          const { c: g, cls: inFrame } = geoms[gs.indexOf(bad)];
          const m = bad.type === 'mesh' ? meshes.get(resolved(g, inFrame).mesh) : null;
          throw fail(g, m
            ? `the ${bad.where} has mass MuJoCo would infer from mesh '${m.name}', ${m.path === null ? 'which has neither a file nor vertices' : `whose file '${m.path}' is not among the files given`}`
            : `the ${bad.where} has mass MuJoCo would infer from a ${bad.type}, which the importer cannot (unsupported type); give the body an <inertial>`);
        }
        const parts = gs.filter((g) => g.unit && g.mass > 0).map((g) => ({
          mass: g.mass, com: g.com, inertia: rotateInertia(g.t.q, g.unit.map((x) => x * g.mass)),
        }));
        for (const g of gs) if (g.mass < 0) throw fail(geoms[gs.indexOf(g)].c, 'negative mass');
        const m = combineMass(parts);
        // Several geoms: MuJoCo's compiler keeps the principal axes its own iteration finds (mujoco-eig.mjs).
        if (parts.length > 1) m.inertia = asMujocoCompiles(m.inertia);
        if (m.mass > 0) node.parts.push(m);
      } else if (inertial) {
        node.parts.push(inertialOf(inertial));
      }
      if (!node.joint) node.weld = node.parts.some((p) => p.mass > 0) ? 'fixed' : 'merge';
      if (!inertial && fromGeom === 'false') node.massNote = 'no <inertial>, and compiler inertiafromgeom="false"';
      else if (!inertial) node.massNote = geoms.length ? 'no <inertial>, and its geoms have no mass' : 'no <inertial> and no geoms';
    }
    for (const { c, T, cls: inFrame } of children) walk(c, node, inFrame, T);
  }

  /** A joint inside <frame>s: its anchor and axis in the body's frame. */
  function jointInFrame(j, T) {
    if (T === IDENTITY_T) return j;
    return { ...j, anchor: apply(T, j.anchor), ...(j.axis ? { axis: qrot(T.q, j.axis) } : {}) };
  }

  function inertialOf(el) {
    const mass = num(el, 'mass', undefined);
    if (mass === undefined) throw fail(el, 'no mass');
    if (mass < 0) throw fail(el, `negative mass ${mass}`);
    const com = vec(el, 'pos', 3, [0, 0, 0]);
    let inertia;
    if (el.attrs.fullinertia !== undefined) {
      if (ORIENTATIONS.some((k) => el.attrs[k] !== undefined)) throw fail(el, 'fullinertia and an orientation cannot both be given');
      const f = vec(el, 'fullinertia', 6, null);
      inertia = [f[0], f[3], f[4], f[3], f[1], f[5], f[4], f[5], f[2]];
    } else if (el.attrs.diaginertia !== undefined) {
      const d = vec(el, 'diaginertia', 3, null);
      inertia = rotateInertia(orientation(el, el.attrs), diag3(...d));
    } else {
      throw fail(el, 'needs diaginertia or fullinertia');
    }
    return { mass, com, inertia };
  }

  function joint(el, cls, bodyName) {
    const a = el.name === 'freejoint' ? { ...el.attrs, type: 'free' } : resolved(el, cls);
    const type = a.type ?? 'hinge';
    const name = a.name;
    const label = `'${name ?? `(unnamed joint of body '${bodyName}')`}'`;
    if (!['hinge', 'slide', 'free', 'ball'].includes(type)) throw fail(el, `joint ${label}: unknown joint type '${type}' (MJCF: free, ball, slide, hinge)`);
    const armature = num(el, 'armature', 0, a); // rotor inertia, on each of the joint's dofs
    if (armature < 0) throw fail(el, `joint ${label}: negative armature ${armature}`);
    const j = { name, el, from: `MJCF ${type}`, anchor: vec(el, 'pos', 3, [0, 0, 0], a), armature };
    if (type === 'free') {
      if (armature) warn(`joint ${label}: armature dropped (.mech takes it on hinge and slide joints)`);
      return { ...j, type: 'floating', armature: 0 };
    }
    if (type === 'ball') {
      // A unit quaternion about the anchor, the body-frame angular velocity: MuJoCo's ball joint as it is.
      for (const k of ['damping', 'stiffness', 'frictionloss']) {
        const v = num(el, k, 0, a);
        if (v < 0) throw fail(el, `joint ${label}: negative ${k} ${v}`);
        j[k] = v;
      }
      if (j.frictionloss) drop('ball joint frictionloss values (.mech friction loss is on hinge and slide joints)');
      if (contact.range(el, a, label, toRad)) drop('ball joint ranges (limits)');
      return { ...j, type: 'spherical' };
    }
    j.type = type === 'hinge' ? 'revolute' : 'prismatic';
    j.axis = vec(el, 'axis', 3, [0, 0, 1], a);
    if (!(Math.hypot(...j.axis) > 0)) throw fail(el, `joint ${label}: zero axis`);
    const unit = type === 'hinge' ? toRad : 1;
    for (const k of ['damping', 'stiffness', 'frictionloss']) {
      const v = num(el, k, 0, a);
      if (v < 0) throw fail(el, `joint ${label}: negative ${k} ${v}`);
      j[k] = v;
    }
    j.springref = num(el, 'springref', 0, a) * unit;
    const ref = num(el, 'ref', 0, a) * unit;
    j.ref = ref;
    if (ref !== 0) {
      warn(`joint ${label}: ref dropped: the .mech coordinate is MuJoCo's qpos − ref (${a.ref})`);
      j.springref -= ref;
    }
    j.range = contact.range(el, a, label, unit);
    return j;
  }

  /** A geom of the world body: a static collider, or a warning (mjcf_contact.mjs). */
  function worldGeom(c, T, cls) {
    const a = resolved(c, cls);
    const where = `world geom${c.attrs.name !== undefined ? ` '${c.attrs.name}'` : ''} (line ${c.line})`;
    let shape = null;
    if (a.type === 'plane') shape = { type: 'plane', t: compose(T, { p: vec(c, 'pos', 3, [0, 0, 0], a), q: orientation(c, a) }), color: rgbaOf(c, a) };
    else if (a.type === 'box') {
      const g = geom(c, cls, 'world', false);
      if (g.shape) shape = { ...g.shape, t: compose(T, g.t) };
    }
    contact.worldGeom(c, a, shape, where);
  }

  const world0 = [];
  for (const w of world) walk(w, null, 'main');
  meshes.finish();
  if (world0.length) {
    // World sites become points of interest on the base: a node with no mass merged into it.
    nodes.unshift({ name: 'world', el: world[0], parent: null, X: { p: [0, 0, 0], q: [1, 0, 0, 0] }, joint: null, weld: 'merge', parts: [], shapes: [], sites: world0 });
  }
  for (const e of root.children) {
    if (DROPPED_SECTIONS[e.name]) {
      const n = e.children.length;
      warn(`<${e.name}> dropped: ${n} ${DROPPED_SECTIONS[e.name]}${n ? '' : ' (empty)'}`);
    } else if (!['compiler', 'option', 'default', 'asset', 'worldbody', 'actuator', 'keyframe', 'contact', 'tendon', 'equality'].includes(e.name)) {
      warn(`<${e.name}> dropped`);
    }
  }
  const sections = (name) => root.children.filter((e) => e.name === name);
  const { actuators, kept } = readActuators(sections('actuator'), { resolved, fail, vec, num, warn });
  const keyframes = readKeyframes(sections('keyframe'), { fail, vec });
  const excludes = contact.excludes(sections('contact'));
  const { contact: settings, statics } = contact.finish();
  const tendons = readTendons(sections('tendon'), { resolved, fail, vec, num, warn });
  const equalities = readEqualities(sections('equality'), { resolved, fail, vec, warn });
  for (const [what, n] of tally) warnings.push(`${n} ${what} dropped`);
  return { model: root.attrs.model ?? 'MuJoCo model', gravity, integrator, nodes, actuators, kept, keyframes, tendons, equalities, warnings, contact: settings, statics, excludes };
}
