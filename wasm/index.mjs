// @ts-check
// index.mjs — the simulator's JavaScript API, identical in Node >= 20 and in
// browsers, no bundler needed (docs/wasm.md).  The .wasm modules and the
// model manifest are read from ./dist/ next to this file, where
// scripts/build-wasm.sh puts them; each is named by a literal `new URL(…,
// import.meta.url)`, the form bundlers (Vite, webpack) follow to copy the
// files a package uses.  Its types are index.d.ts's, which the JSDoc
// here names rather than restates; tests/types/ checks this file against them.
//
//   import { openModel } from './wasm/index.mjs';
//   const sim = await openModel('threelink');
//   sim.step(0.001, 1000);
//   console.log(sim.q);
//   sim.dispose();

import { generate, jitHandle } from './jit.mjs';
export { Driver, differential, differentialPair, driveRollers, motorTorque } from './drive.mjs';
export { HMMWV_POWERTRAIN, WheelDriver, engineTorque, tireWheels } from './wheel_drive.mjs';
import { HEADER, WasmModule, load } from './module.mjs';
/** @import { Backend, Engine, GenerateOptions, ImportOptions, ImportResult } from './index.js' */
/** @import { ModelDescription, ModelInfo, ModelText, OpenOptions, RodInfo } from './index.js' */

const OPTIONS = { backend: ['generated', 'runtime', 'jit'], engine: ['featherstone', 'xpbd'] };
const TARGETS = ['c', 'wasm'];
// The most float64 values one buffer in WebAssembly memory may hold: its byte count, 8 n, stays below 2^31 (a
// wasm32 pointer offset), so no size arithmetic on either side of the boundary can wrap.
const MAX_BUFFER_VALUES = 2 ** 28 - 1;
// The most bytes of .mech text the parser takes (MECH_MAX_TEXT, core/model/model.h): checked here before the
// text is copied into WebAssembly memory, which would otherwise grow for it and stay grown.
const MAX_TEXT = 4 * 2 ** 20;
// The wall-clock time one step() call may take by default, in ms: under the page's two-second watchdog
// (web/src/engine.js), so a worker stopped by it reports and goes on.  openModel's stepBudgetMs and step()'s
// budgetMs change it.
const STEP_BUDGET_MS = 1000;

/** Bad model text: `message` is `name:line:col: what was expected`. */
export class MechError extends Error {
  /** @param {string} message @param {number} line @param {number} column */
  constructor(message, line, column) {
    super(message);
    /** @type {'MechError'} */
    this.name = 'MechError';
    /** 1-based line of the error, 0 when it has no place. */
    this.line = line;
    /** 1-based column of the error, 0 when it has no place. */
    this.column = column;
    /** step() stopped by its time budget: the steps it did (the Sim's state is that after them); else undefined. */
    this.stepsDone = undefined;
  }
}

/** A time budget in ms, checked: a positive number (Infinity: no budget); `what` names it in the error. */
function budgetMs(what, value) {
  if (typeof value !== 'number') throw new TypeError(`${what} must be a number of milliseconds, got ${shown(value)}`);
  if (!(value > 0)) throw new RangeError(`${what} must be a positive number of milliseconds, got ${shown(value)}`);
  return value;
}

/** A promise cached until it rejects, so a failed load can be retried. */
function cached(map, key, make) {
  if (!map.has(key)) {
    map.set(key, make().catch((e) => {
      map.delete(key);
      throw e;
    }));
  }
  return map.get(key);
}

const loads = new Map();

/** @returns {Promise<ModelInfo[]>} */
function manifest() {
  return cached(loads, 'models.json', async () =>
    JSON.parse(new TextDecoder().decode(await load(new URL('./dist/models.json', import.meta.url)))));
}

/** One instance per module file (dist/<stem>.wasm), shared by every Sim opened from it. */
function instance(stem) {
  return cached(loads, `${stem}.wasm`, () => WasmModule.instantiate(new URL(`./dist/${stem}.wasm`, import.meta.url)));
}

/**
 * The shipped models: name, description, nq, nv, nb, nact, backend and group.
 * backend is 'generated' for a model with its own generated module (which
 * runs on the runtime engine too, with { backend: 'runtime' }), 'runtime'
 * for one the build did not generate (shipped as text only); group 'trees' for models/*.mech, 'loops' for
 * models/loops/*.mech (closed loops, force elements, vehicles), 'tracks' for
 * models/tracks/*.mech (tracked vehicles) and the terrain scenes of models/tracks/scenes/, whose entries
 * carry `module`: the model whose generated module runs them (with another ground).
 */
export async function listModels() {
  return (await manifest()).map((m) => ({ ...m }));
}

/** The .mech text of a shipped model (what its generated module, if it has one, was made from). */
export async function loadModelText(name) {
  await shippedModel(name);
  return new TextDecoder().decode(await load(new URL(`./dist/models/${name}.mech`, import.meta.url)));
}

/** The manifest entry of a shipped model, or RangeError. */
async function shippedModel(name) {
  const models = await manifest();
  const model = models.find((m) => m.name === name);
  if (!model) {
    throw new RangeError(`unknown model '${name}'; shipped models: ${models.map((m) => m.name).join(', ')}`);
  }
  return model;
}

/**
 * MJCF (MuJoCo) or URDF (ROS) text as .mech text a person can read and edit (docs/import.md): a header saying
 * where it came from, the source's body and link names kept, and every element the importer changed or dropped
 * listed in `warnings` (and in the header).  The importer (wasm/import/) is loaded on first use.  Open the result
 * with openModel({ text, name }).
 * @param {string} text the MJCF or URDF file's text
 * @param {ImportOptions} [options] format default: from the root element (<mujoco> or <robot>); name: the
 *   file name error messages and the header show
 * @returns {Promise<ImportResult>}
 * @throws {ImportError} (rejects) naming the file, line, column and element it cannot import
 */
export async function importModel(text, options) {
  const importer = await import('./import/index.mjs');
  return importer.importModel(text, options);
}

/**
 * `text` if the parser can take it, else the parser's MechError for it ("name: text too large: …"), before
 * any copy: a string of more than MAX_TEXT characters has more bytes than that whatever they are.
 * @param {string | Uint8Array} text @param {string} name
 */
function sized(text, name) {
  if (name.length > MAX_TEXT) throw new RangeError(`a model's name may have at most ${MAX_TEXT} characters, got ${name.length}`);
  const over = typeof text === 'string' ? text.length > MAX_TEXT && `over ${MAX_TEXT} bytes (${text.length} characters)`
    : text.length > MAX_TEXT && `${text.length} bytes`;
  if (over) throw new MechError(`${name}: text too large: ${over}, at most ${MAX_TEXT}`, 0, 0);
  return text;
}

