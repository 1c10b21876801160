// timeline.js — the time line: the worker keeps the states of the last frames (StateRing, Sim.saveState()), the
// page shows them as a scrubber under the view with step back / forward buttons (createTimeline). Going back
// restores a saved state bit for bit (Sim.restoreState()); playing from there drops the states after it.

export const SPAN = 20;             // s of simulated time kept at least
const MAX_BYTES = 128 * 2 ** 20;    // unless the states would take more memory than this

/** Saved states, oldest first: { time, steps, state, ghost } per displayed frame, and the one shown. */
const bytes = (entry) => entry.state.byteLength + (entry.ghost?.byteLength ?? 0); // ghost: side by side's XPBD copy

export class StateRing {
  #entries = [];
  #bytes = 0;
  /** Index of the state shown: the last one, unless the time line was moved back. */
  index = -1;

  /** Keeps `entry` as the state shown, after dropping the states ahead of the one shown before. */
  push(entry) {
    while (this.#entries.length > this.index + 1) this.#bytes -= bytes(this.#entries.pop());
    this.#entries.push(entry);
    this.#bytes += bytes(entry);
    const newest = entry.time;
    while (this.#entries.length > 1 && (newest - this.#entries[1].time >= SPAN || this.#bytes > MAX_BYTES)) {
      this.#bytes -= bytes(this.#entries.shift());
    }
    this.index = this.#entries.length - 1;
  }

  /** The entry at `index` (clamped), which becomes the one shown. */
  seek(index) {
    this.index = Math.min(Math.max(Math.trunc(index), 0), this.#entries.length - 1);
    return this.#entries[this.index];
  }

  /** What the page shows: the index shown, how many states, the first and last time. */
  summary() {
    const e = this.#entries;
    return { index: this.index, count: e.length, first: e[0]?.time ?? 0, last: e.at(-1)?.time ?? 0 };
  }
}

/**
 * The scrubber under the view: a slider over the kept states and step back / forward buttons. `seek(index)`
 * shows the state at `index` (a promise); `pause()` stops playback; `stepForward()` steps the simulation on
 * when the last state is shown.
 */
export function createTimeline(container, { seek, pause, stepForward }) {
  const bar = document.createElement('div');
  bar.className = 'timeline';
  const back = button('◀', 'Back one frame on the time line', 'timeline-back');
  const forward = button('▶', 'Forward one frame on the time line (a step at its end)', 'timeline-forward');
  const slider = document.createElement('input');
  Object.assign(slider, { type: 'range', min: '0', max: '0', step: '1', value: '0', id: 'timeline', title: 'The last 20 s: drag to go back' });
  const label = document.createElement('span');
  label.className = 'readout timeline-label';
  bar.append(back, slider, forward, label);
  container.append(bar);

  let summary = { index: 0, count: 1, first: 0, last: 0 };
  let busy = false;      // a seek is in flight
  let wanted = null;     // the index asked for meanwhile

  async function go(index) {
    pause();
    if (busy) {
      wanted = index;
      return;
    }
    busy = true;
    try {
      await seek(index);
    } finally {
      busy = false;
    }
    if (wanted !== null) {
      const next = wanted;
      wanted = null;
      await go(next);
    }
  }

  slider.addEventListener('input', () => go(Number(slider.value)));
  back.addEventListener('click', () => summary.index > 0 && go(summary.index - 1));
  // Forward moves along the kept frames while one is ahead of the one shown; at the last it steps the run.
  const stepOn = () => (summary.index < summary.count - 1 ? go(summary.index + 1) : stepForward());
  forward.addEventListener('click', stepOn);

  return {
    /** Follows the worker's time line as each frame reports it. */
    update(frame) {
      if (!frame.timeline) return;
      summary = frame.timeline;
      slider.max = String(summary.count - 1);
      if (!busy) slider.value = String(summary.index);
      back.disabled = summary.index === 0;
      label.textContent = `${summary.first.toFixed(2)} – ${summary.last.toFixed(2)} s`;
    },
    /** One kept frame forward, or a step at the end, as ▶ does (the . key). */
    stepForward: stepOn,
    /** One kept frame back, as ◀ does (the , key). */
    stepBack() {
      if (summary.index > 0) go(summary.index - 1);
    },
    /** Test hooks: the state shown and the span kept. */
    hooks: { timeline: () => ({ ...summary }) },
  };
}

function button(text, title, id) {
  const b = document.createElement('button');
  Object.assign(b, { type: 'button', className: 'btn btn-small', textContent: text, title, id });
  return b;
}
