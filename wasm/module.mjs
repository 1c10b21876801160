// module.mjs — one instantiated WebAssembly module of this project and the
// plumbing around it: loading (fetch in browsers, the file system in Node),
// the two imports the modules need, C strings, and views into linear memory.
// Internal to wasm/index.mjs; not part of the public API.

/** Word offsets in a handle's arrays (mw_arrays: mech_data_arrays, include/mech/sim.h). */
export const HEADER = Object.freeze({
  nq: 0, nv: 1, nb: 2, nact: 3, q: 4, qd: 5, tau: 6, act: 7, fext: 8, qdd: 9, poses: 10,
  energy: 11, gravity: 12, length: 13,
});

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The bytes behind `url`: file: URLs are read from disk (Node), anything else
 * is fetched (browsers).
 * @param {URL} url
 * @returns {Promise<Uint8Array>}
 */
export async function load(url) {
  if (url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    try {
      return await readFile(url);
    } catch (e) {
      throw new Error(`cannot read ${url.pathname}: ${e.code ?? e.message} (run \`npm run build\`)`, { cause: e });
    }
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot fetch ${url}: HTTP ${response.status} (run \`npm run build\`)`);
  return new Uint8Array(await response.arrayBuffer());
}

const compiled = new Map();

/** An instantiated module with its memory bookkeeping. */
export class WasmModule {
  /** Bumped on every memory growth: views made before it are detached. */
  generation = 0;
  /**
   * The instance's exports: the C functions (mw_*, malloc, free), its memory and its function table.
   * @type {Record<string, any>}
   */
  exports;

  /**
   * Compile (once per URL per realm) and instantiate the module at `url`.
   * @param {URL} url
   */
  static async instantiate(url) {
    if (!compiled.has(url.href)) compiled.set(url.href, load(url).then((bytes) => WebAssembly.compile(bytes)));
    let module;
    try {
      module = await compiled.get(url.href);
    } catch (e) {
      compiled.delete(url.href);
      throw e;
    }
    const self = new WasmModule();
    // The memory-growth notification, and the clock of the stage times (core/sim/clock.h, cmake/mech_now_ms.js).
    const imports = {
      env: { emscripten_notify_memory_growth: () => { self.generation++; }, mech_now_ms: () => performance.now() },
    };
    const instance = await WebAssembly.instantiate(module, imports);
    self.exports = instance.exports;
    self.exports._initialize();
    return self;
  }

  /** Table slots freed by releaseSlots, reused before the table grows. */
  #freeSlots = [];

  /**
   * Put functions (exports of another module sharing this memory) into this
   * module's function table, where its C code calls them through function
   * pointers: their slots, reusing freed ones before growing the table.
   * @param {Function[]} fns
   * @returns {number[]}
   */
  tableSlots(fns) {
    const table = this.exports.__indirect_function_table;
    return fns.map((fn) => {
      const slot = this.#freeSlots.pop() ?? table.grow(1);
      table.set(slot, fn);
      return slot;
    });
  }

  /** Empty the slots tableSlots gave, for reuse. @param {number[]} slots */
  releaseSlots(slots) {
    const table = this.exports.__indirect_function_table;
    for (const slot of slots) {
      table.set(slot, null);
      this.#freeSlots.push(slot);
    }
  }

  /** The length of the function table (the jit's slots included). */
  tableLength() {
    return this.exports.__indirect_function_table.length;
  }

  /** @param {number} ptr @param {number} n */
  f64(ptr, n) {
    return new Float64Array(this.exports.memory.buffer, ptr, n);
  }

  /** @param {number} ptr a handle (or any int32-aligned address) @param {number} n words */
  i32(ptr, n) {
    return new Int32Array(this.exports.memory.buffer, ptr, n);
  }

  /** A copy of the n bytes at `ptr`. */
  bytes(ptr, n) {
    return new Uint8Array(this.exports.memory.buffer, ptr, n).slice();
  }

  /** The NUL-terminated UTF-8 string at `ptr`. */
  string(ptr) {
    const bytes = new Uint8Array(this.exports.memory.buffer, ptr);
    const end = bytes.indexOf(0);
    return decoder.decode(bytes.subarray(0, end < 0 ? bytes.length : end));
  }

  /**
   * Call fn(ptr, byteLength) with `text` (a string, or UTF-8 bytes passed
   * through untouched) NUL-terminated in module memory; freed afterwards
   * whatever happens.
   * @template T
   * @param {string | Uint8Array} text
   * @param {(ptr: number, length: number) => T} fn
   * @returns {T}
   */
  withString(text, fn) {
    const bytes = typeof text === 'string' ? encoder.encode(text) : text;
    const ptr = this.exports.malloc(bytes.length + 1);
    if (!ptr) throw new RangeError(`out of WebAssembly memory for ${bytes.length} bytes of text`);
    try {
      const heap = new Uint8Array(this.exports.memory.buffer, ptr, bytes.length + 1);
      heap.set(bytes);
      heap[bytes.length] = 0;
      return fn(ptr, bytes.length);
    } finally {
      this.exports.free(ptr);
    }
  }

  /** The module's last error: the message and, for model text, its place. */
  lastError() {
    const x = this.exports;
    return { message: this.string(x.mw_error_message()), line: x.mw_error_line(), column: x.mw_error_col() };
  }
}