/** A value as an error message shows it. */
function shown(v) {
  if (typeof v === 'string') return `'${v}'`;
  if (Array.isArray(v)) return 'an array';
  if (v !== null && typeof v === 'object') return 'an object';
  if (typeof v === 'function') return 'a function';
  return String(v);
}

/**
 * openModel's options, checked: { backend, engine }, each one of its values or undefined. null means no
 * options; anything else that is not an object, an unknown key (a typo would otherwise be ignored) or an
 * unknown value is an error naming the option and what it takes.
 */
function openOptions(options) {
  if (options === undefined || options === null) return { stepBudgetMs: STEP_BUDGET_MS };
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`openModel: options must be an object such as { backend: 'runtime' }, got ${shown(options)}`);
  }
  const keys = [...Object.keys(OPTIONS), 'stepBudgetMs', 'files'];
  const unknown = Object.keys(options).find((key) => !keys.includes(key));
  if (unknown !== undefined) {
    throw new TypeError(`openModel: unknown option '${unknown}'; the options are ${keys.join(', ').replace(/, ([^,]*)$/, ' and $1')}`);
  }
  const checked = {};
  for (const [key, values] of Object.entries(OPTIONS)) {
    const value = options[key];
    const use = values.map(shown).join(', ').replace(/, ([^,]*)$/, ' or $1');
    if (value !== undefined && typeof value !== 'string') throw new TypeError(`openModel: ${key} must be ${use}, got ${shown(value)}`);
    if (value !== undefined && !values.includes(value)) throw new RangeError(`openModel: unknown ${key} ${shown(value)}; use ${use}`);
    checked[key] = value;
  }
  checked.stepBudgetMs = options.stepBudgetMs === undefined ? STEP_BUDGET_MS
    : budgetMs('openModel: stepBudgetMs', options.stepBudgetMs);
  checked.files = meshFiles(options.files);
  return checked;
}

/**
 * Open a model.
 * @param {string | ModelText} source a shipped model's name, or .mech text
 *   (a string or its UTF-8 bytes) with a name for error messages and `sim.name`
 * @param {OpenOptions | null} [options] backend default: the model's generated module for a shipped model that
 *   has one, the runtime engine (ABA, loops by RBDA §8.5) for text and for a
 *   shipped model without a module; 'jit' generates the dynamics of any text
 *   (or shipped model) in the runtime module and runs them like a build-time
 *   module (docs/wasm.md, "Jit"), rejecting with a MechError a model the
 *   generator refuses.  engine 'xpbd' runs
 *   the same file as XPBD bodies and joints in the runtime module
 *   (docs/wasm.md, "XPBD engine").  Any other key or value is an error.
 * @returns {Promise<Sim>}
 */
export async function openModel(source, options) {
  const { stepBudgetMs, ...rest } = openOptions(options);
  const sim = await openSource(source, rest);
  budgets.set(sim, stepBudgetMs);
  return sim;
}

/** openModel without its step budget. @param {string | ModelText} source @param {OpenOptions} options */
async function openSource(source, options) {
  const { backend, engine = 'featherstone', files } = options;
  if (engine === 'xpbd' && (backend === 'generated' || backend === 'jit')) {
    throw new RangeError(`openModel: engine 'xpbd' runs in the runtime module; backend '${backend}' is Featherstone only`);
  }
  if (files && backend === 'generated') {
    throw new RangeError("openModel: files (mesh colliders) run on backends 'runtime' and 'jit'; a generated module has none");
  }
  if (typeof source === 'string') {
    const shipped = await shippedModel(source);
    if (backend === 'generated' && shipped.backend !== 'generated') {
      throw new RangeError(`openModel: '${source}' has no generated module (it is shipped as text); open it without a backend, or with backend 'runtime'`);
    }
    if (backend === 'jit') return openJit(await loadModelText(source), source, files);
    if (backend === 'runtime' || engine === 'xpbd' || shipped.backend !== 'generated') {
      return openText(await loadModelText(source), source, engine, files);
    }
    if (shipped.module) return openScene(shipped.module, await loadModelText(source), source);
    const mod = await instance(source);
    return new Sim(mod, opened(mod, mod.exports.mw_open()), 'generated');
  }
  const text = source?.text;
  if (typeof text !== 'string' && !(text instanceof Uint8Array)) {
    throw new TypeError('openModel: source must be a shipped model name or { text: string | Uint8Array, name?: string }');
  }
  if (backend === 'generated') {
    throw new RangeError("openModel: backend 'generated' exists only for shipped models, opened by name; text runs on 'runtime'");
  }
  const name = source.name ?? 'model';
  if (typeof name !== 'string') throw new TypeError('openModel: source.name must be a string');
  sized(text, name);
  return backend === 'jit' ? openJit(text, name, files) : openText(text, name, engine, files);
}

/**
 * The generated dynamics of .mech text: exactly the C source the build's mechgen writes for the file (a
 * string), or the WebAssembly module mechgen --wasm writes (a Uint8Array; docs/codegen.md, "WebAssembly back
 * end"), generated in the runtime module.  The overloads are index.d.ts's: a string for target 'c', the
 * bytes for 'wasm'.
 * @overload @param {string | Uint8Array} text @param {GenerateOptions & { target: 'c' }} options
 *   @returns {Promise<string>}
 */
/** @overload @param {string | Uint8Array} text @param {GenerateOptions & { target: 'wasm' }} options
 *   @returns {Promise<Uint8Array>} */
/** @overload @param {string | Uint8Array} text @param {GenerateOptions} options
 *   @returns {Promise<string | Uint8Array>} */
/**
 * @param {string | Uint8Array} text .mech text
 * @param {GenerateOptions} options name: the file's path or name, for error messages; its stem names the
 *   functions (mechgen_<stem>_fwd_dyn), default 'model'
 * @returns {Promise<string | Uint8Array>}
 * @throws {MechError} (rejects) on bad text, or naming why the generator refused the model
 */
export async function generateCode(text, options) {
  if (typeof text !== 'string' && !(text instanceof Uint8Array)) {
    throw new TypeError('generateCode: text must be .mech text, a string or a Uint8Array');
  }
  const target = options?.target;
  if (!TARGETS.includes(target)) throw new RangeError(`generateCode: target must be 'c' or 'wasm', got ${shown(target)}`);
  const name = options.name ?? 'model';
  if (typeof name !== 'string') throw new TypeError('generateCode: name must be a string');
  sized(text, name);
  const mod = await instance('runtime');
  const { bytes } = generate(mod, text, name, target === 'wasm' ? 1 : 0, opened);
  return target === 'c' ? new TextDecoder().decode(bytes) : bytes;
}

