// urdf.mjs — ROS URDF to source nodes (emit.mjs), following the URDF XML
// specification of the ROS wiki: links with <inertial> (origin, mass,
// inertia), joints revolute/continuous/prismatic/fixed/floating with origin
// xyz/rpy, axis, limit and dynamics, visual and collision box/cylinder/sphere and STL or OBJ mesh
// (collisions as colliders with MuJoCo's default friction 1; a mesh file found as MuJoCo's URDF import
// finds it, by its name, whatever folder or package:// the filename gives).  Fixed joints weld the child
// link to its parent (emit.mjs combines the mass properties exactly); the
// root link is welded to the world unless it has no mass, when it *is* the
// world.

import { ImportError } from './error.mjs';
import { convexHull } from './hull.mjs';
import { qAxisAngle, qmul, rotateInertia } from './math.mjs';
import { parseMesh } from './mesh.mjs';
import { normalizePath } from './path.mjs';
import { parseXml, readers } from './xml.mjs';
import { MAX_BODIES } from './emit.mjs';

/** URDF rpy: fixed-axis roll about x, then pitch about y, then yaw about z, R = Rz Ry Rx. */
export function rpyToQ(r, p, y) {
  return qmul(qAxisAngle([0, 0, 1], y), qmul(qAxisAngle([0, 1, 0], p), qAxisAngle([1, 0, 0], r)));
}

/**
 * @param {string} text @param {{ file: string, files: ReturnType<import('./files.mjs').fileSet> }} options
 * @returns {{ model: string, gravity: number[], nodes: object[], warnings: string[] }}
 */
// The children of a <link> and of a <joint> that are read (or dropped with their own warning); any other is
// dropped with a warning naming it.
const LINK_PARTS = new Set(['inertial', 'visual', 'collision']);
const JOINT_PARTS = new Set(['origin', 'parent', 'child', 'axis', 'dynamics', 'limit', 'mimic']);

