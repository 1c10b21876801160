// emit.mjs — what both importers share after reading their XML: a tree of
// source bodies (MJCF bodies, URDF links) lowered to .mech bodies, and the
// .mech text written from them.
//
// A source node is
//   { name, el, parent (node or null for the world), X: { p, q } (its frame in its parent's frame),
//     joint: null | { type: 'revolute' | 'prismatic' | 'spherical' | 'floating', name, el, axis, anchor (in its
//       own frame), damping, stiffness, springref, armature (SI), from },
//     weld: 'merge' | 'fixed' (jointless nodes: merged into the parent's body, or a body of its own
//       with a fixed joint),
//     parts: [{ mass, com, inertia }] (own frame), shapes: [{ type, size, t: { p, q }, color }] (a 'mesh'
//       shape: mesh { name, path, scale, refpos, refquat } instead of size),
//     sites: [{ name, p }] }
// listed parents first.  A .mech body's frame is its joint's frame (docs/conventions.md): a node
// whose joint sits at `anchor` in its own frame becomes a body whose origin is there, and
// everything the node carries is shifted by -anchor.

import { IDENTITY_T, apply, combineMass, compose, eigSym3, qToAxisAngle, rotateInertia } from './math.mjs';
import { emitTendons } from './mjcf_tendons.mjs';
import { ImportError } from './error.mjs';
import { colliderText, contactLines, excludeLines, jointLines } from './emit_contact.mjs';

/** The .mech limits the importer checks itself (core/model/model.h). */
const MAX_NAME = 47;
export const MAX_BODIES = 1024;

/** A number as .mech reads it back exactly (shortest round-trip decimal). */
export function fmt(x, what) {
  if (!Number.isFinite(x)) throw new ImportError(`non-finite value for ${what}`);
  if (Object.is(x, -0) || x === 0) return '0';
  return String(x);
}

/** Unique .mech names in one namespace; a changed name is reported. */
export class Namer {
  #used = new Set();
  constructor(warn, kind, reserved = []) {
    this.warn = warn;
    this.kind = kind;
    for (const r of reserved) this.#used.add(r);
  }