/**
 * A Sim of `text` on its generated dynamics, jitted (wasm/jit.mjs; docs/wasm.md, "Jit"), its colliding mesh
 * shapes given their hulls from `files` as on the runtime engine.
 * @param {string | Uint8Array} text @param {string} name
 * @param {Record<string, string | Uint8Array> | undefined} files
 */
async function openJit(text, name, files) {
  const mod = await instance('runtime');
  const { model, warnings } = await parsedWithHulls(mod, text, name, files);
  const { ptr, close, forward, forwardModelGravity } = await jitHandle(mod, text, name, opened, model);
  return new Sim(mod, ptr, 'jit', 'featherstone', close, { model: forwardModelGravity, any: forward }, warnings);
}

/**
 * A Sim of `text` on the runtime module's ABA or XPBD: parsed with its mesh colliders' hulls, then run.
 * @param {string | Uint8Array} text @param {string} name @param {Engine} engine
 * @param {Record<string, string | Uint8Array> | undefined} files
 */
async function openText(text, name, engine, files) {
  const mod = await instance('runtime');
  const { model, warnings } = await parsedWithHulls(mod, text, name, files);
  const ptr = mod.exports.mw_model_open(model, engine === 'xpbd' ? 1 : 0); // adopts the model, or frees it
  return new Sim(mod, opened(mod, ptr), 'runtime', engine, undefined, null, warnings);
}

/**
 * `text` parsed in the runtime module `mod` (a mech_model pointer, the caller's to open or free), its colliding
 * mesh shapes given their hulls from `files` (attachMeshHulls), with the warnings naming meshes left without.
 * @param {WasmModule} mod @param {string | Uint8Array} text @param {string} name
 * @param {Record<string, string | Uint8Array> | undefined} files
 * @returns {Promise<{ model: number, warnings: string[] }>}
 */
async function parsedWithHulls(mod, text, name, files) {
  const x = mod.exports;
  const model = opened(mod, mod.withString(name, (namePtr) =>
    mod.withString(text, (textPtr, length) => x.mw_model_parse(textPtr, length, namePtr))));
  try {
    return { model, warnings: await attachMeshHulls(mod, model, files) };
  } catch (e) {
    x.mw_model_free(model);
    throw e;
  }
}

/**
 * What an XPBD run leaves out of a model: its equalities and tendon ranges (docs/mech-format.md, "Equality").
 * @param {ModelDescription} d @returns {string[]}
 */
function xpbdUnheld(d) {
  return [
    ...(d.equalities ?? []).map((e) => `equality '${e.name}' is not held on engine 'xpbd' (the Featherstone engines hold it)`),
    ...(d.tendons ?? []).filter((t) => t.range).map((t) => `tendon '${t.name}': its range is not held on engine 'xpbd' (the Featherstone engines hold it)`),
  ];
}

/**
 * openModel's files, checked: undefined, or an object of file contents (string or Uint8Array) by path.
 * @param {unknown} files @returns {Record<string, string | Uint8Array> | undefined}
 */
function meshFiles(files) {
  if (files === undefined) return undefined;
  if (files === null || typeof files !== 'object' || Array.isArray(files)) {
    throw new TypeError(`openModel: files must be an object of file contents by path, such as { 'assets/foot.obj': text }, got ${shown(files)}`);
  }
  const files_ = /** @type {Record<string, unknown>} */ (files);
  for (const [path, data] of Object.entries(files_)) {
    if (typeof data !== 'string' && !(data instanceof Uint8Array)) {
      throw new TypeError(`openModel: files['${path}'] must be a string or a Uint8Array, got ${shown(data)}`);
    }
  }
  return /** @type {Record<string, string | Uint8Array>} */ (files_);
}

/** The most points of a mesh collider's hull (MECH_MESH_HULL_MAX in include/mech/model.h). */
const MESH_HULL_MAX = 64;

/**
 * Give each mesh that a colliding shape draws (not `visual`; docs/mech-format.md, "Meshes") its convex hull, read
 * from `files`: the file parsed (import/mesh.mjs), the hull of its points (import/hull.mjs), cut to at most
 * MESH_HULL_MAX points (hullPoints); the C side places them by the mesh line's scale, refpos and refquat and checks
 * them.  A malformed file or a flat mesh is an error naming the file; a mesh whose file is not in `files` stays
 * drawn only, and the returned warnings name it.
 * @param {WasmModule} mod @param {number} model @param {Record<string, string | Uint8Array> | undefined} files
 * @returns {Promise<string[]>}
 */
async function attachMeshHulls(mod, model, files) {
  const x = mod.exports;
  const colliding = [];
  for (let i = 0; i < x.mw_model_mesh_count(model); i++) if (x.mw_model_mesh_collides(model, i)) colliding.push(i);
  if (!colliding.length) return [];
  const [{ parseMesh }, { convexHull }, { filesByPath }] = await Promise.all([import('./import/mesh.mjs'),
    import('./import/hull.mjs'), import('./import/path.mjs')]);
  const fileAt = filesByPath(files); // paths resolved as the importer resolves them
  const warnings = [];
  for (const i of colliding) {
    const name = mod.string(x.mw_model_mesh_name(model, i)), file = mod.string(x.mw_model_mesh_file(model, i));
    const data = fileAt(file);
    if (data === undefined) {
      warnings.push(`mesh '${name}': its file '${file}' was not given (openModel's files), so its shapes are drawn only and do not collide`);
      continue;
    }
    const { vertices } = parseMesh(data, file);
    let hull;
    try {
      hull = convexHull(vertices);
    } catch (e) {
      throw new MechError(`mesh '${name}' (${file}): ${/** @type {Error} */ (e).message}: it cannot collide; mark its shapes visual`, 0, 0);
    }
    const points = hullPoints(vertices, hull.vertices);
    const ptr = x.malloc(points.length * 8);
    if (!ptr) throw new RangeError(`out of WebAssembly memory for the hull of mesh '${name}'`);
    try {
      mod.f64(ptr, points.length).set(points);
      if (x.mw_model_set_mesh_hull(model, i, ptr, points.length / 3)) opened(mod, 0);
    } finally {
      x.free(ptr);
    }
  }
  return warnings;
}

/**
 * At most MESH_HULL_MAX of the hull's points, x y z each: all of them when few enough, else the extreme points
 * along the most directions of a Fibonacci sphere (64, 128, ... evenly spread) that still give no more, so the
 * collider is the hull of extreme points spread over the surface, inside the mesh's hull by at most the sagitta
 * of the directions' spacing.
 * @param {Float64Array} v all points, x y z each @param {number[]} ids the hull's points (indices into v)
 * @returns {Float64Array}
 */
