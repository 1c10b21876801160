// mjcf_tendons.mjs — MJCF <tendon> and <equality> to .mech `tendon` and `equality` blocks (docs/import.md;
// docs/mech-format.md, "Tendons" and "Equality constraints").  After MuJoCo's documentation, XML reference:
// "tendon/fixed" (joint coefs, range/limited, stiffness, damping, springlength; the <tendon> default class) and
// "equality" (joint: joint1, joint2, polycoef; connect: body1, body2, anchor; solref, solimp; the <equality>
// default class).  Spatial tendons and weld, distance and tendon equalities stay warnings.

/** An element's attributes over the defaults of its class for `kind` (MuJoCo's <default><tendon>/<equality>). */
const withDefaults = (resolved, el, kind) => resolved({ ...el, name: kind }, 'main');

/**
 * The fixed tendons of the <tendon> sections, in file order: { name, el, joints: [{ joint, coef }], stiffness,
 * damping, springlength (null: MuJoCo's length at qpos0), range (null: not limited) }.
 * @param {object[]} sections @param {{ resolved: Function, fail: Function, vec: Function, num: Function,
 *   warn: (w: string) => void }} ctx
 */
export function readTendons(sections, { resolved, fail, vec, num, warn }) {
  const tendons = [];
  for (const section of sections) {
    for (const el of section.children) {
      const label = `tendon '${el.attrs.name ?? `#${tendons.length}`}'`;
      if (el.name !== 'fixed') {
        warn(`${label}: <${el.name}> tendon dropped (.mech has fixed tendons)`);
        continue;
      }
      const a = withDefaults(resolved, el, 'tendon');
      const joints = el.children.filter((c) => c.name === 'joint').map((c) => {
        if (c.attrs.joint === undefined) throw fail(c, `${label}: <joint> without joint=`);
        return { joint: c.attrs.joint, coef: num(c, 'coef', 1), el: c };
      });
      if (!joints.length) throw fail(el, `${label}: a fixed tendon needs at least one <joint>`);
      const r = vec(el, 'range', 2, null, a);
      const limited = r !== null && a.limited !== 'false';
      if (limited && !(r[0] < r[1])) throw fail(el, `${label}: range="${a.range}": lower must be below upper`);
      const stiffness = num(el, 'stiffness', 0, a);
      const damping = num(el, 'damping', 0, a);
      if (stiffness < 0 || damping < 0) throw fail(el, `${label}: negative stiffness or damping`);
      const springlength = num(el, 'springlength', -1, a);
      tendons.push({ name: el.attrs.name, el, joints, stiffness, damping, springlength: springlength < 0 ? null : springlength, range: limited ? r : null });
    }
  }
  return tendons;
}

/**
 * The equality constraints of the <equality> sections: { type 'joint', name, el, joint1, joint2, polycoef,
 * solref, solimp } and { type 'connect', name, el, body1, body2, anchor, solref, solimp }.
 * @param {object[]} sections @param {{ resolved: Function, fail: Function, vec: Function, warn: Function }} ctx
 */
export function readEqualities(sections, { resolved, fail, vec, warn }) {
  const equalities = [];
  for (const section of sections) {
    for (const el of section.children) {
      const a = withDefaults(resolved, el, 'equality');
      const label = `equality '${a.name ?? `#${equalities.length}`}'`;
      if (el.name !== 'joint' && el.name !== 'connect') {
        warn(`${label}: <${el.name}> dropped (.mech has joint and connect equalities)`);
        continue;
      }
      if (a.active === 'false') {
        warn(`${label}: inactive (active="false"), dropped`);
        continue;
      }
      const soft = { solref: vec(el, 'solref', 2, [0.02, 1], a), solimp: vec(el, 'solimp', undefined, [0.9, 0.95, 0.001], a) };
      if (soft.solimp.length > 3 && (soft.solimp[3] !== 0.5 || soft.solimp[4] !== 2)) {
        warn(`${label}: solimp midpoint and power dropped (.mech: 0.5 and 2)`);
      }
      soft.solimp = soft.solimp.slice(0, 3);
      if (!(soft.solref[0] > 0 && soft.solref[1] > 0)) throw fail(el, `${label}: solref="${a.solref}": .mech takes a positive time constant and damping ratio`);
      if (el.name === 'joint') {
        if (a.joint1 === undefined) throw fail(el, `${label}: <joint> without joint1=`);
        equalities.push({ type: 'joint', name: a.name, el, joint1: a.joint1, joint2: a.joint2, polycoef: vec(el, 'polycoef', 5, [0, 1, 0, 0, 0], a), ...soft });
      } else {
        if (a.body1 === undefined || a.anchor === undefined) {
          warn(`${label}: <connect> without body1 and anchor (the site form) dropped`);
          continue;
        }
        equalities.push({ type: 'connect', name: a.name, el, body1: a.body1, body2: a.body2 ?? 'world', anchor: vec(el, 'anchor', 3, null, a), ...soft });
      }
    }
  }
  return equalities;
}

/**
 * Source tendons and equalities onto the lowered bodies (emit.mjs's lower): a tendon's joints and a joint
 * equality's by their source names (hinge and slide only), a connect's bodies by name with its anchor in the
 * lowered body's frame (place: a node's point in its body's frame).  .mech coordinates are MuJoCo's qpos − ref,
 * so a tendon's spring length and range are shifted by Σ coef · ref; joint equalities are relative to qpos0 in
 * MuJoCo already.
 * @param {{ nodes: object[], tendons?: object[], equalities?: object[] }} src
 * @param {{ bodies: object[], place: (node: object, p: number[]) => { body: object | null, p: number[] } }} lowered
 * @param {{ warn: Function, fail: Function, names: (kind: string) => { take: Function } }} ctx
 */