export function readUrdf(text, { file, files }) {
  const actuators = []; // a motor per joint with an effort limit
  let colliders = 0;
  const root = parseXml(text, file);
  const { fail, vec, num } = readers(file);
  if (root.name !== 'robot') throw fail(root, 'the root element of a URDF file is <robot>');
  const warnings = [];
  const tally = new Map();
  const drop = (what) => tally.set(what, (tally.get(what) ?? 0) + 1);

  const origin = (el) => {
    const o = el.children.find((c) => c.name === 'origin');
    if (!o) return { p: [0, 0, 0], q: [1, 0, 0, 0] };
    const rpy = vec(o, 'rpy', 3, [0, 0, 0]);
    return { p: vec(o, 'xyz', 3, [0, 0, 0]), q: rpyToQ(...rpy) };
  };

  const materials = new Map();
  const colorOf = (m) => {
    const c = m?.children.find((e) => e.name === 'color');
    return c ? vec(c, 'rgba', 4, null) : null;
  };
  for (const m of root.children.filter((e) => e.name === 'material')) {
    if (m.attrs.name !== undefined) materials.set(m.attrs.name, colorOf(m));
  }

  const meshes = urdfMeshes({ files, vec, drop, warn: (w) => warnings.push(w) });

  const links = new Map();
  const joints = [];
  for (const e of root.children) {
    if (e.name === 'link') {
      if (e.attrs.name === undefined) throw fail(e, 'a link needs a name');
      if (links.has(e.attrs.name)) throw fail(e, `link '${e.attrs.name}' is defined twice`);
      if (links.size >= MAX_BODIES) throw fail(e, `more than ${MAX_BODIES} links (.mech's limit)`);
      links.set(e.attrs.name, e);
    } else if (e.name === 'joint') {
      joints.push(e);
    } else if (e.name === 'transmission' || e.name === 'gazebo') {
      drop(`<${e.name}> elements`);
    } else if (e.name !== 'material') {
      drop(`<${e.name}> elements`);
    }
  }
  if (links.size === 0) throw fail(root, 'no links');

  // The tree: each link the child of at most one joint, every joint's links known.
  const parentJoint = new Map(); // child link -> joint element
  const childJoints = new Map(); // parent link -> joint elements, in file order
  const jointNames = new Set();
  for (const j of joints) {
    const name = j.attrs.name;
    if (name === undefined) throw fail(j, 'a joint needs a name');
    if (jointNames.has(name)) throw fail(j, `joint '${name}' is defined twice`);
    jointNames.add(name);
    const link = (role) => {
      const e = j.children.find((c) => c.name === role);
      if (!e || e.attrs.link === undefined) throw fail(j, `joint '${name}' has no <${role} link="...">`);
      if (!links.has(e.attrs.link)) throw fail(e, `joint '${name}': unknown ${role} link '${e.attrs.link}'`);
      return e.attrs.link;
    };
    const parent = link('parent');
    const child = link('child');
    if (parent === child) throw fail(j, `joint '${name}' joins link '${parent}' to itself (a cycle)`);
    if (parentJoint.has(child)) {
      throw fail(j, `link '${child}' is the child of two joints, '${parentJoint.get(child).attrs.name}' and '${name}': the links must form a tree (a cycle or a closed loop)`);
    }
    parentJoint.set(child, j);
    if (!childJoints.has(parent)) childJoints.set(parent, []);
    childJoints.get(parent).push(j);
  }
  const parentOf = (link) => parentJoint.get(link)?.children.find((c) => c.name === 'parent').attrs.link;
  const roots = [...links.keys()].filter((l) => !parentJoint.has(l));
  {
    // A cycle first (then no link, or not every link, is reachable from a root), then several trees.
    for (const start of links.keys()) {
      const seen = [];
      for (let l = start; l !== undefined; l = parentOf(l)) {
        const k = seen.indexOf(l);
        if (k >= 0) {
          const cycle = seen.slice(k).concat(l).reverse();
          throw fail(parentJoint.get(l), `the joints form a cycle: ${cycle.join(' -> ')} (URDF describes a tree)`);
        }
        seen.push(l);
      }
    }
  }
  if (roots.length > 1) {
    throw fail(links.get(roots[1]), `${roots.length} root links (${roots.map((r) => `'${r}'`).join(', ')}): a URDF robot is one tree`);
  }

  const nodes = [];
  const rootLink = roots[0];
  const stack = [{ link: rootLink, parent: null, joint: null }];
  while (stack.length) {
    const { link, parent, joint } = stack.pop();
    const el = links.get(link);
    const node = { name: link, el, parent, X: joint ? origin(joint) : { p: [0, 0, 0], q: [1, 0, 0, 0] }, joint: null, weld: 'merge', parts: [], shapes: [], sites: [] };
    nodes.push(node);
    // inertial
    const inertials = el.children.filter((c) => c.name === 'inertial');
    if (inertials.length > 1) throw fail(inertials[1], `link '${link}' has two <inertial> elements`);
    if (inertials.length) {
      const ie = inertials[0];
      const t = origin(ie);
      const m = ie.children.find((c) => c.name === 'mass');
      if (!m) throw fail(ie, `link '${link}': <inertial> has no <mass>`);
      const mass = num(m, 'value', undefined);
      if (mass === undefined) throw fail(m, `link '${link}': <mass> has no value`);
      if (mass < 0) throw fail(m, `link '${link}': negative mass ${mass}`);
      const ine = ie.children.find((c) => c.name === 'inertia');
      if (!ine) throw fail(ie, `link '${link}': <inertial> has no <inertia>`);
      const g = (k) => num(ine, k, 0);
      const I = [g('ixx'), g('ixy'), g('ixz'), g('ixy'), g('iyy'), g('iyz'), g('ixz'), g('iyz'), g('izz')];
      node.parts.push({ mass, com: t.p, inertia: rotateInertia(t.q, I) });
    }
    // visuals (drawn only) and collisions (colliders)
    for (const v of el.children.filter((c) => c.name === 'visual' || c.name === 'collision')) {
      const kind = `${v.name}s`;
      const geo = v.children.find((c) => c.name === 'geometry');
      const shapeEl = geo?.children[0];
      if (!shapeEl) { drop(`${kind} without geometry`); continue; }
      const matEl = v.children.find((c) => c.name === 'material');
      const color = colorOf(matEl) ?? (matEl?.attrs.name !== undefined ? materials.get(matEl.attrs.name) ?? null : null);
      let shape = null;
      switch (shapeEl.name) {
        case 'box': shape = { type: 'box', size: vec(shapeEl, 'size', 3, null) ?? (() => { throw fail(shapeEl, 'no size'); })() }; break;
        case 'cylinder': shape = { type: 'cylinder', size: [num(shapeEl, 'radius', 0), num(shapeEl, 'length', 0)] }; break;
        case 'capsule': shape = { type: 'capsule', size: [num(shapeEl, 'radius', 0), num(shapeEl, 'length', 0)] }; break;
        case 'sphere': shape = { type: 'sphere', size: [num(shapeEl, 'radius', 0)] }; break;
        case 'mesh': shape = meshes.shape(shapeEl, kind); break;
        default: drop(`<${shapeEl.name}> ${kind}`);
      }
      if (shape && shape.type !== 'mesh' && !shape.size.every((x) => x > 0)) { drop(`${kind} with a zero or negative size`); shape = null; }
      if (!shape) continue;
      const visual = v.name === 'visual' || (shape.type === 'mesh' && !meshes.collides(shape.mesh));
      node.shapes.push({ ...shape, color, t: origin(v), collider: visual ? { visual: true } : { contype: 1, conaffinity: 1, friction: 1 } });
      if (v.name === 'collision') colliders++;
    }
    for (const c of el.children) if (!LINK_PARTS.has(c.name)) drop(`<${c.name}> elements in links`); // a nested <link> too
    // the joint to the parent
    if (!joint) {
      node.weld = node.parts.some((p) => p.mass > 0) ? 'fixed' : 'merge';
    } else {
      const type = joint.attrs.type;
      const name = joint.attrs.name;
      for (const c of joint.children) if (!JOINT_PARTS.has(c.name)) drop(`<${c.name}> elements in joints`);
      if (type === 'fixed') {
        node.weld = 'merge';
      } else if (type === 'floating') {
        node.joint = { type: 'floating', name, el: joint, from: 'URDF floating' };
      } else if (['revolute', 'continuous', 'prismatic'].includes(type)) {
        const axisEl = joint.children.find((c) => c.name === 'axis');
        const axis = axisEl ? vec(axisEl, 'xyz', 3, [1, 0, 0]) : [1, 0, 0];
        if (!(Math.hypot(...axis) > 0)) throw fail(axisEl, `joint '${name}': zero axis`);
        const dyn = joint.children.find((c) => c.name === 'dynamics');
        const damping = dyn ? num(dyn, 'damping', 0) : 0;
        if (damping < 0) throw fail(dyn, `joint '${name}': negative damping ${damping}`);
        const frictionloss = dyn ? num(dyn, 'friction', 0) : 0; // MuJoCo's URDF import: frictionloss
        if (frictionloss < 0) throw fail(dyn, `joint '${name}': negative friction ${frictionloss}`);
        const range = type === 'continuous' ? null : jointRange(joint, { num, drop });
        if (joint.children.some((c) => c.name === 'mimic')) warnings.push(`joint '${name}': <mimic> dropped, the joint moves freely`);
        node.joint = { type: type === 'prismatic' ? 'prismatic' : 'revolute', name, el: joint, axis, damping, frictionloss, range, from: `URDF ${type}` };
        const motor = effortMotor(joint, name, { fail, num });
        if (motor) actuators.push(motor);
      } else if (type === 'planar') {
        throw fail(joint, `joint '${name}': type 'planar' is not supported yet (.mech joints are revolute, prismatic, floating or fixed)`);
      } else {
        throw fail(joint, `joint '${name}': unknown joint type '${type ?? ''}' (URDF: revolute, continuous, prismatic, fixed, floating, planar)`);
      }
    }
    const kids = childJoints.get(link) ?? [];
    for (let k = kids.length - 1; k >= 0; k--) {
      const j = kids[k];
      stack.push({ link: j.children.find((c) => c.name === 'child').attrs.link, parent: node, joint: j });
    }
  }
  meshes.finish();
  for (const [what, n] of tally) warnings.push(`${n} ${what} dropped`);
  // Colliders touch as MuJoCo's default geoms do (its URDF import's): friction 1, its default solref and solimp.
  const contact = colliders ? { solref: [0.02, 1], solimp: [0.9, 0.95, 0.001], impratio: 1 } : null;
  return { model: root.attrs.name ?? 'URDF robot', gravity: [0, 0, -9.81], nodes, actuators, kept: actuators.map(() => true), warnings, contact, statics: [], excludes: [] };
}