function hullPoints(v, ids) {
  let chosen = ids;
  if (ids.length > MESH_HULL_MAX) {
    chosen = [];
    for (let k = MESH_HULL_MAX; k <= 64 * MESH_HULL_MAX; k *= 2) {
      const set = new Set();
      for (let j = 0; j < k; j++) {
        const z = 1 - (2 * j + 1) / k, r = Math.sqrt(1 - z * z), phi = j * 2.399963229728653;
        const d = [r * Math.cos(phi), r * Math.sin(phi), z];
        let best = ids[0], top = -Infinity;
        for (const i of ids) {
          const h = d[0] * v[3 * i] + d[1] * v[3 * i + 1] + d[2] * v[3 * i + 2];
          if (h > top) top = h, best = i;
        }
        set.add(best);
      }
      if (set.size > MESH_HULL_MAX) break;
      chosen = [...set].sort((a, b) => a - b);
    }
  }
  return Float64Array.from(chosen.flatMap((i) => [v[3 * i], v[3 * i + 1], v[3 * i + 2]]));
}

/**
 * A terrain scene (its manifest entry names `module`): the text, that module's model with another ground, on
 * the module's generated dynamics (wasm/scene.c refuses any other text, naming the first line that differs).
 */
async function openScene(module, text, name) {
  const mod = await instance(module);
  const ptr = mod.withString(name, (namePtr) =>
    mod.withString(text, (textPtr, length) => mod.exports.mw_open_scene(textPtr, length, namePtr)));
  return new Sim(mod, opened(mod, ptr), 'generated');
}

/** `ptr`, or the module's error thrown as MechError (model text) or Error. */
function opened(mod, ptr) {
  if (ptr) return ptr;
  const { message, line, column } = mod.lastError();
  if (mod.exports.mw_error_is_parse()) throw new MechError(message, line, column);
  throw new Error(message);
}

/** Each Sim's step budget in ms (openModel's stepBudgetMs); a Sim made otherwise has the default. */
const budgets = new WeakMap();

/**
 * A Sim's live views of its arrays in WebAssembly memory (the header's pointers, HEADER in module.mjs).
 * @typedef {{ q: Float64Array, qd: Float64Array, tau: Float64Array, act: Float64Array, fext: Float64Array,
 *   qdd: Float64Array, poses: Float64Array, energy: Float64Array, gravity: Float64Array, ctrl: Float64Array }} Views
 */

/**
 * One simulation: a model, its state and a forward-dynamics backend, living
 * in WebAssembly memory.  q, qd, tau, act, fext and qdd are live
 * Float64Array views of that memory: write inputs into them, read results
 * out, no copies.  Re-read a view after opening another model (the memory
 * may have grown, which detaches old views); the getters always return a
 * valid one.
 */
export class Sim {
  #mod;
  #ptr;
  /** @type {Views | null} */
  #views = null;
  #generation = -1;
  // forward()'s call, looked up once, since a lookup per call is a visible share of a small model's forward()
  // (docs/benchmarks.md, "Measured reasons in the code"): the module's mw_forward export, or the jitted
  // module's forward; on a generated or jitted module their copy without the gravity compare
  // (mw_forward_model_gravity, forward_model_gravity) until the gravity view is handed out (get gravity()).
  #forward;
  #forwardAny; // what #forward becomes then
  #fallback; // with the jitted forward: the runtime's mw_forward, run when that declines; else null
  #close;
  #scratch = { ptr: 0, n: 0 }; // #withBuffer's buffer in the module's memory

  /**
   * @param {WasmModule} mod @param {number} ptr @param {Backend} backend @param {Engine} [engine]
   * @param {(ptr: number) => void} [close] what dispose() does with the handle (default mw_close)
   * @param {{ model: (ptr: number) => number, any: (ptr: number) => number } | null} [forwards] a fast path of forward()
   *   (a jitted module's, at the model's gravity and at any: 0 done, else the module's mw_forward runs; wasm/jit.mjs)
   * @param {string[]} [warnings] what opened but will not behave as written (a mesh collider without its file)
   */
  constructor(mod, ptr, backend, engine = 'featherstone', close = (handle) => mod.exports.mw_close(handle),
    forwards = null, warnings = []) {
    this.#mod = mod;
    this.#ptr = ptr;
    this.#close = close;
    const x = mod.exports;
    this.#forwardAny = forwards ? forwards.any : x.mw_forward;
    this.#forward = forwards ? forwards.model : x.mw_forward_model_gravity ?? x.mw_forward;
    this.#fallback = forwards ? x.mw_forward : null;
    const h = mod.i32(mod.exports.mw_arrays(ptr), 4);
    this.backend = backend;
    /** what step() and poses() run */
    this.engine = engine;
    this.nq = h[HEADER.nq];
    this.nv = h[HEADER.nv];
    this.nb = h[HEADER.nb];
    this.nact = h[HEADER.nact];
    /** actuators: their ctrl is the last nu entries of act */
    this.nu = x.mw_nu(ptr);
    this.name = mod.string(mod.exports.mw_name(ptr));
    this.description = mod.string(mod.exports.mw_description(ptr));
    this.bodyNames = Object.freeze(Array.from({ length: this.nb }, (_, i) =>
      mod.string(mod.exports.mw_body_name(ptr, i))));
    /** what opened but will not behave as written: each colliding mesh whose file openModel was not given, and on
     * XPBD each equality and tendon range (held by the Featherstone engines' constraint solve only) */
    this.warnings = Object.freeze([...warnings, ...(engine === 'xpbd' ? xpbdUnheld(this.describe()) : [])]);
    Object.freeze(this);
  }

  #handle() {
    if (!this.#ptr) throw new Error(`Sim '${this.name}' has been disposed`);
    return this.#ptr;
  }

