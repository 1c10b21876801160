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

export class Engine {
  #worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  #pending = new Map();
  #next = 1;

  constructor() {
    this.#worker.onmessage = ({ data }) => {
      const p = this.#pending.get(data.id);
      if (!p) return;
      this.#pending.delete(data.id);
      if (data.ok) p.resolve(data.value);
      else p.reject(new EngineError(data.error));
    };
    this.#worker.onerror = (e) => {
      const err = new EngineError({ name: 'WorkerError', message: e.message || 'the simulation worker failed to start' });
      for (const p of this.#pending.values()) p.reject(err);
      this.#pending.clear();
    };
  }

  #call(op, args = {}) {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ id, op, ...args });
    });
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
   * Opens a shipped model by name, or {text, name}; rejects with EngineError {line, column} on bad text.
   * Options: backend ('generated' | 'runtime'), keepState (continue from the current state).
   */
  open(source, { backend, keepState = false } = {}) {
    return this.#call('open', { source, backend, keepState });
  }

  /** First parse error of `text` ({message, line, column}), or null. */
  check(text, name) {
    return this.#call('check', { text, name });
  }

  setInputs({ tau, act, gravity }) {
    return this.#call('inputs', { tau, act, gravity });
  }

  /** Advances by `wall` seconds of real time scaled by timeScale, within `budget` ms of work. */
  frame(args) {
    return this.#call('frame', args);
  }

  reset() {
    return this.#call('reset');
  }
}
