// engine.js — the page's only door to the simulation: a promise-based client for worker.js.
// Everything the page knows about the WebAssembly API goes through the replies defined there.

class EngineError extends Error {
  constructor({ name, message, line, column }) {
    super(message);
    this.name = name;
    this.line = line;
    this.column = column;
  }
}

/**
 * How long one 'frame' request may take before the worker is stopped, in ms. The worker answers between
 * slices of stepping of about the budget (10 ms, in chunks of steps sized from the measured cost of a step;
 * one step while that is unknown), so only a single step that alone takes seconds (an XPBD scene with many substeps × iterations × rod
 * elements, say) reaches it. A model that slow cannot be played anyway, and a worker stuck in it would
 * block every later request (open, check) for as long as the step runs: minutes, for a big enough one.
 * The time counts from sending the request, so a request queued before it in the worker counts too.
 * The page's URL may set another limit, `?watchdog=<ms>` (50 ms to 60 s): for a slow machine, and for
 * the browser test, which needs a step that outlasts the limit on any machine while staying within the
 * parser's work caps.
 */
export const STEP_LIMIT_MS = urlMilliseconds('watchdog', 50, 60000, 2000);

/**
 * How long a jit compile (jit()) may hold the worker, in ms: 5 s, or `?compile=<ms>` (50 ms to 10 min) in the
 * page's URL. The generator runs inside the worker's WebAssembly and cannot be interrupted, and the frames sent
 * meanwhile wait for it, so past this (or when the user cancels it: cancelCompile) the worker is stopped and a
 * fresh one started, as for a step too long, and the page opens the model again on the runtime engine, from
 * its last frame's state (session.js). The 256 four-bars of a link took 22-25 s to compile.
 */
export const COMPILE_LIMIT_MS = urlMilliseconds('compile', 50, 600000, 5000);

/**
 * How long the worker steps in one slice, between looks at the page's requests, in ms: 10, or `?budget=<ms>`
 * (1 ms to 1 s) in the page's URL. Longer slices answer frames less often (fewer frames per second) and cost
 * a little less overhead per step.
 */
export const FRAME_BUDGET_MS = urlMilliseconds('budget', 1, 1000, 10);

/** The page URL's `name` parameter when it is a number of ms in [min, max], else `fallback`. */
function urlMilliseconds(name, min, max, fallback) {
  const ms = Number(new URLSearchParams(globalThis.location?.search ?? '').get(name) ?? NaN);
  return Number.isFinite(ms) && ms >= min && ms <= max ? ms : fallback;
}

/**
 * Whether `e` says the worker was restarted without the model (a step too long, or a compile stopped): the request
 * was not done, and the page says why once (session.js), not per request.
 */
export const restarted = (e) => e?.name === 'StepTimeout' || e?.name === 'CompileStopped';

/** Requests that do not use the open model: a fresh worker answers them the same. */
const MODEL_FREE = new Set(['models', 'text', 'open', 'check', 'features', 'generate']);

export class Engine {
  #worker = null;
  #pending = new Map();
  #next = 1;
  #compiling = null; // a jit compile in flight (jit()): the watchdog of a frame sent meanwhile starts when it ends
  #stopped = null;   // after a stopped compile, until the next open: why a request for the model is refused

  constructor() {
    this.#start();
  }

