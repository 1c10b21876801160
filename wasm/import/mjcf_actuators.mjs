// mjcf_actuators.mjs — MJCF <actuator>, <keyframe> and option integrator to
// source actuators and keyframes (emit.mjs writes them as .mech `actuator`
// and `keyframe` blocks).  After MuJoCo's documentation: XML reference,
// "actuator" (motor, position, velocity, general: gain, affine bias, gear,
// ctrlrange/ctrllimited, forcerange/forcelimited, default classes) on joint
// and tendon transmissions (mjcf_tendons.mjs binds the tendon), and
// "keyframe" (qpos, qvel, ctrl in MuJoCo's order).

const KINDS = ['motor', 'position', 'velocity', 'general'];
const OTHER_KINDS = ['intvelocity', 'damper', 'cylinder', 'muscle', 'adhesion', 'plugin'];
const TRANSMISSIONS = ['site', 'jointinparent', 'cranksite', 'body'];

/** A range and whether it clamps: MuJoCo's limited="auto" clamps when the range is given. */
function range(el, attrs, key, vec, fail) {
  const r = vec(el, `${key}range`, 2, null, attrs);
  const limited = attrs[`${key}limited`] ?? 'auto';
  if (!['true', 'false', 'auto'].includes(limited)) throw fail(el, `${key}limited="${limited}": expected true, false or auto`);
  if (limited === 'false' || (limited === 'auto' && r === null)) return null;
  if (r === null) throw fail(el, `${key}limited="true" without ${key}range`);
  if (!(r[0] < r[1])) throw fail(el, `${key}range="${attrs[`${key}range`]}": lower must be below upper`);
  return r;
}

/**
 * The actuators of the <actuator> sections, in file order: { name, joint or tendon (the MJCF name), el, kind,
 * gain, bias, kp, kv, gear, ctrlrange, forcerange }.  Other transmissions and kinds are warned and dropped
 * (their ctrl entries too: `kept` says which of MuJoCo's actuators were kept).
 * @param {object[]} sections @param {{ resolved: Function, fail: Function, vec: Function, num: Function,
 *   warn: (w: string) => void }} ctx
 */
export function readActuators(sections, { resolved, fail, vec, num, warn }) {
  const actuators = [];
  const kept = [];
  for (const section of sections) {
    for (const el of section.children) {
      const a = resolved(el, 'main');
      const label = `actuator '${a.name ?? `#${kept.length}`}'`;
      if (OTHER_KINDS.includes(el.name) || !KINDS.includes(el.name)) {
        warn(`${label}: <${el.name}> dropped (.mech has motor, position, velocity and general actuators)`);
        kept.push(false);
        continue;
      }
      const other = TRANSMISSIONS.find((t) => a[t] !== undefined);
      if (other !== undefined || (a.joint === undefined) === (a.tendon === undefined)) {
        warn(`${label}: ${other ? `${other} transmission` : a.joint === undefined ? 'no joint or tendon' : 'both a joint and a tendon'} dropped (.mech actuators drive joints and fixed tendons)`);
        kept.push(false);
        continue;
      }
      const gears = vec(el, 'gear', [1, 2, 3, 4, 5, 6], [1], a);
      if (gears.slice(1).some((g) => g !== 0)) warn(`${label}: gear components after the first dropped (a joint or tendon has one)`);
      const act = {
        name: a.name, joint: a.joint, tendon: a.tendon, el, kind: el.name, gain: 1, bias: [0, 0, 0], kp: 0, kv: 0, gear: gears[0],
        ctrlrange: range(el, a, 'ctrl', vec, fail), forcerange: range(el, a, 'force', vec, fail),
      };
      if (act.gear === 0) throw fail(el, `${label}: gear 0`);
      if (el.name === 'position') {
        act.kp = num(el, 'kp', 1, a);
        act.kv = num(el, 'kv', 0, a);
      } else if (el.name === 'velocity') {
        act.kv = num(el, 'kv', 1, a);
      } else if (el.name === 'general') {
        for (const [k, ok] of [['dyntype', 'none'], ['gaintype', 'fixed']]) {
          if ((a[k] ?? ok) !== ok) throw fail(el, `${label}: ${k}="${a[k]}" is not supported (.mech: ${k} ${ok})`);
        }
        const biastype = a.biastype ?? 'none';
        if (!['none', 'affine'].includes(biastype)) throw fail(el, `${label}: biastype="${biastype}" is not supported (none or affine)`);
        act.gain = (vec(el, 'gainprm', undefined, [1], a)[0]) ?? 1;
        if (biastype === 'affine') act.bias = [0, 1, 2].map((i) => vec(el, 'biasprm', undefined, [0], a)[i] ?? 0);
      }
      if (act.kp < 0 || act.kv < 0) throw fail(el, `${label}: negative kp or kv`);
      actuators.push(act);
      kept.push(true);
    }
  }
  return { actuators, kept };
}

