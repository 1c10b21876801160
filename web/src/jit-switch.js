// jit-switch.js — a model opened from its text starts at once on the runtime engine; meanwhile the worker compiles
// the same text with the jit and swaps the jit Sim in for it in place, with the run's state (worker.js, `jit`).
// This is the page's half: when to ask, the badge (runtime → jit, or why not in its tooltip), "compiling…" with
// its cancel while the compile holds the worker, and what the last switch did, for the tests.
import { showBackend, showCompiling } from './status.js';

const COMPILING = 'The jit is compiling this model; it takes over in place when ready.';

/**
 * `engine` (engine.js); `codegen` a promise: this build has the code generator (the jit comes with it).
 * `start(info, { current, since, stopped })` after every open: `info` the worker's reply, `current()` false once
 * the page shows another open (the result is then dropped), `since` when the user asked for it
 * (performance.now()), `stopped()` what the page does when the compile was stopped (too long, or cancelled) and
 * the worker restarted without the model: open it again on the runtime engine (session.js).
 * `badge(info)` shows the badge for the open model as the switch left it.
 */
export function createJitSwitch(engine, codegen) {
  let available = null; // what `codegen` resolved to, once it has: the request then goes out before start() returns
  codegen.then((on) => (available = on));
  let note = '';  // the badge's tooltip note for the open model
  let opens = 0;  // models opened so far
  let last = { n: 0, state: 'none' }; // what the switch did for the last open, for the tests
  let compiles = 0; // compiles in flight in the worker (a stale one still holds it)
  document.getElementById('compile-cancel').addEventListener('click', () => engine.cancelCompile());

  async function start(info, { current, since, stopped }) {
    const n = ++opens;
    const openMs = performance.now() - since;
    // The edited model's first frame: the page builds its view before it next yields, and the frame loop's tick,
    // asked for before this, draws it in the next animation frame ahead of this callback.
    let frameMs = null;
    requestAnimationFrame(() => {
      frameMs = performance.now() - since;
      if (last.n === n && last.state === 'jit') last.frameMs = frameMs;
    });
    note = '';
    if (info.backend !== 'runtime' || info.engine !== 'featherstone') {
      last = { n, state: 'none' };
      return;
    }
    // Asked at once when known (the common case), so the worker compiles while the page builds the model's view.
    if (!(available ?? (await codegen))) {
      last = { n, state: 'unavailable', reason: 'this build has no code generator in the page' };
      return;
    }
    if (!current()) return;
    note = COMPILING;
    last = { n, state: 'compiling' };
    badge(info);
    let reply;
    showCompiling(++compiles > 0);
    try {
      reply = await engine.jit(info.open);
    } catch (e) {
      showCompiling(--compiles > 0);
      if (!current()) return;
      if (e.name === 'CompileStopped') { // the page opens the model again, then says so
        note = `The jit did not take this model: ${e.message}; the runtime engine runs it.`;
        badge(info);
        await stopped();
        last = { n, state: 'stopped', reason: e.message };
        return;
      }
      // StepTimeout: the worker was restarted without the model (session.js says why); anything else is the jit's refusal.
      note = e.name === 'StepTimeout' ? '' : `The jit did not take this model, so the runtime engine runs it: ${e.message}`;
      last = { n, state: 'refused', reason: e.message };
      badge(info);
      return;
    }
    showCompiling(--compiles > 0);
    if (reply.stale || !current()) return;
    info.backend = reply.backend;
    note = '';
    const { compileMs, swapped, time, steps } = reply;
    const ms = swapped - (performance.timeOrigin + since);
    last = { n, state: 'jit', ms, openMs, frameMs, compileMs, badgeMs: performance.now() - since, at: { time, steps } };
    badge(info);
  }

  function badge(info) {
    showBackend(info.backend, note);
  }

  return {
    start,
    badge,
    /**
     * Test hooks: the last open's switch — n (opens so far), state 'none' (not on the runtime engine),
     * 'unavailable', 'compiling', 'jit', 'refused' or 'stopped' (too long or cancelled; with its reason); for 'jit' the ms from the request to the
     * jit running in the worker, of which the ms to the runtime engine running (openMs), to the page's first frame of
     * the model (frameMs; null until it is drawn, which may be after the jit took over) and the worker's compile ms, the
     * ms to the badge saying so (the page's main thread may be drawing meanwhile), and the simulated time and step
     * count the jit took over at.
     */
    hooks: { jit: () => structuredClone(last) },
  };
}