  /** A valid, unused name for `wanted` (or `fallback` when it is empty). */
  take(wanted, fallback) {
    let base = (wanted ?? '').replace(/[^A-Za-z0-9_]/g, '_');
    if (!base.length) base = fallback;
    if (!/^[A-Za-z_]/.test(base)) base = `_${base}`;
    base = base.slice(0, MAX_NAME);
    let name = base;
    for (let k = 2; this.#used.has(name); k++) name = `${base.slice(0, MAX_NAME - 1 - String(k).length)}_${k}`;
    this.#used.add(name);
    if (wanted && name !== wanted) this.warn(`${this.kind} '${wanted}' is named '${name}' in .mech (names are [A-Za-z_][A-Za-z0-9_]*, unique, at most ${MAX_NAME} characters)`);
    return name;
  }
}

/**
 * Lower source nodes to .mech bodies.
 * @param {object[]} nodes parents first
 * @param {{ warn: (msg: string) => void, fail: (el: object, msg: string) => ImportError, format: string }} ctx
 */
export function lower(nodes, ctx) {
  if (nodes.length > MAX_BODIES) throw new ImportError(`${nodes.length} bodies: .mech takes at most ${MAX_BODIES}`);
  const bodyNames = new Namer(ctx.warn, 'body', ['base']);
  const poiNames = new Namer(ctx.warn, 'site');
  const elementNames = new Namer(ctx.warn, 'joint');
  const bodies = [];
  const pois = [];
  const rsdas = [];
  const owner = new Map(); // node -> body (null: the base)
  const toOwner = new Map(); // node -> its frame in its owner's frame
  let baseShapes = 0;
  let baseMass = 0;

  for (const node of nodes) {
    const parentOwner = node.parent ? owner.get(node.parent) : null;
    const inParent = compose(node.parent ? toOwner.get(node.parent) : IDENTITY_T, node.X);
    let body;
    if (!node.joint && node.weld === 'merge') {
      body = parentOwner;
      toOwner.set(node, inParent);
    } else {
      const joint = node.joint ?? { type: 'fixed' };
      const anchor = joint.type === 'floating' ? [0, 0, 0] : joint.anchor ?? [0, 0, 0];
      const frame = compose(inParent, { p: anchor, q: [1, 0, 0, 0] });
      body = {
        name: bodyNames.take(node.name, `body${bodies.length}`), source: node.name, node,
        parent: parentOwner, joint, frame, parts: [], shapes: [], merged: [],
      };
      if (joint.type === 'floating' && parentOwner !== null) {
        throw ctx.fail(joint.el ?? node.el, `the ${joint.from ?? 'floating'} joint needs its body attached to the world, but '${node.name}' hangs from '${parentOwner.source}' (.mech: a floating body's parent is base)`);
      }
      bodies.push(body);
      toOwner.set(node, { p: [-anchor[0], -anchor[1], -anchor[2]], q: [1, 0, 0, 0] });
      if (joint.type !== 'fixed' && (joint.damping || joint.stiffness)) {
        if (joint.type === 'floating' || joint.type === 'spherical') {
          ctx.warn(`${joint.from ?? joint.type} joint of '${node.name}': damping/stiffness dropped (.mech force elements act on 1-DOF joints)`);
        } else {
          rsdas.push({ name: elementNames.take(joint.name, `${body.name}_joint`), body, k: joint.stiffness ?? 0,
            c: joint.damping ?? 0, q0: joint.stiffness ? joint.springref ?? 0 : 0 });
        }
      }
    }
    owner.set(node, body);
    const T = toOwner.get(node);
    if (body && body.node !== node) body.merged.push(node.name);
    for (const part of node.parts) {
      if (!(part.mass > 0)) continue;
      if (!body) { baseMass += part.mass; continue; }
      body.parts.push({ mass: part.mass, com: apply(T, part.com), inertia: rotateInertia(T.q, part.inertia) });
    }
    for (const s of node.shapes) {
      if (!body) { baseShapes++; continue; }
      body.shapes.push({ ...s, t: compose(T, s.t) });
    }
    for (const site of node.sites) {
      pois.push({ name: poiNames.take(site.name, `site${pois.length}`), body, p: apply(T, site.p) });
    }
  }
  if (baseShapes) ctx.warn(`${baseShapes} shape${baseShapes === 1 ? '' : 's'} fixed to the world dropped (.mech shapes belong to bodies)`);
  if (baseMass > 0) ctx.warn(`mass welded to the world (${fmt(baseMass, 'mass')} kg) dropped: it cannot move`);
  for (const b of bodies) {
    Object.assign(b, combineMass(b.parts));
    if (b.mass > 0) checkInertia(b, ctx);
    if (!(b.mass > 0)) {
      const el = b.node.el;
      throw ctx.fail(el, `'${b.source}' has no mass (${b.node.massNote ?? 'no <inertial>'}); a .mech body needs mass > 0${b.joint.type === 'fixed' ? '' : ` to carry its ${b.joint.type} joint`}`);
    }
  }
  /** A point of a source node in its .mech body's frame (body null: the base). */
  const place = (node, p) => ({ body: owner.get(node) ?? null, p: apply(toOwner.get(node), p) });
  return { bodies, pois, rsdas, owner, place };
}

/**
 * The inertia .mech accepts (docs/mech-format.md, "Inertia"): principal moments positive, the smallest above 1e-12
 * times the largest, the largest at most the sum of the other two (relative tolerance 1e-9).  Refused here, at the
 * source element, rather than by the .mech parser at a line of the output.
 */
function checkInertia(b, ctx) {
  const d = eigSym3(b.inertia).d.sort((x, y) => x - y);
  const shown = d.map((x) => Number(x.toPrecision(6))).join(' ');
  const where = `${b.merged.length ? ` (with ${b.merged.map((n) => `'${n}'`).join(', ')} welded to it)` : ''}`;
  if (!d.every(Number.isFinite) || !(d[0] > 1e-12 * d[2])) {
    throw ctx.fail(b.node.el, `'${b.source}'${where} has an inertia that is not positive definite: principal moments ${shown}`);
  }
  if (d[2] > (d[0] + d[1]) * (1 + 1e-9)) {
    throw ctx.fail(b.node.el, `'${b.source}'${where} has an inertia no body can have: principal moments ${shown} (the largest exceeds the sum of the other two)`);
  }
}

const AXES = { '1,0,0': 'x', '0,1,0': 'y', '0,0,1': 'z', '-1,0,0': '-x', '0,-1,0': '-y', '0,0,-1': '-z' };

/** An axis as .mech writes it: a letter when it is a coordinate axis, else three numbers. */
function axisText(a, what) {
  const n = Math.hypot(a[0], a[1], a[2]);
  if (!(n > 0) || !Number.isFinite(n)) throw new ImportError(`zero axis for ${what}`);
  const key = a.map((x) => x / n).join(',');
  return AXES[key] ?? a.map((x) => fmt(x, what)).join(' ');
}

/** `rot <axis> <degrees>` of a unit quaternion, or '' for the identity. */
function rotText(q, what) {
  const [axis, angle] = qToAxisAngle(q);
  if (angle === 0) return '';
  return `rot ${axisText(axis, what)} ${fmt((angle * 180) / Math.PI, what)}`;
}

/** Source text made safe for a one-line .mech comment (no control characters, bounded length). */
function clean(s, max = 1000) {
  // eslint-disable-next-line no-control-regex -- control characters are what it replaces
  const t = String(s).replace(/[\x00-\x1f\x7f]+/g, ' ');
  return t.length > max ? `${t.slice(0, max)} ...` : t;
}

const vec = (v, what) => v.map((x) => fmt(x, what)).join(' ');
const isZero = (v) => v.every((x) => x === 0);

function hex(rgba) {
  return `#${rgba.slice(0, 3).map((c) => Math.round(Math.min(1, Math.max(0, c)) * 255).toString(16).padStart(2, '0')).join('')}`;
}

/** A shape's or static collider's ` pos`, ` rot` and ` color` options. */
export function placement(s, what) {
  let t = '';
  if (!isZero(s.t.p)) t += ` pos ${vec(s.t.p, what)}`;
  const r = rotText(s.t.q, what);
  if (r) t += ` ${r}`;
  if (s.color) t += ` color ${hex(s.color)}`;
  return t;
}

function shapeText(s, what, meshNames) {
  const t = s.type === 'mesh' ? `shape mesh ${meshNames.get(s.mesh)}` : `shape ${s.type} ${s.size.map((x) => fmt(x, what)).join(' ')}`;
  return t + placement(s, what) + colliderText(s, what);
}

/**
 * The `mesh` lines of the meshes the bodies' shapes draw (docs/mech-format.md, "Meshes"), each under a .mech name;
 * returns the names by mesh.
 */
function meshLines(bodies, lines, warnings) {
  const names = new Map();
  const namer = new Namer((w) => warnings.push(w), 'mesh');
  for (const b of bodies) {
    for (const s of b.shapes) {
      if (s.type !== 'mesh' || names.has(s.mesh)) continue;
      const x = s.mesh;
      const name = namer.take(x.name, `mesh${names.size}`);
      names.set(x, name);
      let t = `mesh ${name} ${x.path}`;
      if (x.scale.some((k) => k !== 1)) t += ` scale ${vec(x.scale, `mesh '${name}'`)}`;
      if (!isZero(x.refpos)) t += ` refpos ${vec(x.refpos, `mesh '${name}'`)}`;
      if (x.refquat[0] !== 1 || !isZero(x.refquat.slice(1))) t += ` refquat ${vec(x.refquat, `mesh '${name}'`)}`;
      if (names.size === 1) lines.push('');
      lines.push(t);
    }
  }
  return names;
}

/**
 * The .mech text.
 * @param {{ format: string, file: string, model: string, gravity: number[], warnings: string[],
 *   bodies: object[], pois: object[], rsdas: object[] }} m
 */
export function emit(m) {
  const lines = [];
  const kind = m.format === 'mjcf' ? 'MJCF' : 'URDF';
  lines.push(`# ${clean(m.model, 200)} — imported from ${kind} '${clean(m.file, 200)}' by the mech importer (docs/import.md).`);
  lines.push('# Body names are the source\'s body/link names; a comment after each joint names the source joint.');
  if (m.warnings.length) {
    lines.push('# What the importer changed or dropped:');
    for (const w of m.warnings) lines.push(`#   - ${clean(w)}`);
  }
  const description = clean(`${m.model}`, 200).replace(/#/g, ' ').concat(` (imported from ${kind})`).trim();
  lines.push(`description ${description}`);
  lines.push(`gravity ${vec(m.gravity, 'gravity')}`);
  if (m.integrator) lines.push(`integrator ${m.integrator}`);
  contactLines(m, lines);
  const meshNames = meshLines(m.bodies, lines, m.warnings);
  for (const b of m.bodies) {
    const what = `body '${b.name}'`;
    lines.push('');
    if (b.merged.length) lines.push(clean(`# '${b.source}' with ${b.merged.map((n) => `'${n}'`).join(', ')} welded to it`));
    lines.push(`body ${b.name}`);
    lines.push(`  parent ${b.parent ? b.parent.name : 'base'}`);
    const j = b.joint;
    const note = j.name ? `   # ${kind} joint '${clean(j.name, 200)}'` : '';
    if (j.type === 'revolute' || j.type === 'prismatic') lines.push(`  joint ${j.type} ${axisText(j.axis, what)}${note}`);
    else lines.push(`  joint ${j.type}${note}`);
    if (j.type === 'floating') {
      const [axis, angle] = qToAxisAngle(b.frame.q);
      const att = angle === 0 ? '' : ` ${axisText(axis, what)} ${fmt((angle * 180) / Math.PI, what)}`;
      lines.push(`  q0 ${vec(b.frame.p, what)}${att}`);
    } else {
      if (!isZero(b.frame.p)) lines.push(`  pos ${vec(b.frame.p, what)}`);
      const r = rotText(b.frame.q, what);
      if (r) lines.push(`  ${r}`);
    }
    lines.push(`  mass ${fmt(b.mass, what)}`);
    if (!isZero(b.com)) lines.push(`  com ${vec(b.com, what)}`);
    const I = b.inertia;
    const off = [I[1], I[2], I[5]];
    lines.push(`  inertia ${vec([I[0], I[4], I[8]], what)}${isZero(off) ? '' : ` ${vec(off, what)}`}`);
    if (j.armature) lines.push(`  armature ${fmt(j.armature, what)}`);
    jointLines(b, lines, what);
    for (const s of b.shapes) lines.push(`  ${shapeText(s, what, meshNames)}`);
    lines.push('end');
  }
  if (m.pois.length) lines.push('');
  for (const p of m.pois) lines.push(`poi ${p.name} ${p.body ? p.body.name : 'base'} ${vec(p.p, `site '${p.name}'`)}`);
  excludeLines(m.excludePairs ?? [], lines);
  for (const r of m.rsdas) {
    const deg = r.body.joint.type === 'revolute' ? (r.q0 * 180) / Math.PI : r.q0;
    lines.push('');
    lines.push(`rsda ${r.name}`);
    lines.push(`  joint ${r.body.name}`);
    lines.push(`  k ${fmt(r.k, `rsda '${r.name}'`)}`);
    lines.push(`  c ${fmt(r.c, `rsda '${r.name}'`)}`);
    if (deg !== 0) lines.push(`  q0 ${fmt(deg, `rsda '${r.name}'`)}`);
    lines.push('end');
  }
  emitTendons(lines, m, { fmt, vec });
  emitActuation(lines, m.actuators ?? [], m.keyframes ?? []);
  return `${lines.join('\n')}\n`;
}

/** A joint coordinate as .mech text reads it: degrees for a revolute joint. */
const jointValue = (body, x, what) => fmt(body.joint.type === 'revolute' ? (x * 180) / Math.PI : x, what);

/** `actuator` and `keyframe` blocks (docs/mech-format.md, "Actuators", "Keyframes"); values SI but q. */
function emitActuation(lines, actuators, keyframes) {
  for (const a of actuators) {
    const what = `actuator '${a.name}'`;
    lines.push('', `actuator ${a.name}`, a.tendonOf ? `  tendon ${a.tendonOf.name}` : `  joint ${a.body.name}`, `  kind ${a.kind}`);
    if (a.kind === 'position') lines.push(`  kp ${fmt(a.kp, what)}`);
    if (a.kind === 'position' && a.kv) lines.push(`  kv ${fmt(a.kv, what)}`);
    if (a.kind === 'velocity') lines.push(`  kv ${fmt(a.kv, what)}`);
    if (a.kind === 'general') lines.push(`  gain ${fmt(a.gain, what)}`, `  bias ${vec(a.bias, what)}`);
    if (a.gear !== 1) lines.push(`  gear ${fmt(a.gear, what)}`);
    if (a.ctrlrange) lines.push(`  ctrlrange ${vec(a.ctrlrange, what)}`);
    if (a.forcerange) lines.push(`  forcerange ${vec(a.forcerange, what)}`);
    lines.push('end');
  }
  for (const k of keyframes) {
    const what = `keyframe '${k.name}'`;
    lines.push('', `keyframe ${k.name}`);
    for (const { body, value } of k.q) lines.push(`  q ${body.name} ${jointValue(body, value, what)}`);
    for (const { body, value } of k.qd) lines.push(`  qd ${body.name} ${fmt(value, what)}`);
    for (const { actuator, value } of k.ctrl) lines.push(`  ctrl ${actuator.name} ${fmt(value, what)}`);
    lines.push('end');
  }
}