  #start() {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }) => {
      const p = this.#pending.get(data.id);
      if (!p) return;
      this.#pending.delete(data.id);
      clearTimeout(p.timer);
      if (data.ok) p.resolve(data.value);
      else p.reject(new EngineError(data.error));
    };
    worker.onerror = (e) => this.#failAll(new EngineError({ name: 'WorkerError', message: e.message || 'the simulation worker failed to start' }));
    this.#worker = worker;
  }

  #failAll(err) {
    for (const p of this.#pending.values()) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    this.#pending.clear();
  }

  // The watchdog: the worker is stuck inside one step (WebAssembly cannot be interrupted), so it is
  // terminated with its model and a fresh worker starts. Requests that need no open model (listing,
  // texts, open, check) are sent again to the fresh worker; the others fail with name 'StepTimeout'. The
  // page opens a model again when asked.
  #stuck() {
    this.#restart(new EngineError({ name: 'StepTimeout', message: `one step ran longer than ${STEP_LIMIT_MS / 1000} s and was stopped` }));
  }

  // The same for a jit compile that ran past COMPILE_LIMIT_MS or was cancelled: the requests that need the
  // model fail with name 'CompileStopped', and the page opens the model again on the runtime engine.
  #stopCompile(why) {
    this.#compiling = null;
    this.#stopped = new EngineError({ name: 'CompileStopped', message: why });
    this.#restart(this.#stopped);
  }

  #restart(err) {
    this.#worker.terminate();
    this.#start();
    for (const [id, p] of this.#pending) {
      clearTimeout(p.timer);
      if (MODEL_FREE.has(p.message.op)) {
        this.#worker.postMessage(p.message);
      } else {
        this.#pending.delete(id);
        p.reject(err);
      }
    }
  }

  #call(op, args = {}, limit = 0, onLimit = () => this.#stuck()) {
    if (op === 'open') this.#stopped = null;
    else if (this.#stopped && !MODEL_FREE.has(op)) return Promise.reject(this.#stopped); // no model in the worker yet
    const id = this.#next++;
    const message = { id, op, ...args };
    return new Promise((resolve, reject) => {
      const entry = { resolve, reject, timer: 0, message };
      this.#pending.set(id, entry);
      this.#worker.postMessage(message);
      if (limit) this.#watch(id, entry, limit, onLimit);
    });
  }

  // Starts the watchdog of request `id`: now, or when a jit compile ahead of it in the worker has ended (a
  // compile holds the worker for up to its own limit, COMPILE_LIMIT_MS, which is no step running long).
  #watch(id, entry, limit, onLimit) {
    const arm = () => {
      if (this.#pending.get(id) === entry) entry.timer = setTimeout(onLimit, limit);
    };
    if (this.#compiling && entry.message.op !== 'jit') this.#compiling.then(arm);
    else arm();
  }

  /** [{name, description, nq, nv, nb}] */
  models() {
    return this.#call('models');
  }

  /** The .mech text a shipped model was generated from. */
  shippedText(name) {
    return this.#call('text', { name });
  }

  /**
   * Opens a shipped model by name (its generated module), or {text, name} (the runtime engine; an XPBD
   * scene's name runs on XPBD), with the mesh `files` its text names (by path; its colliding meshes' hulls);
   * rejects with EngineError {line, column} on bad text.
   */
  open(source, files) {
    return this.#call('open', { source, files });
  }

  /** First parse error of `text` ({message, line, column}), or null. */
  check(text, name) {
    return this.#call('check', { text, name });
  }

  /** { codegen }: whether this build's shim has the code generator (generateCode, and the jit with it). */
  features() {
    return this.#call('features');
  }

  /**
   * Compiles the text of the model opened as `open` (the count in the reply to 'open') with the jit and swaps it
   * in for the runtime Sim, keeping the run (worker.js): { stale, backend, compileMs, time, steps }; stale when
   * that model is no longer the one running. Rejects with the jit's reason
   * when it refuses the model; the runtime engine then keeps running it. Rejects with name 'CompileStopped'
   * when the compile ran past COMPILE_LIMIT_MS or cancelCompile() stopped it: the worker was restarted without
   * the model.
   */
  jit(open) {
    const done = this.#call('jit', { open }, COMPILE_LIMIT_MS,
      () => this.#stopCompile(`the jit's compile ran longer than ${COMPILE_LIMIT_MS / 1000} s and was stopped`));
    const compiling = done.then(() => {}, () => {});
    this.#compiling = compiling;
    compiling.then(() => {
      if (this.#compiling === compiling) this.#compiling = null;
    });
    return done;
  }

  /** Stops the jit compile in flight, if any (see jit()). */
  cancelCompile() {
    if (this.#compiling) this.#stopCompile('the jit\'s compile was cancelled');
  }

  /** `text` as generated code: C source (target 'c', a string) or a module (target 'wasm', a Uint8Array). */
  generate(text, name, target) {
    return this.#call('generate', { text, name, target });
  }

  /**
   * Slider values: tau, act, gravity, brake (one level per drive roller of a tracked model), and throttle and
   * steer (−1 … 1, a vehicle with one drive roller on each side: wasm/drive.mjs).
   */
  setInputs({ tau, act, gravity, brake, throttle, steer, hold }) {
    return this.#call('inputs', { tau, act, gravity, brake, throttle, steer, hold });
  }

  /**
   * The latest state: `play` keeps the worker's run stepping toward wall-clock time × timeScale in slices of
   * `budget` ms (false stops it), `single` steps once. Rejects with name 'StepTimeout' when it takes longer
   * than STEP_LIMIT_MS: the model is then closed (see #stuck).
   */
  frame(args) {
    return this.#call('frame', args, STEP_LIMIT_MS);
  }

  /** Back to the start, or to keyframe `keyframe` (an index of describe().keyframes) with its ctrl. */
  reset(keyframe) {
    return this.#call('reset', { keyframe });
  }

  /**
   * A scene control's button (scene-controls.js): `action` with the scene's slider `values`, its forces
   * reckoned for steps of `dt`; the frame after it (`reset`: the scene started over).
   */
  push(action, values, dt) {
    return this.#call('push', { action, values, dt });
  }

  /** A live slider of the scene (scene-controls.js): `key` set to `value` in the run. */
  sceneValue(key, value) {
    return this.#call('sceneValue', { key, value });
  }

  /** Back to the time line's state at `index` (timeline.js); the frame there. */
  seek(index) {
    return this.#call('seek', { index });
  }

  /** A share link's { time, steps, state }; rejects naming why it does not fit the model shown. */
  restore(saved) {
    return this.#call('restore', saved);
  }

  /** Side by side on (the open model also on XPBD, both from the initial state) or off; the frame then. */
  sideBySide(on) {
    return this.#call('sideBySide', { on });
  }

  /** The page's floor as a collider at `height` (on) or none; { on }: whether the model has it (floor.js). */
  floor(on, height) {
    return this.#call('floor', { on, height });
  }

  /** Frames with the contacts of the last step (contact-draw.js) or without; the frame now. */
  showContacts(on) {
    return this.#call('showContacts', { on });
  }

  /** Pulls { body, point (body frame), target (world) } (grab.js); null lets go. */
  grab(grab) {
    return this.#call('grab', { grab });
  }
}