/**
 * The keyframes of the <keyframe> sections: { name, el, qpos, qvel, ctrl } as MuJoCo lays them out (qpos:
 * 7 per free joint, 1 per hinge or slide, in body order; ctrl: one per actuator of the file).
 * @param {object[]} sections @param {{ fail: Function, vec: Function }} ctx
 */
export function readKeyframes(sections, { fail, vec }) {
  const keys = [];
  for (const section of sections) {
    for (const el of section.children) {
      if (el.name !== 'key') throw fail(el, `<${el.name}> in <keyframe>: expected <key>`);
      keys.push({ name: el.attrs.name, el, qpos: vec(el, 'qpos', undefined, null), qvel: vec(el, 'qvel', undefined, null), ctrl: vec(el, 'ctrl', undefined, null) });
    }
  }
  return keys;
}

/**
 * option integrator: 'implicit' for MuJoCo's Euler (the default, which integrates joint damping implicitly:
 * MuJoCo docs, "Numerical integration"), implicit and implicitfast; null for RK4, with a warning.
 */
export function readIntegrator(option, { fail, warn }) {
  const v = option?.attrs.integrator ?? 'Euler';
  if (['Euler', 'implicit', 'implicitfast'].includes(v)) return 'implicit';
  if (v === 'RK4') { warn('option integrator="RK4" dropped: .mech steps Störmer–Verlet by default'); return null; }
  throw fail(option, `integrator="${v}": expected Euler, RK4, implicit or implicitfast`);
}

/**
 * Source actuators and keyframes onto the lowered bodies (emit.mjs's lower): each actuator's joint by its
 * source name, each keyframe's qpos and qvel split per joint in MuJoCo's order (hinge and slide: the .mech
 * coordinate qpos − ref), its ctrl kept for the actuators kept.
 * @param {{ nodes: object[], actuators?: object[], kept?: boolean[], keyframes?: object[] }} src
 * @param {object[]} bodies @param {{ warn: (w: string) => void, fail: Function, names: { take: Function } }} ctx
 */
export function lowerActuation(src, bodies, { warn, fail, names }) {
  const byJoint = new Map();
  for (const b of bodies) if (b.joint.name !== undefined) byJoint.set(b.joint.name, b);
  const actuators = [];
  for (const a of src.actuators ?? []) {
    if (a.tendon !== undefined) { // bound to its lowered tendon by mjcf_tendons.mjs
      actuators.push({ ...a, name: names.take(a.name, `${a.tendon}_actuator`), body: null });
      continue;
    }
    const body = byJoint.get(a.joint);
    if (!body) throw fail(a.el, `actuator '${a.name ?? ''}': unknown joint '${a.joint}'`);
    if (body.joint.type !== 'revolute' && body.joint.type !== 'prismatic') {
      throw fail(a.el, `actuator '${a.name ?? ''}': joint '${a.joint}' is ${body.joint.type} (.mech actuators drive hinge and slide joints)`);
    }
    actuators.push({ ...a, name: names.take(a.name, `${body.name}_actuator`), body });
  }
  const keyframes = [];
  const owner = new Map(bodies.map((b) => [b.node, b]));
  for (const [n, k] of (src.keyframes ?? []).entries()) {
    const name = names.take(k.name, `key${n}`);
    const q = [];
    const qd = [];
    let iq = 0;
    let iv = 0;
    for (const node of src.nodes) {
      const j = node.joint;
      if (!j) continue;
      const nq = j.type === 'floating' ? 7 : 1;
      const nv = j.type === 'floating' ? 6 : 1;
      const body = owner.get(node);
      if (j.type === 'floating') {
        if (k.qpos || k.qvel) warn(`keyframe '${name}': the free joint of '${node.name}' keeps its initial state`);
      } else {
        if (k.qpos && iq < k.qpos.length) q.push({ body, value: k.qpos[iq] - (j.ref ?? 0) });
        if (k.qvel && iv < k.qvel.length) qd.push({ body, value: k.qvel[iv] });
      }
      iq += nq;
      iv += nv;
    }
    if (k.qpos && k.qpos.length !== iq) throw fail(k.el, `keyframe '${name}': qpos has ${k.qpos.length} numbers, the model ${iq}`);
    if (k.qvel && k.qvel.length !== iv) throw fail(k.el, `keyframe '${name}': qvel has ${k.qvel.length} numbers, the model ${iv}`);
    const kept = src.kept ?? [];
    if (k.ctrl && k.ctrl.length !== kept.length) throw fail(k.el, `keyframe '${name}': ctrl has ${k.ctrl.length} numbers, the model ${kept.length} actuators`);
    const ctrl = [];
    let ia = 0;
    for (const [i, keep] of kept.entries()) if (keep) ctrl.push({ actuator: actuators[ia++], value: k.ctrl ? k.ctrl[i] : 0 });
    keyframes.push({ name, q, qd, ctrl });
  }
  return { actuators, keyframes };
}