/** A revolute or prismatic joint's <limit lower upper> (URDF: radians or metres, both default 0), or null. */
function jointRange(joint, { num, drop }) {
  const limit = joint.children.find((c) => c.name === 'limit');
  if (!limit || (limit.attrs.lower === undefined && limit.attrs.upper === undefined)) return null;
  const r = [num(limit, 'lower', 0), num(limit, 'upper', 0)];
  if (r[0] === r[1]) return null; // no range: MuJoCo's URDF import leaves the joint unlimited
  if (!(r[0] < r[1])) {
    drop('joint limits with lower > upper');
    return null;
  }
  return r;
}

/** A joint's <limit effort>: a motor on it whose force range is ±effort (none without an effort). */
function effortMotor(joint, name, { fail, num }) {
  const limit = joint.children.find((c) => c.name === 'limit');
  const effort = limit ? num(limit, 'effort', 0) : 0;
  if (effort < 0) throw fail(limit, `joint '${name}': negative effort ${effort}`);
  if (!(effort > 0)) return null;
  return {
    name: `${name}_motor`, joint: name, el: joint, kind: 'motor', gain: 1, bias: [0, 0, 0], kp: 0, kv: 0, gear: 1,
    ctrlrange: null, forcerange: [-effort, effort],
  };
}

