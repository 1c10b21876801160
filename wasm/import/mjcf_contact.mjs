// mjcf_contact.mjs — what an MJCF model says about contact and joint limits, read for the .mech constraint solve
// (docs/mech-format.md, "Contact on the Featherstone engines"): geoms as colliders (contype, conaffinity, condim,
// friction, solref, solimp), world geoms as static colliders, <contact><exclude>, <option impratio cone>, joint
// range/limited (compiler autolimits) and frictionloss.  MuJoCo's rules are its documentation's (XML reference,
// "geom", "joint", "contact"; Computation, "Collision detection" and "Contact parameters").  What .mech cannot
// say is a warning, counted once per kind.

const MJ_SOLREF = [0.02, 1];
const MJ_SOLIMP = [0.9, 0.95, 0.001, 0.5, 2];
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * A reader shared by one import: `drop(what)` tallies a warning, `warn` adds one, `num`/`vec` read attributes
 * (xml.mjs readers), `fail` an ImportError at an element.
 */
export function contactReader({ warn, drop, num, vec, fail, autolimits }) {
  const colliders = []; // the contact attributes (material()) of every primitive collider, bodies' and world's
  const statics = [];
  let impratio = 1;
  let limits = 0;
  const counts = new Map(); // what .mech does differently, counted: a warning each in finish()
  const count = (what) => counts.set(what, (counts.get(what) ?? 0) + 1);

  /** MuJoCo's contact attributes of a geom (its class's under its own), checked. */
  function material(el, a) {
    const contype = num(el, 'contype', 1, a);
    const conaffinity = num(el, 'conaffinity', 1, a);
    for (const [k, v] of [['contype', contype], ['conaffinity', conaffinity]]) {
      if (!(v >= 0 && v < 2 ** 31 && Number.isInteger(v))) throw fail(el, `${k}="${a[k]}": expected a whole number in [0, 2^31)`);
    }
    const condim = num(el, 'condim', 3, a);
    if (![1, 3, 4, 6].includes(condim)) throw fail(el, `condim="${a.condim}": expected 1, 3, 4 or 6`);
    const friction = vec(el, 'friction', [1, 2, 3], [1, 0.005, 0.0001], a)[0];
    if (!(friction >= 0)) throw fail(el, `friction="${a.friction}": the sliding coefficient must not be negative`);
    const solref = vec(el, 'solref', 2, MJ_SOLREF, a);
    const solimp = vec(el, 'solimp', [3, 4, 5], MJ_SOLIMP, a);
    return { contype, conaffinity, condim, friction, solref, solimp };
  }

  /** Count what a collider's MuJoCo attributes mean that .mech does not express. */
  function differences(el, a, m) {
    if (!(m.solref[0] > 0 && m.solref[1] > 0)) {
      count(`with a non-positive solref (MuJoCo's direct stiffness and damping): given ${MJ_SOLREF.join(' ')}`);
      m.solref = MJ_SOLREF;
    }
    if (!(m.solimp[0] > 0 && m.solimp[0] < 1 && m.solimp[1] > 0 && m.solimp[1] < 1 && m.solimp[2] > 0)) {
      count(`with a solimp outside .mech's range (d0, dwidth in (0, 1), width > 0): given ${MJ_SOLIMP.slice(0, 3).join(' ')}`);
      m.solimp = MJ_SOLIMP;
    }
    if (num(el, 'priority', 0, a) !== 0) count('with a priority: dropped (a .mech contact takes the larger friction of its two colliders, MuJoCo the higher-priority geom\'s)');
    if (num(el, 'margin', 0, a) !== 0 || num(el, 'gap', 0, a) !== 0) count('with a margin or gap: dropped (.mech contacts start at touching)');
    if (num(el, 'solmix', 1, a) !== 1) count('with a solmix: dropped');
    if (m.condim === 4 || m.condim === 6) count(`with condim ${m.condim}: taken as condim 3 (sliding friction only; .mech has no torsional or rolling friction)`);
  }

  /**
   * A body geom's collider options: { visual: true } for MuJoCo's visual geoms (contype and conaffinity both 0);
   * else { contype, conaffinity, friction } (condim 1: frictionless).  A mesh geom collides through its convex hull
   * when the model is opened with its files (docs/mech-format.md, "Meshes").
   */
  function collider(el, a) {
    const m = material(el, a);
    if (m.contype === 0 && m.conaffinity === 0) return { visual: true };
    differences(el, a, m);
    colliders.push(m);
    return { contype: m.contype, conaffinity: m.conaffinity, friction: m.condim === 1 ? 0 : m.friction };
  }

  /**
   * A world-body geom: a plane or a box becomes a `static` collider; `shape` its type, size and pose (null when the
   * geom is not one .mech draws).  Others are a warning naming them.
   */
  function worldGeom(el, a, shape, where) {
    const type = a.type ?? 'sphere';
    const m = material(el, a);
    if (m.contype === 0 && m.conaffinity === 0) { drop('visual geoms of the world body (a static collider always collides)'); return; }
    if (!shape || (type !== 'plane' && type !== 'box')) {
      warn(`${where} (${type}) dropped: .mech static colliders are planes and boxes`);
      return;
    }
    differences(el, a, m);
    colliders.push(m);
    statics.push({ ...shape, contype: m.contype, conaffinity: m.conaffinity, friction: m.condim === 1 ? 0 : m.friction });
  }

  /** A hinge's or slide's limit [lower, upper] in SI (`unit`: the compiler's angle to radians), or null. */
  function range(el, a, label, unit) {
    const limited = a.limited ?? 'auto';
    if (!['true', 'false', 'auto'].includes(limited)) throw fail(el, `joint ${label}: limited="${limited}": expected true, false or auto`);
    const given = a.range !== undefined;
    const on = limited === 'true' || (limited === 'auto' && autolimits && given);
    if (!on) return null;
    const r = vec(el, 'range', 2, [0, 0], a).map((x) => x * unit);
    if (!(r[0] < r[1])) {
      drop('joint ranges with lower ≥ upper (no limit)');
      return null;
    }
    if (a.solreflimit !== undefined || a.solimplimit !== undefined || a.margin !== undefined) drop('joint solreflimit, solimplimit and margin values (limits take the contact line\'s solref and solimp)');
    limits++;
    return r;
  }

  /** <option impratio cone>: the attributes read here (the rest are the caller's to warn about). */
  function option(o) {
    if (o.attrs.impratio !== undefined) {
      impratio = num(o, 'impratio', 1);
      if (!(impratio > 0)) throw fail(o, `impratio="${o.attrs.impratio}": expected a positive number`);
    }
    if (o.attrs.cone !== undefined && o.attrs.cone !== 'elliptic') {
      if (o.attrs.cone !== 'pyramidal') throw fail(o, `cone="${o.attrs.cone}": expected pyramidal or elliptic`);
      warn('<option cone="pyramidal"> taken as elliptic (the .mech friction cone)');
    }
  }
  option.reads = ['impratio', 'cone'];

  /** <contact> sections: the body pairs of <exclude> (MJCF body names); <pair> is a warning. */
  function excludes(sections) {
    const pairs = [];
    for (const s of sections) {
      for (const e of s.children) {
        if (e.name === 'exclude') {
          if (e.attrs.body1 === undefined || e.attrs.body2 === undefined) throw fail(e, '<exclude> needs body1 and body2');
          pairs.push({ el: e, names: [e.attrs.body1, e.attrs.body2] });
        } else {
          drop(`<contact><${e.name}> elements`);
        }
      }
    }
    return pairs;
  }

  /**
   * The `contact` line's settings once every geom is read: MuJoCo mixes two geoms' solref and solimp (equal
   * solmix: their mean), so colliders sharing one value keep it exactly; differing values are a warning and the
   * most common is written.  Null when the model has no colliders.
   */
  function finish() {
    for (const [what, n] of counts) warn(`${n} collider geom${n === 1 ? '' : 's'} ${what}`);
    if (!colliders.length) return { contact: null, statics };
    const common = (key) => {
      const counts = new Map();
      for (const c of colliders) {
        const k = c[key].join(' ');
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      const [best] = [...counts.entries()].sort((x, y) => y[1] - x[1]);
      if (counts.size > 1) warn(`geom ${key} differs between colliders (${[...counts.keys()].join('; ')}): .mech has one, ${best[0]} (the most common) written`);
      return best[0].split(' ').map(Number);
    };
    const solref = common('solref');
    const solimp = common('solimp');
    if (solimp.length > 3 && !same(solimp.slice(3), MJ_SOLIMP.slice(3))) warn(`solimp midpoint and power ${solimp.slice(3).join(' ')} taken as 0.5 2 (.mech's)`);
    if (limits && !same(solref, MJ_SOLREF)) warn(`the joint limits take the colliders' solref ${solref.join(' ')} (MuJoCo's solreflimit default is 0.02 1; .mech has one solref)`);
    // condim 1 next to a geom with friction: MuJoCo takes the pair's larger condim and friction, so a condim-1
    // geom's own coefficient could count; here it is 0 and the other's counts.
    const frictionless = colliders.filter((c) => c.condim === 1 && c.friction > 0);
    const rubbing = colliders.filter((c) => c.condim > 1);
    if (frictionless.length && rubbing.some((r) => frictionless.some((f) => f.friction > r.friction && ((f.contype & r.conaffinity) || (r.contype & f.conaffinity))))) {
      warn('condim-1 geoms are frictionless (friction 0): where one touches a geom of lower friction, MuJoCo would take the condim-1 geom\'s higher coefficient');
    }
    return { contact: { solref, solimp: solimp.slice(0, 3), impratio }, statics };
  }

  return { collider, worldGeom, range, option, excludes, finish };
}