  /** @returns {Views} */
  #view() {
    const ptr = this.#handle();
    if (this.#views === null || this.#generation !== this.#mod.generation) {
      const h = this.#mod.i32(this.#mod.exports.mw_arrays(ptr), HEADER.length);
      /** @param {keyof typeof HEADER} k @param {number} n */
      const f = (k, n) => this.#mod.f64(h[HEADER[k]], n); // never 0: core/sim/data.c sets every one
      this.#views = {
        q: f('q', this.nq), qd: f('qd', this.nv), tau: f('tau', this.nv), act: f('act', this.nact),
        fext: f('fext', 6 * this.nb), qdd: f('qdd', this.nv), poses: f('poses', 7 * this.nb),
        energy: f('energy', 2), gravity: f('gravity', 3), ctrl: f('act', this.nact).subarray(this.nact - this.nu),
      };
      this.#generation = this.#mod.generation;
    }
    return this.#views;
  }

  /** Joint positions (nq; floating bodies: qw qx qy qz x y z). */
  get q() { return this.#view().q; }
  /** Joint velocities (nv; floating bodies: body-frame [ω; v]). */
  get qd() { return this.#view().qd; }
  /** Joint forces (nv). */
  get tau() { return this.#view().tau; }
  /** Inputs (nact): the force elements' inputs, then each actuator's ctrl. */
  get act() { return this.#view().act; }
  /** The actuators' inputs (nu, file order): a view of act's last nu entries. */
  get ctrl() { return this.#view().ctrl; }
  /** External forces, 6 per body in base coordinates [moment about the base origin; force]. */
  get fext() { return this.#view().fext; }
  /** Joint accelerations (nv), written by forward() and step(). */
  get qdd() { return this.#view().qdd; }
  /** Gravity (m/s², base frame), writable: an input of every engine, starting as the model's. */
  get gravity() {
    // The view is the one way to write the gravity, so from here on forward() compares it with the model's.
    this.#forward = this.#forwardAny;
    return this.#view().gravity;
  }

  #check(status) {
    if (status !== 0) throw new RangeError(this.#mod.lastError().message);
  }

  /** qdd ← forward dynamics at (q, qd, tau, fext, act); returns qdd. */
  forward() {
    // The hot path: one call, the handle checked only when it fails (a
    // disposed Sim's handle is 0, which mw_forward refuses).  A jitted
    // forward declines anything but the plain case: mw_forward then runs,
    // at another gravity, or to name the bad entry.
    if (this.#forward(this.#ptr) !== 0 && (this.#fallback === null || this.#fallback(this.#ptr) !== 0)) {
      this.#check(this.#handle() && -1);
    }
    return this.#generation === this.#mod.generation ? /** @type {Views} */ (this.#views).qdd : this.qdd;
  }

  /**
   * Advance n steps of dt seconds in one call: Störmer–Verlet with one dynamics
   * call per step, or on engine 'xpbd' one XPBD step (the file's substeps).
   * Refused before any step past the work cap (docs/architecture.md, "Work per call"); a call of more than one
   * step runs in parts, with the clock read between them, and stops at its time budget (default 1000 ms,
   * openModel's stepBudgetMs, or options.budgetMs for this call) with a MechError saying how many steps it did
   * (its stepsDone), the state that after the last of them.  Parts give the same state bit for bit as one run.
   * @param {number} dt @param {number} [n=1] @param {{ budgetMs?: number }} [options]
   */
  step(dt, n = 1, options = undefined) {
    if (typeof dt !== 'number') throw new TypeError(`step: dt must be a number, got ${typeof dt}`);
    if (!Number.isInteger(n) || n < 0 || n > 0x7fffffff) {
      throw new RangeError(`step: n must be a non-negative integer below 2^31, got ${shown(n)}`);
    }
    if (options !== undefined && (options === null || typeof options !== 'object')) {
      throw new TypeError(`step: options must be an object such as { budgetMs: 200 }, got ${shown(options)}`);
    }
    const budget = options?.budgetMs === undefined ? budgets.get(this) ?? STEP_BUDGET_MS
      : budgetMs('step: budgetMs', options.budgetMs);
    const ptr = this.#handle();
    const part = this.#mod.exports.mw_step_part;
    if (n <= 1) return this.#check(this.#mod.exports.mw_step(ptr, dt, n));
    // Parts sized from the pace so far: a sixteenth of the budget, at most four times the steps done (so a
    // clock too coarse to time the first steps cannot let a part run long), and no more than the time left.
    const start = performance.now();
    let done = 0;
    for (let count = 1; ;) {
      this.#check(part(ptr, dt, done, count, n));
      done += count;
      if (done === n) return;
      const spent = performance.now() - start;
      const pace = spent / done, left = budget - spent;
      if (left < pace) {
        const error = new MechError(`step: stopped after ${done} of ${n} steps of '${this.name}', at its time budget of ${budget} ms (${Math.round(spent)} ms spent); the state is that after step ${done}. Take fewer steps per call, or give more time: step(dt, n, { budgetMs }) or openModel's stepBudgetMs`, 0, 0);
        error.stepsDone = done;
        throw error;
      }
      count = Math.max(1, Math.min(n - done, 4 * done, Math.floor(Math.min(budget / 16, left) / pace)));
    }
  }

  /**
   * The work one step costs, in the units of the work cap (docs/architecture.md, "Work per call"): a call of
   * n steps may do at most 1e8 units, so n at most 1e8 / stepWork.
   */
  get stepWork() {
    return this.#mod.exports.mw_step_work(this.#handle());
  }

  /** Per body world x y z, qw qx qy qz (7·nb), a live view overwritten by the next call. */
  poses() {
    this.#check(this.#mod.exports.mw_poses(this.#handle()));
    return this.#view().poses;
  }

  /**
   * Observation values at the current q, qd (a new array): every point of
   * interest's world x y z, vx vy vz (6 each), then each tsda's length and
   * rate (2 each), then each rsda's q and qd (2 each) — docs/wasm.md.  Use
   * find() for where a named one starts.
   * @returns {Float64Array}
   */
  observe() {
    const x = this.#mod.exports;
    const n = x.mw_observe_len(this.#handle());
    if (n === 0) return new Float64Array(0);
    const ptr = x.mw_observe(this.#handle());
    if (!ptr) throw new RangeError(this.#mod.lastError().message);
    return Float64Array.from(this.#mod.f64(ptr, n));
  }

  /**
   * Where a named element's values start in observe() (kind 'poi', 'tsda',
   * 'rsda'), or the act[] slot of an element declared input (kind 'act');
   * -1 when the model has no such element.
   * @param {'poi' | 'tsda' | 'rsda' | 'act'} kind @param {string} name
   */
  find(kind, name) {
    const ptr = this.#handle();
    if (!['poi', 'tsda', 'rsda', 'act'].includes(kind)) {
      throw new RangeError(`find: unknown kind '${kind}'; use 'poi', 'tsda', 'rsda' or 'act'`);
    }
    if (typeof name !== 'string') throw new TypeError('find: name must be a string');
    return this.#mod.withString(kind, (k) => this.#mod.withString(name, (n) =>
      this.#mod.exports.mw_find(ptr, k, n)));
  }

  /**
   * XPBD residuals of the last substep (eqs. 51, 52 of Tobin & Rucker):
   * primal |M Δx̃ − ∇Cᵀλ| and constraint |C + α̃λ|; zeros before the first step.
   * Only on engine 'xpbd'.
   * @returns {{ primal: number, constraint: number }}
   */
  residuals() {
    const handle = this.#handle();
    const ptr = this.#mod.exports.mw_xpbd_residuals?.(handle);
    if (!ptr) throw new RangeError(`residuals: Sim '${this.name}' runs engine '${this.engine}', not 'xpbd'`);
    const [primal, constraint] = this.#mod.f64(ptr, 2);
    return { primal, constraint };
  }

  /**
   * XPBD: the rate of `body`'s motor, its joint's `ramp` drive target (rad/s revolute, m/s prismatic).
   * Setting it is an input: the target keeps its value now and turns on at the new rate.
   * Throws when the body has no ramp drive (or the Sim is not on XPBD), or the rate is not finite.
   */
  rampRate(body) {
    const ptr = this.#handle();
    const rate = this.#mod.exports.mw_xpbd_ramp_rate?.(ptr, this.#body('rampRate', body)) ?? NaN;
    if (Number.isNaN(rate)) throw new RangeError(this.#mod.exports.mw_xpbd_ramp_rate ? this.#mod.lastError().message : `rampRate: Sim '${this.name}' runs engine '${this.engine}', not 'xpbd'`);
    return rate;
  }

  setRampRate(body, rate) {
    const ptr = this.#handle();
    if (!this.#mod.exports.mw_xpbd_set_ramp_rate) throw new RangeError(`setRampRate: Sim '${this.name}' runs engine '${this.engine}', not 'xpbd'`);
    this.#check(this.#mod.exports.mw_xpbd_set_ramp_rate(ptr, this.#body('setRampRate', body), rate));
  }

  /**
   * The contacts of the last step: on XPBD those that pressed in its last
   * substep (docs/xpbd.md, "Contact"), on Featherstone those of the
   * constraint solve (docs/contact.md, "The constraint solve").  A
   * Float64Array of 6 per contact, the point (world x y z; on Featherstone
   * midway between the surfaces) and the unit normal towards the first
   * collider (nx ny nz); a view overwritten by the next call.
   * @returns {Float64Array}
   */
  contacts() {
    const x = this.#mod.exports;
    const n = x.mw_contact_count(this.#handle());
    if (n < 0) throw new RangeError(this.#mod.lastError().message);
    return n === 0 ? new Float64Array(0) : this.#mod.f64(x.mw_contact_points(), 6 * n);
  }

  /**
   * The forces of the contacts contacts() lists, on Featherstone: a
   * Float64Array of 4 per contact, the normal force (N) and the friction
   * force on the first collider (world fx fy fz, N); empty on XPBD.  A copy.
   * @returns {Float64Array}
   */
  contactForces() {
    const x = this.#mod.exports;
    const n = x.mw_contact_count(this.#handle());
    if (n < 0) throw new RangeError(this.#mod.lastError().message);
    const ptr = x.mw_contact_forces();
    return n === 0 || !ptr ? new Float64Array(0) : this.#mod.f64(ptr, 4 * n).slice();
  }

  /**
   * The floor (docs/contact.md, "The floor"): on, the plane z = height
   * collides with every body collider of a Featherstone Sim, so any model
   * can stand on the page's floor; off by default.  RangeError on XPBD or a
   * model with a ground.
   * @param {boolean} on
   * @param {number} [height]
   */
  setFloor(on, height = 0) {
    const ptr = this.#handle();
    if (typeof on !== 'boolean') throw new TypeError(`setFloor: on must be a boolean, got ${typeof on}`);
    if (typeof height !== 'number' || !Number.isFinite(height)) throw new RangeError(`setFloor: height must be a finite number, got ${height}`);
    if (this.#mod.exports.mw_set_floor(ptr, on ? 1 : 0, height)) throw new RangeError(this.#mod.lastError().message);
  }

  /** The floor's height when it is on (setFloor), else null. */
  get floor() {
    const h = this.#mod.exports.mw_floor(this.#handle());
    return Number.isNaN(h) ? null : h;
  }

  /**
   * The wall-clock ms this Sim's steps have spent, since it was opened, in
   * the penalty contact stage (bands, grounds) and in the constraint solve
   * (its collision detection included) on Featherstone; zeros on XPBD.  A
   * report (no result depends on it): subtract two readings for the steps
   * between them.
   * @returns {{ contact: number, solve: number }}
   */
  stageTimes() {
    const [contact, solve] = this.#mod.f64(this.#mod.exports.mw_stage_times(this.#handle()), 2);
    return { contact, solve };
  }

  /**
   * The last step's constraint solve on Featherstone: its rows, Gauss–Seidel
   * sweeps and residual (the largest force change of its last sweep); zeros
   * when it did not run.
   * @returns {{ rows: number, sweeps: number, residual: number }}
   */
  solverStats() {
    const [rows, sweeps, residual] = this.#mod.f64(this.#mod.exports.mw_solver_stats(this.#handle()), 3);
    return { rows, sweeps, residual };
  }

  /**
   * The rods (`rod` blocks) of an XPBD Sim, in file order; [] on Featherstone
   * (which ignores rods) or when the file has none.  Each: name, disc
   * ('rigid' | 'linear' | 'quadratic' | 'cubic'), order (0 for the rigid
   * chain), elements, nodes, gaussPoints (per element), length (rest, m),
   * diameter (m), E (Pa), damping (Pa s), rho (density, kg/m³) and color ([r, g, b] in 0..1, or
   * null when the file gives none).
   * @returns {RodInfo[]}
   */
  rods() {
    const x = this.#mod.exports;
    const ptr = this.#handle();
    const n = x.mw_xpbd_nrod?.(ptr) ?? 0;
    /** @type {RodInfo['disc'][]} */
    const discs = ['rigid', 'linear', 'quadratic', 'cubic'];
    return Array.from({ length: n }, (_, i) => {
      const [order, elements, nodes, length, diameter, r, g, b, a, gaussPoints, E, damping, rho] =
        this.#mod.f64(x.mw_xpbd_rod_info(ptr, i), 13);
      return {
        name: this.#mod.string(x.mw_xpbd_rod_name(ptr, i)), disc: discs[order], order, elements, nodes,
        gaussPoints, length, diameter, E, damping, rho, color: a > 0 ? [r, g, b] : null,
      };
    });
  }

  #rodIndex(what, i) {
    const ptr = this.#handle();
    const n = this.#mod.exports.mw_xpbd_nrod?.(ptr) ?? 0;
    if (!Number.isInteger(i) || i < 0 || i >= n) {
      throw new RangeError(`${what}: no rod ${i}; Sim '${this.name}' has ${n} rod${n === 1 ? '' : 's'}${this.engine === 'xpbd' ? '' : " (rods run on engine 'xpbd' only)"}`);
    }
    return i;
  }

  /**
   * A body argument as its index: an integer in [0, nb) or one of bodyNames; RangeError naming `what` otherwise.
   * @param {string} what @param {number | string} body
   */
  #body(what, body) {
    const i = typeof body === 'string' ? this.bodyNames.indexOf(body) : body;
    if (!Number.isInteger(i) || i < 0 || i >= this.nb) {
      throw new RangeError(`${what}: body must be an index in [0, ${this.nb}) or a body's name, got ${shown(body)}`);
    }
    return i;
  }

  /**
   * Node positions of rod i: a live Float64Array(3·nodes) view, world x y z
   * per node (finite-element nodes, or the rigid chain's body origins).
   * @param {number} i
   */
  rodNodes(i) {
    this.#rodIndex('rodNodes', i);
    const n = this.#mod.exports.mw_xpbd_rod_info(this.#handle(), i);
    return this.#mod.f64(this.#mod.exports.mw_xpbd_rod_nodes(this.#handle(), i), 3 * this.#mod.f64(n, 3)[2]);
  }

  /**
   * Node frames of rod i: a live Float64Array(9·nodes) view, per node the
   * row-major rotation from the material frame {d1, d2, d3} (d3 the rest
   * tangent) to world.
   * @param {number} i
   */
  rodFrames(i) {
    this.#rodIndex('rodFrames', i);
    const n = this.#mod.exports.mw_xpbd_rod_info(this.#handle(), i);
    return this.#mod.f64(this.#mod.exports.mw_xpbd_rod_frames(this.#handle(), i), 9 * this.#mod.f64(n, 3)[2]);
  }

  /**
   * The interpolated centreline of rod i (positions by the element's
   * Lagrange basis, rotations on the manifold, docs/rods.md), at n + 1
   * equally spaced arc lengths s = kL/n: so a cubic element is drawn
   * curved.  positions is a Float64Array(3(n + 1)); with { frames: true }
   * also frames, Float64Array(9(n + 1)) row-major.  Views of one buffer
   * per Sim, overwritten by the next call.
   * @param {number} i @param {number} [n] default 8 per element
   * @param {{ frames?: boolean }} [options]
   * @returns {{ positions: Float64Array, frames: Float64Array | null }}
   */
  rodCentreline(i, n, options = {}) {
    this.#rodIndex('rodCentreline', i);
    const x = this.#mod.exports;
    const ptr = this.#handle();
    const count = n ?? 8 * this.#mod.f64(x.mw_xpbd_rod_info(ptr, i), 2)[1];
    if (!Number.isInteger(count) || count < 1 || count > 1e6) {
      throw new RangeError(`rodCentreline: n must be an integer in [1, 1000000], got ${n}`);
    }
    const frames = Boolean(options?.frames);
    const out = x.mw_xpbd_rod_sample(ptr, i, count, frames ? 1 : 0);
    if (!out) throw new RangeError(this.#mod.lastError().message);
    return {
      positions: this.#mod.f64(out, 3 * (count + 1)),
      frames: frames ? this.#mod.f64(out + 24 * (count + 1), 9 * (count + 1)) : null,
    };
  }

  /**
   * fn(ptr) with a scratch buffer of at least n doubles in WebAssembly memory; returns what fn returns.  The
   * buffer is this Sim's, kept between calls (grown when a call needs more, freed by dispose()): a state of a
   * scene with rods is tens of kB, and a malloc and free of it on every saveState() cost more than the copy.
   */
  #withBuffer(what, n, fn) {
    const x = this.#mod.exports;
    if (!Number.isInteger(n) || n < 0 || n > MAX_BUFFER_VALUES) {
      throw new RangeError(`${what}: a buffer of ${shown(n)} values is not possible (at most ${MAX_BUFFER_VALUES})`);
    }
    if (n > this.#scratch.n) {
      const ptr = x.malloc(8 * Math.max(n, 1));
      if (!ptr) throw new RangeError(`${what}: out of WebAssembly memory`);
      if (this.#scratch.ptr) x.free(this.#scratch.ptr);
      this.#scratch = { ptr, n };
    }
    return fn(this.#scratch.ptr);
  }

  /**
   * Per body world velocity, Float64Array(6·nb) (a copy): the body origin's vx vy vz (m/s), then the angular
   * velocity wx wy wz (rad/s), both in the base frame.
   */
  velocities() {
    const ptr = this.#handle();
    const n = 6 * this.nb;
    return this.#withBuffer('velocities', n, (out) => {
      this.#check(this.#mod.exports.mw_velocities(ptr, out));
      return Float64Array.from(this.#mod.f64(out, n));
    });
  }

  /** The length of saveState()'s array: fixed for the life of this Sim. */
  get stateSize() {
    return this.#mod.exports.mw_state_size(this.#handle());
  }

  /**
   * The run's state, a Float64Array (a copy): time, q, qd, qdd, the contact stage's anchors and last forces,
   * and the engine's own (XPBD: bodies, joint targets and multipliers, rods) — everything a step reads
   * besides the inputs (tau, act, fext, gravity), so that restoreState(it) and the same steps repeat the
   * run bit for bit.  Into `into` when given (a Float64Array of the state's length, returned), with no
   * allocation: a run that keeps one state per chunk of steps reuses one array.
   * @param {Float64Array} [into]
   * @returns {Float64Array}
   */
  saveState(into) {
    const ptr = this.#handle();
    const x = this.#mod.exports;
    const n = x.mw_state_size(ptr);
    if (into !== undefined && !(into instanceof Float64Array && into.length === n)) {
      const got = into instanceof Float64Array ? `one of ${into.length}` : shown(into);
      throw new TypeError(`saveState: into must be a Float64Array of the state's ${n} values, got ${got}`);
    }
    return this.#withBuffer('saveState', n, (out) => {
      x.mw_state_save(ptr, out);
      const state = this.#mod.f64(out, n);
      return into ? (into.set(state), into) : state.slice();
    });
  }

  /**
   * Back to a state saveState() gave on this Sim, or on another of the same model and engine.  RangeError,
   * the Sim unchanged, when it has another length, a value is not finite or a quaternion is zero.
   * @param {ArrayLike<number>} state
   */
  restoreState(state) {
    const ptr = this.#handle();
    const n = state?.length;
    if (!Number.isInteger(n)) throw new TypeError(`restoreState: state must be an array of numbers from saveState(), got ${shown(state)}`);
    const size = this.#mod.exports.mw_state_size(ptr);
    if (n !== size) throw new RangeError(`restoreState: a state of '${this.name}' has ${size} values, not ${n}`);
    this.#withBuffer('restoreState', n, (buf) => {
      this.#mod.f64(buf, n).set(state);
      this.#check(this.#mod.exports.mw_state_restore(ptr, buf, n));
    });
  }

  /** Mechanical energy (J) of the current q, qd: kinetic, potential (gravity) and their sum. */
  energy() {
    this.#check(this.#mod.exports.mw_energy(this.#handle()));
    const [kinetic, potential] = this.#view().energy;
    return { kinetic, potential, total: kinetic + potential };
  }

  /**
   * The total force the ground applied in the last step, Float64Array(3) (N,
   * world frame): the weight of a settled vehicle, zeros without a ground.
   */
  groundReaction() {
    const ptr = this.#mod.exports.mw_ground_reaction(this.#handle());
    return Float64Array.from(this.#mod.f64(ptr, 3));
  }

  /**
   * The same force per body, Float64Array(3·nb) (a copy, N, world frame): the ground's force on each body in
   * the last step — a track shoe's four pad corners summed, zero on every other body; zeros without a ground.
   */
  groundForces() {
    const ptr = this.#mod.exports.mw_ground_forces(this.#handle());
    return ptr ? Float64Array.from(this.#mod.f64(ptr, 3 * this.nb)) : new Float64Array(3 * this.nb);
  }
  /**
   * The brake torque (N·m) of band roller or tire wheel `body` at `level` 0 … 1, locked at the joint angle `lock`, at the
   * current state: level · (k · (lock − q) − c · q̇), k and c describe()'s brake gains (mech_data_brake_torque,
   * docs/wasm.md, "Driving a tracked vehicle"). The torque of the step's start, for sim.tau.
   */
  brakeTorque(body, level, lock) {
    const ptr = this.#handle();
    const t = this.#mod.exports.mw_brake_torque(ptr, this.#body('brakeTorque', body), level, lock);
    if (Number.isNaN(t)) throw new RangeError(`brakeTorque: body ${body} is neither a band's roller nor a tire's wheel`);
    return t;
  }


  /**
   * The terrain's height z = h(x, y) on a grid of points, Float64Array(xs.length · ys.length)
   * (a copy), entry j·nx + i at (xs[i], ys[j]): what the ground law reads (the plane, or the grid's
   * bicubic interpolation, flat outside it: core/contact/terrain.c), 0 everywhere without a ground.
   * For drawing the ground as the simulation sees it.
   * @param {ArrayLike<number>} xs @param {ArrayLike<number>} ys at most 1e6 points in all, finite
   */
  terrainHeights(xs, ys) {
    const ptr = this.#handle();
    const nx = xs?.length, ny = ys?.length;
    if (!Number.isInteger(nx) || !Number.isInteger(ny) || nx < 1 || ny < 1 || nx * ny > 1e6) {
      throw new RangeError(`terrainHeights: xs and ys must be non-empty arrays of at most 1000000 points in all, got ${shown(xs)} and ${shown(ys)}`);
    }
    for (const [name, v] of [['xs', xs], ['ys', ys]]) {
      for (let i = 0; i < v.length; i++) {
        if (typeof v[i] !== 'number' || !Number.isFinite(v[i])) throw new RangeError(`terrainHeights: ${name}[${i}] is ${shown(v[i])}, not a finite number`);
      }
    }
    const x = this.#mod.exports;
    const buf = x.malloc(8 * (nx + ny + nx * ny));
    if (!buf) throw new RangeError(`terrainHeights: out of WebAssembly memory for ${nx} × ${ny} points`);
    try {
      this.#mod.f64(buf, nx).set(xs);
      this.#mod.f64(buf + 8 * nx, ny).set(ys);
      x.mw_terrain_heights(ptr, buf, nx, buf + 8 * nx, ny, buf + 8 * (nx + ny));
      return Float64Array.from(this.#mod.f64(buf + 8 * (nx + ny), nx * ny));
    } finally {
      x.free(buf);
    }
  }

  /**
   * The parsed model: name, description, gravity, bodies (parent, joint,
   * axis, tree pos/rot, mass, com, inertia, fext, qidx/vidx, nq/nv), pois and
   * shapes (type, body, size, pos, rot, rgba), fields as in core/model/model.h;
   * tracks (bands: shoes, pad geometry, rollers with their brake gains), the
   * ground (null, a plane or a height grid), contactDt (the step a model
   * with contact takes, 0 without) and dt (the file's step: its xpbd block's
   * dt, what engine 'xpbd' steps it at).
   * @returns {ModelDescription}
   */
  describe() {
    const x = this.#mod.exports;
    const ptr = x.mw_describe(this.#handle());
    if (!ptr) throw new RangeError(this.#mod.lastError().message);
    try {
      return JSON.parse(this.#mod.string(ptr));
    } finally {
      x.free(ptr);
    }
  }

  /** Back to the model's initial q and qd; tau, act, fext and qdd zeroed (gravity is kept). */
  reset() {
    this.#mod.exports.mw_reset(this.#handle());
  }

  /**
   * The model's keyframes (docs/mech-format.md, "Keyframes"): name, q (nq), qd (nv) and ctrl (nu), copies.
   * @returns {{ name: string, q: Float64Array, qd: Float64Array, ctrl: Float64Array }[]}
   */
  keyframes() {
    return this.describe().keyframes.map((/** @type {any} */ k) => ({
      name: k.name, q: Float64Array.from(k.q), qd: Float64Array.from(k.qd), ctrl: Float64Array.from(k.ctrl),
    }));
  }

  /**
   * reset(), then the state and ctrl of a keyframe, by name or index; a RangeError names an unknown one.
   * @param {string | number} key
   */
  resetToKeyframe(key) {
    const names = this.describe().keyframes.map((/** @type {{ name: string }} */ k) => k.name);
    const i = typeof key === 'number' ? key : names.indexOf(key);
    if (!Number.isInteger(i) || i < 0 || i >= names.length) {
      throw new RangeError(`resetToKeyframe: no keyframe ${JSON.stringify(key)}; the model has ${
        names.length ? names.map((n) => `'${n}'`).join(', ') : 'none'}`);
    }
    this.#check(this.#mod.exports.mw_reset_keyframe(this.#handle(), i));
  }

  /**
   * Heap bytes in use, linear-memory size and function-table length (slots; the jit's Sims take some) of this
   * Sim's module (shared by its Sims).
   */
  memoryUsage() {
    this.#handle();
    const x = this.#mod.exports;
    return { heap: x.mw_heap_in_use(), linear: x.memory.buffer.byteLength, table: this.#mod.tableLength() };
  }

  /** Free everything this Sim holds; any later use throws.  Idempotent. */
  dispose() {
    if (this.#scratch.ptr) this.#mod.exports.free(this.#scratch.ptr);
    this.#scratch = { ptr: 0, n: 0 };
    if (this.#ptr) this.#close(this.#ptr);
    this.#ptr = 0;
    this.#views = null;
  }
}