export function lowerTendons(src, { bodies, place }, { warn, fail, names }) {
  const byJoint = new Map();
  for (const b of bodies) if (b.joint.name !== undefined) byJoint.set(b.joint.name, b);
  const coordinate = (el, label, joint) => {
    const body = byJoint.get(joint);
    if (!body) throw fail(el, `${label}: unknown joint '${joint}'`);
    if (body.joint.type !== 'revolute' && body.joint.type !== 'prismatic') {
      throw fail(el, `${label}: joint '${joint}' is ${body.joint.type} (.mech couples hinge and slide joints)`);
    }
    return body;
  };
  const tendonNames = names('tendon');
  const tendons = (src.tendons ?? []).map((t, n) => {
    const label = `tendon '${t.name ?? `#${n}`}'`;
    const joints = t.joints.map((j) => ({ body: coordinate(j.el, label, j.joint), coef: j.coef }));
    const seen = new Set();
    for (const [k, j] of joints.entries()) {
      if (seen.has(j.body)) throw fail(t.joints[k].el, `${label}: joint '${t.joints[k].joint}' twice`);
      seen.add(j.body);
    }
    const shift = joints.reduce((s, j) => s + j.coef * (j.body.joint.ref ?? 0), 0);
    return {
      name: tendonNames.take(t.name, `tendon${n}`), source: t.name, joints, stiffness: t.stiffness, damping: t.damping,
      springlength: t.springlength === null ? 0 : t.springlength - shift, range: t.range && t.range.map((x) => x - shift), shift,
    };
  });
  const byNode = new Map(src.nodes.map((node) => [node.name, node]));
  const equalityNames = names('equality');
  const equalities = [];
  for (const [n, e] of (src.equalities ?? []).entries()) {
    const label = `equality '${e.name ?? `#${n}`}'`;
    const name = equalityNames.take(e.name, `equality${n}`);
    if (e.type === 'joint') {
      const body1 = coordinate(e.el, label, e.joint1);
      const body2 = e.joint2 === undefined ? null : coordinate(e.el, label, e.joint2);
      equalities.push({ type: 'joint', name, body1, body2, polycoef: e.polycoef, solref: e.solref, solimp: e.solimp });
      continue;
    }
    const node1 = byNode.get(e.body1);
    const node2 = e.body2 === 'world' ? null : byNode.get(e.body2);
    if (!node1 || (e.body2 !== 'world' && !node2)) throw fail(e.el, `${label}: unknown body '${node1 ? e.body2 : e.body1}'`);
    const at = place(node1, e.anchor);
    const body2 = node2 ? place(node2, [0, 0, 0]).body : null;
    if (!at.body) {
      warn(`${label}: body1 '${e.body1}' is welded to the world, dropped`);
      continue;
    }
    if (at.body === body2) {
      warn(`${label}: '${e.body1}' and '${e.body2}' are welded into one body, dropped`);
      continue;
    }
    equalities.push({ type: 'connect', name, body1: at.body, body2, anchor: at.p, solref: e.solref, solimp: e.solimp });
  }
  return { tendons, equalities };
}

/**
 * Actuators on tendons (mjcf_actuators.mjs keeps their source tendon's name) bound to the lowered tendons.
 */
export function bindTendons(actuators, tendons, { warn, fail }) {
  const bySource = new Map(tendons.map((t) => [t.source, t]));
  for (const a of actuators) {
    if (a.tendon === undefined) continue;
    const t = bySource.get(a.tendon);
    if (!t) throw fail(a.el, `actuator '${a.name}': unknown tendon '${a.tendon}'`);
    a.tendonOf = t;
    if (t.shift !== 0) warn(`actuator '${a.name}': its tendon '${t.source}' passes joints with a ref; the actuator's length is taken from .mech's coordinates (qpos − ref)`);
  }
}

/**
 * `tendon` and `equality` blocks (docs/mech-format.md, "Tendons", "Equality constraints").
 * @param {string[]} lines @param {{ tendons?: object[], equalities?: object[] }} m
 * @param {{ fmt: Function, vec: Function }} text emit.mjs's number writers
 */
export function emitTendons(lines, m, { fmt, vec }) {
  for (const t of m.tendons ?? []) {
    const what = `tendon '${t.name}'`;
    lines.push('', `tendon ${t.name}`);
    for (const j of t.joints) lines.push(`  joint ${j.body.name} ${fmt(j.coef, what)}`);
    if (t.stiffness) lines.push(`  stiffness ${fmt(t.stiffness, what)}`);
    if (t.damping) lines.push(`  damping ${fmt(t.damping, what)}`);
    if (t.springlength) lines.push(`  springlength ${fmt(t.springlength, what)}`);
    if (t.range) lines.push(`  range ${vec(t.range, what)}`);
    lines.push('end');
  }
  for (const e of m.equalities ?? []) {
    const what = `equality '${e.name}'`;
    lines.push('', `equality ${e.name}`, `  type ${e.type}`, `  body1 ${e.body1.name}`);
    if (e.body2 || e.type === 'connect') lines.push(`  body2 ${e.body2 ? e.body2.name : 'base'}`);
    if (e.type === 'joint') lines.push(`  polycoef ${vec(e.polycoef, what)}`);
    else lines.push(`  anchor ${vec(e.anchor, what)}`);
    lines.push(`  solref ${vec(e.solref, what)}`, `  solimp ${vec(e.solimp, what)}`);
    lines.push('end');
  }
}
