// index.mjs — the simulator's JavaScript API, identical in Node >= 20 and in
// browsers, no bundler needed (docs/wasm.md).  The .wasm modules and the
// model manifest are read from ./dist/ next to this file, where
// scripts/build-wasm.sh puts them.
//
//   import { openModel } from './wasm/index.mjs';
//   const sim = await openModel('threelink');
//   sim.step(0.001, 1000);
//   console.log(sim.q);
//   sim.dispose();

import { HEADER, WasmModule, load } from './module.mjs';

const DIST = new URL('./dist/', import.meta.url);
const ENGINES = ['featherstone', 'xpbd'];
const BACKENDS = ['generated', 'runtime'];

/** Bad model text: `message` is `name:line:col: what was expected`. */
export class MechError extends Error {
  /** @param {string} message @param {number} line @param {number} column */
  constructor(message, line, column) {
    super(message);
    this.name = 'MechError';
    /** 1-based line of the error, 0 when it has no place. */
    this.line = line;
    /** 1-based column of the error, 0 when it has no place. */
    this.column = column;
  }
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

/** @returns {Promise<{ name: string, description: string, nq: number, nv: number, nb: number, nact: number,
 *   backend: 'generated' | 'runtime', group: 'trees' | 'loops' }[]>} */
function manifest() {
  return cached(loads, 'models.json', async () =>
    JSON.parse(new TextDecoder().decode(await load(new URL('models.json', DIST)))));
}

/** One instance per module file, shared by every Sim opened from it. */
function instance(file) {
  return cached(loads, file, () => WasmModule.instantiate(new URL(file, DIST)));
}

/**
 * The shipped models: name, description, nq, nv, nb, nact, backend and group.
 * backend 'generated': the model has its own generated module (group 'trees');
 * 'runtime': it ships as text only and runs on the runtime engine (group
 * 'loops': closed loops and force elements, which the code generator does not do).
 */
export async function listModels() {
  return (await manifest()).map((m) => ({ ...m }));
}

/** The .mech text of a shipped model (what its generated module, if it has one, was made from). */
export async function loadModelText(name) {
  await shippedModel(name);
  return new TextDecoder().decode(await load(new URL(`models/${name}.mech`, DIST)));
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
 * Open a model.
 * @param {string | { text: string | Uint8Array, name?: string }} source a
 *   shipped model's name, or .mech text (a string or its UTF-8 bytes) with a
 *   name for error messages and `sim.name`
 * @param {{ backend?: 'generated' | 'runtime', engine?: 'featherstone' | 'xpbd' }} [options]
 *   backend default: the generated module for a shipped model that has one, the runtime
 *   engine for text.  engine 'xpbd' runs the same file as XPBD bodies and
 *   joints in the runtime module (docs/wasm.md, "XPBD engine").
 * @returns {Promise<Sim>}
 */
export async function openModel(source, options = {}) {
  const backend = options?.backend;
  const engine = options?.engine ?? 'featherstone';
  if (backend !== undefined && !BACKENDS.includes(backend)) {
    throw new RangeError(`unknown backend '${backend}'; use 'generated' or 'runtime'`);
  }
  if (!ENGINES.includes(engine)) {
    throw new RangeError(`unknown engine '${engine}'; use 'featherstone' or 'xpbd'`);
  }
  if (engine === 'xpbd' && backend === 'generated') {
    throw new RangeError("openModel: engine 'xpbd' runs in the runtime module; backend 'generated' is Featherstone only");
  }
  const runtime = backend === 'runtime' || engine === 'xpbd';
  if (typeof source === 'string') {
    const shipped = await shippedModel(source);
    if (shipped.backend === 'runtime' && backend === 'generated') {
      throw new RangeError(`openModel: '${source}' has no generated module (closed loops or force elements); it runs on 'runtime'`);
    }
    if (runtime || shipped.backend === 'runtime') return openText(await loadModelText(source), source, engine);
    const mod = await instance(`${source}.wasm`);
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
  return openText(text, name, engine);
}

async function openText(text, name, engine) {
  const mod = await instance('runtime.wasm');
  const open = engine === 'xpbd' ? mod.exports.mw_open_text_xpbd : mod.exports.mw_open_text;
  const ptr = mod.withString(name, (namePtr) =>
    mod.withString(text, (textPtr, length) => open(textPtr, length, namePtr)));
  return new Sim(mod, opened(mod, ptr), 'runtime', engine);
}

/** `ptr`, or the module's error thrown as MechError (model text) or Error. */
function opened(mod, ptr) {
  if (ptr) return ptr;
  const { message, line, column } = mod.lastError();
  if (mod.exports.mw_error_is_parse()) throw new MechError(message, line, column);
  throw new Error(message);
}

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
  #views = null;
  #generation = -1;

  /**
   * @param {WasmModule} mod @param {number} ptr @param {'generated' | 'runtime'} backend
   * @param {'featherstone' | 'xpbd'} [engine]
   */
  constructor(mod, ptr, backend, engine = 'featherstone') {
    this.#mod = mod;
    this.#ptr = ptr;
    const h = mod.i32(ptr, 4);
    /** @type {'generated' | 'runtime'} */
    this.backend = backend;
    /** @type {'featherstone' | 'xpbd'} what step() and poses() run */
    this.engine = engine;
    this.nq = h[HEADER.nq];
    this.nv = h[HEADER.nv];
    this.nb = h[HEADER.nb];
    this.nact = h[HEADER.nact];
    this.name = mod.string(mod.exports.mw_name(ptr));
    this.description = mod.string(mod.exports.mw_description(ptr));
    this.bodyNames = Object.freeze(Array.from({ length: this.nb }, (_, i) =>
      mod.string(mod.exports.mw_body_name(ptr, i))));
    Object.freeze(this);
  }

  #handle() {
    if (!this.#ptr) throw new Error(`Sim '${this.name}' has been disposed`);
    return this.#ptr;
  }

  #view() {
    const ptr = this.#handle();
    if (this.#generation !== this.#mod.generation) {
      const h = this.#mod.i32(ptr, HEADER.length);
      const f = (k, n) => (h[HEADER[k]] ? this.#mod.f64(h[HEADER[k]], n) : null);
      this.#views = {
        q: f('q', this.nq), qd: f('qd', this.nv), tau: f('tau', this.nv), act: f('act', this.nact),
        fext: f('fext', 6 * this.nb), qdd: f('qdd', this.nv), poses: f('poses', 7 * this.nb),
        energy: f('energy', 2), gravity: f('gravity', 3),
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
  /** Actuator inputs (nact). */
  get act() { return this.#view().act; }
  /** External forces, 6 per body in base coordinates [moment about the base origin; force]. */
  get fext() { return this.#view().fext; }
  /** Joint accelerations (nv), written by forward() and step(). */
  get qdd() { return this.#view().qdd; }
  /**
   * Gravity (m/s², base frame), writable, on the runtime engine; null on a
   * generated module, whose code has the model's gravity built in.
   */
  get gravity() { return this.#view().gravity; }

  #check(status) {
    if (status !== 0) throw new RangeError(this.#mod.lastError().message);
  }

  /** qdd ← forward dynamics at (q, qd, tau, fext, act); returns qdd. */
  forward() {
    this.#check(this.#mod.exports.mw_forward(this.#handle()));
    return this.qdd;
  }

  /**
   * Advance n steps of dt seconds in one call: Störmer–Verlet with one dynamics
   * call per step, or on engine 'xpbd' one XPBD step (the file's substeps).
   * @param {number} dt @param {number} [n=1]
   */
  step(dt, n = 1) {
    if (typeof dt !== 'number') throw new TypeError(`step: dt must be a number, got ${typeof dt}`);
    if (!Number.isInteger(n) || n < 0 || n > 0x7fffffff) {
      throw new RangeError(`step: n must be a non-negative integer below 2^31, got ${n}`);
    }
    this.#check(this.#mod.exports.mw_step(this.#handle(), dt, n));
  }

  /** Per body world x y z, qw qx qy qz (7·nb), a live view overwritten by the next call. */
  poses() {
    this.#mod.exports.mw_poses(this.#handle());
    return this.#view().poses;
  }

  /**
   * XPBD residuals of the last substep (eqs. 51, 52 of Tobin & Rucker):
   * primal |M Δx̃ − ∇Cᵀλ| and constraint |C + α̃λ|; zeros before the first step.
   * Only on engine 'xpbd'.
   * @returns {{ primal: number, constraint: number }}
   */
  residuals() {
    const ptr = this.#mod.exports.mw_xpbd_residuals?.(this.#handle());
    if (!ptr) throw new Error(`residuals: Sim '${this.name}' runs engine '${this.engine}', not 'xpbd'`);
    const [primal, constraint] = this.#mod.f64(ptr, 2);
    return { primal, constraint };
  }

  /** Mechanical energy (J) of the current q, qd: kinetic, potential (gravity) and their sum. */
  energy() {
    this.#check(this.#mod.exports.mw_energy(this.#handle()));
    const [kinetic, potential] = this.#view().energy;
    return { kinetic, potential, total: kinetic + potential };
  }

  /**
   * The parsed model: name, description, gravity, bodies (parent, joint,
   * axis, tree pos/rot, mass, com, inertia, fext, qidx/vidx, nq/nv), pois and
   * shapes (type, body, size, pos, rot, rgba), fields as in core/model/model.h.
   */
  describe() {
    const x = this.#mod.exports;
    const ptr = x.mw_describe(this.#handle());
    if (!ptr) throw new Error(this.#mod.lastError().message);
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

  /** Heap bytes in use and linear-memory size of this Sim's module (shared by its Sims). */
  memoryUsage() {
    this.#handle();
    return { heap: this.#mod.exports.mw_heap_in_use(), linear: this.#mod.exports.memory.buffer.byteLength };
  }

  /** Free everything this Sim holds; any later use throws.  Idempotent. */
  dispose() {
    if (this.#ptr) this.#mod.exports.mw_close(this.#ptr);
    this.#ptr = 0;
    this.#views = null;
  }
}
