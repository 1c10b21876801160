// emit_contact.mjs — the .mech lines of contact and joint limits (docs/mech-format.md, "Colliders" and "Contact on
// the Featherstone engines"), shared by both importers: a shape's collider options, the `contact` line, `static`
// colliders, `limit` and `frictionloss` body lines, and `exclude` pairs, those the source names and those MuJoCo's
// body filter implies where .mech's does not.

import { fmt, placement } from './emit.mjs';

const vec = (v, what) => v.map((x) => fmt(x, what)).join(' ');

/** A shape's collider options: ' visual', or its filter bits (when not 1) and friction (μ for both coefficients). */
export function colliderText(s, what) {
  const c = s.collider;
  if (!c) return '';
  if (c.visual) return ' visual';
  let t = '';
  if (c.contype !== 1) t += ` contype ${c.contype}`;
  if (c.conaffinity !== 1) t += ` conaffinity ${c.conaffinity}`;
  return `${t} friction ${fmt(c.friction, what)} ${fmt(c.friction, what)}`;
}

/** The `contact` line and the `static` colliders (their pose and size as the shape text writes them). */
export function contactLines(m, lines) {
  if (!m.contact) return;
  const { solref, solimp, impratio } = m.contact;
  let t = 'contact';
  if (solref[0] !== 0.02 || solref[1] !== 1) t += ` solref ${vec(solref, 'solref')}`;
  if (solimp[0] !== 0.9 || solimp[1] !== 0.95 || solimp[2] !== 0.001) t += ` solimp ${vec(solimp, 'solimp')}`;
  if (impratio !== 1) t += ` impratio ${fmt(impratio, 'impratio')}`;
  lines.push('', t);
  for (const s of m.statics ?? []) {
    const body = s.type === 'plane' ? 'static plane' : `static box ${vec(s.size, 'static box')}`;
    lines.push(`${body}${placement(s, 'static collider')}${colliderText({ collider: s }, 'static collider')}`);
  }
}

/** A body's `limit` (degrees on a revolute joint) and `frictionloss` lines. */
export function jointLines(b, lines, what) {
  const j = b.joint;
  if (j.type !== 'revolute' && j.type !== 'prismatic') return;
  if (j.range) {
    const r = j.type === 'revolute' ? j.range.map((x) => (x * 180) / Math.PI) : j.range;
    lines.push(`  limit ${vec(r, what)}`);
  }
  if (j.frictionloss) lines.push(`  frictionloss ${fmt(j.frictionloss, what)}`);
}

/** `exclude` lines. */
export function excludeLines(pairs, lines) {
  if (pairs.length) lines.push('');
  for (const [a, b] of pairs) lines.push(`exclude ${a} ${b}`);
}

/**
 * The .mech `exclude` pairs (names) of an import: the source's excluded body pairs (nodes, each lowered to its
 * body; the world is `base`), and the pairs MuJoCo's body filter drops that .mech's does not.  MuJoCo (Computation,
 * "Collision detection") never lets two bodies of one weld group touch (bodies joined by no joint, the world's
 * group holding every body welded to it), nor a weld group and its parent group unless one is the world's; .mech
 * drops a body and its parent body only.  Pairs .mech drops and MuJoCo keeps (a body and a parent welded to the
 * world) are a warning.
 */
export function excludePairs({ bodies, owner, excludes, statics, fail, warn }) {
  const name = (b) => (b ? b.name : 'base');
  const key = (a, b) => [name(a), name(b)].sort().join(' ');
  const out = new Map();
  for (const { el, names } of excludes) {
    const [a, b] = names.map((n) => {
      if (n === 'world') return null;
      const node = [...owner.keys()].find((x) => x.name === n);
      if (!node) throw fail(el, `unknown body '${n}'`);
      return owner.get(node);
    });
    if (a !== b) out.set(key(a, b), [name(a), name(b)]);
  }
  const collides = (s) => s.collider && !s.collider.visual;
  const solid = bodies.filter((b) => b.shapes.some(collides));
  if (!solid.length) return [...out.values()];
  const weld = (b) => (b && b.joint.type === 'fixed' ? weld(b.parent) : b); // null: the world's group
  const mjFiltered = (a, b) => {
    const [wa, wb] = [weld(a), weld(b)];
    if (wa === wb) return true;
    return wa !== null && wb !== null && (wa === weld(wb.parent) || wb === weld(wa.parent));
  };
  const mechFiltered = (a, b) => a === b || (a && b && (a.parent === b || b.parent === a));
  const bits = (b) => (b ? b.shapes.filter(collides).map((s) => s.collider) : statics);
  const mayTouch = (a, b) => bits(a).some((x) => bits(b).some((y) => (x.contype & y.conaffinity) || (y.contype & x.conaffinity)));
  const all = statics.length ? [null, ...solid] : solid;
  let kept = 0;
  for (let i = 0; i < all.length; i++) {
    for (let k = i + 1; k < all.length; k++) {
      const [a, b] = [all[i], all[k]];
      if (!mayTouch(a, b) || out.has(key(a, b))) continue;
      const mj = mjFiltered(a, b);
      const ours = mechFiltered(a, b);
      if (mj && !ours) out.set(key(a, b), [name(a), name(b)]);
      else if (ours && !mj) kept++;
    }
  }
  if (kept) warn(`${kept} body pair${kept === 1 ? '' : 's'} MuJoCo lets touch (a body and its parent welded to the world) never touch in .mech (a body never touches its parent)`);
  return [...out.values()];
}