/**
 * The mesh files of a URDF's <mesh filename scale> visuals and collisions, each found among `files` as MuJoCo's
 * URDF import finds it: by the path the filename gives (a package:// or file:// prefix taken off), else by its
 * file name alone in any folder (MuJoCo strips the folders and looks in meshdir).  `shape()` is a 'mesh' shape
 * (emit.mjs), or null when the file is missing (one warning per file) or not STL or OBJ (dropped, counted);
 * `collides()` whether a collision mesh's file spans a hull (else one warning, and it is drawn only).
 */
function urdfMeshes({ files, vec, drop, warn }) {
  const byKey = new Map(); // path + scale -> mesh
  const missing = new Set();
  const hulls = new Map(); // path -> whether its points span a hull

  /** The path of the file `filename` names among `files`, or null. */
  function find(filename) {
    const bare = filename.replace(/^package:\/\/[^/]*\//, '').replace(/^file:\/\//, '');
    for (const p of [bare, filename.replace(/^package:\/\//, '')].map(normalizePath)) if (p && files.paths.includes(p)) return p;
    const name = bare.replace(/^.*[\\/]/, '');
    const same = files.paths.filter((k) => k === name || k.endsWith(`/${name}`));
    return same.length === 1 ? same[0] : null;
  }

  return {
    shape(el, kind) {
      const filename = el.attrs.filename ?? '';
      if (!/\.(obj|stl)$/i.test(filename)) {
        drop(`mesh ${kind} not in STL or OBJ (${filename.replace(/^.*\./, '.') || 'no filename'})`);
        return null;
      }
      const path = find(filename);
      if (path === null) {
        if (files.size && !missing.has(filename)) warn(`mesh '${filename}' is not among the files given: its visuals are not drawn, its collisions do not collide`);
        missing.add(filename);
        return null;
      }
      if (!/^[^\s#]+$/.test(path)) {
        drop(`mesh ${kind} whose file path has spaces or #`);
        return null;
      }
      const scale = vec(el, 'scale', 3, [1, 1, 1]);
      const key = `${path} ${scale.join(' ')}`;
      if (!byKey.has(key)) {
        byKey.set(key, { name: path.replace(/^.*\//, '').replace(/\.[^.]*$/, ''), path, scale, refpos: [0, 0, 0], refquat: [1, 0, 0, 0] });
      }
      return { type: 'mesh', mesh: byKey.get(key), size: [] };
    },
    collides(m) {
      if (!hulls.has(m.path)) {
        try {
          convexHull(parseMesh(files.get(m.path), m.path).vertices);
          hulls.set(m.path, true);
        } catch (e) {
          if (!(e instanceof ImportError)) throw e;
          hulls.set(m.path, false);
          warn(`mesh '${m.path}' cannot collide (${e.message}): its collisions are drawn only`);
        }
      }
      return hulls.get(m.path);
    },
    finish() {
      if (missing.size && !files.size) warn(`${missing.size} mesh file${missing.size === 1 ? '' : 's'} named and no files given (importModel's files option)`);
    },
  };
}
