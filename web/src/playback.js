// playback.js — the run of the model shown: play and pause, one step, reset, a scene control's push, the time line's
// seek and side by side turned on or off; and the frame loop that draws the latest state of the simulation, which
// the worker steps on its own while playing, with its frame-rate and real-time meters.
import { FRAME_BUDGET_MS, restarted } from './engine.js';
import { page, askStep, takeStep, setPlaying as playing, setBlown, setFrame } from './page-state.js';
import { banner, clearBanner, describeError } from './status.js';

const PLOT_INTERVAL_MS = 100; // the live plot redraws at 10 Hz: on a software renderer every redraw costs frames

const $ = (id) => document.getElementById(id);

/**
 * `timedOut(name)`: the engine stopped a step of the model shown that ran past its limit (engine.js), which
 * closed the model.
 */
export function createPlayback({ engine, scene, controls, plots, sideBySide, inspector, timeline, contacts, timedOut }) {
  const meter = { draws: 0, drawMs: 0, since: performance.now(), simSince: 0, stepsSince: 0, fps: 0, rtf: 0 };
  let inFlight = false;
  let lastPlot = 0;

  function setPlaying(on) {
    if (!on && page.playing && page.info) stopRun();
    playing(on);
    $('play').textContent = on ? '❚❚ Pause' : '▶ Play';
    if (!on) scene.adapt(null); // a still picture: full quality at once
  }

  function showFrame(f) {
    page.view.update(f.poses, f);
    sideBySide.update(f);
    inspector.update(f);
    timeline.update(f);
    contacts.update(f.contacts);
    if (!page.view.anchored && controls.view.follow) scene.follow(page.view.centre());
    scene.invalidate();
    plots.plot.push(f.time, f);
  }

  function onFrame(f) {
    setFrame(f);
    showFrame(f);
    $('behind').hidden = !f.behind;
    if (f.blowup) {
      setPlaying(false);
      setBlown(true);
      const { step, time, reason } = f.blowup;
      banner(`The simulation blew up at step ${step} (t = ${time.toFixed(4)} s): ${reason}.\nPaused on the last finite state — reset, or try a smaller dt.`);
    }
  }

  function requestFrame() {
    if (!page.info || inFlight || !(page.playing || page.pendingStep)) return;
    const gen = page.generation;
    const { name } = page.info;
    const single = takeStep();
    inFlight = true;
    const { dt, timeScale } = controls.settings;
    engine
      .frame({ play: page.playing, single, dt, timeScale, budget: FRAME_BUDGET_MS })
      .then((f) => gen === page.generation && onFrame(f))
      .catch((e) => {
        if (e.name === 'StepTimeout') return gen === page.generation && timedOut(name);
        if (e.name === 'CompileStopped') return; // the model opens again (jit-switch.js, session.js)
        setPlaying(false);
        banner(`The simulation stopped: ${describeError(e)}`);
      })
      .finally(() => (inFlight = false));
  }

  // Pausing stops the worker's run (it steps on its own while playing); the page then shows where it stopped.
  function stopRun() {
    const gen = page.generation;
    const { dt, timeScale } = controls.settings;
    engine
      .frame({ play: false, single: false, dt, timeScale, budget: FRAME_BUDGET_MS })
      .then((f) => gen === page.generation && onFrame(f))
      .catch(() => {}); // a closed model (StepTimeout) or a stopped compile: requestFrame says why
  }

  // Frame rate counts drawn frames; while paused nothing is drawn unless the view changes. The stages readout,
  // as the Rapier testbed shows it: per frame drawn, the worker's stepping split into the dynamics and the contact
  // (the contact stage and the constraint solve, timed inside the step: worker.js), and the drawing here, in ms;
  // the worker's copy of the state for the page in its tooltip.
  function updateMeters(now, drew, drawMs) {
    if (drew) {
      meter.draws++;
      meter.drawMs += drawMs;
    }
    const span = (now - meter.since) / 1000;
    if (span < 0.5) return;
    const simTime = page.lastFrame?.time ?? 0;
    const steps = page.lastFrame?.steps ?? 0;
    const load = page.playing && page.lastFrame?.load;
    const perFrame = (ms) => (ms < 0.1 ? ms.toFixed(3) : ms.toFixed(2));
    const stepsPerFrame = meter.draws ? Math.max(0, steps - meter.stepsSince) / meter.draws : 0;
    const contact = load ? Math.min(load.contactMs, load.stepMs) * stepsPerFrame : 0;
    const draw = meter.draws ? perFrame(meter.drawMs / meter.draws) : '–';
    // XPBD solves its contacts inside its substeps' iterations, too finely interleaved to time apart.
    const split = page.info?.engine === 'xpbd'
      ? `dynamics+contact ${perFrame(load?.stepMs * stepsPerFrame)}`
      : `dynamics ${perFrame(load?.stepMs * stepsPerFrame - contact)} · contact ${perFrame(contact)}`;
    $('stages').textContent = load && meter.draws ? `${split} · draw ${draw} ms/frame` : `draw ${draw} ms/frame`;
    $('stages').title = `Per frame drawn: the engine's dynamics, its contact (the contact stage and the constraint solve), and the drawing${load ? `; the worker's copy of the state for the page: ${perFrame(load.snapshotMs)} ms` : ''}`;
    meter.fps = meter.draws / span;
    meter.rtf = page.playing ? Math.max(0, simTime - meter.simSince) / span : 0;
    meter.draws = 0;
    meter.drawMs = 0;
    meter.since = now;
    meter.simSince = simTime;
    meter.stepsSince = steps;
    const level = scene.adapt(page.playing ? meter.fps : null);
    $('fps').textContent = page.playing ? `${meter.fps.toFixed(0)} fps` : '– fps';
    $('fps').title = level ? 'rendering at reduced resolution to hold the frame rate' : '';
    $('rtf').textContent = page.playing ? `RTF ${meter.rtf.toFixed(2)}×` : 'RTF –';
    $('rtf').title = load ? `the simulation worker stepped ${(100 * load.busy).toFixed(0)} % of the last second, ` +
      `${(1000 * load.stepMs).toFixed(0)} µs per step; per frame: ${$('stages').textContent}` : '';
    $('time').textContent = `t ${simTime.toFixed(3)} s · step ${page.lastFrame?.steps ?? 0}`;
  }

  function tick(now) {
    requestAnimationFrame(tick);
    requestFrame();
    if (now - lastPlot > PLOT_INTERVAL_MS) {
      plots.plot.redraw();
      lastPlot = now;
    }
    const t0 = performance.now();
    const drew = scene.render();
    updateMeters(now, drew, performance.now() - t0);
  }

  function togglePlay() {
    if (!page.info) return;
    if (!page.playing && page.blown) clearBanner();
    setPlaying(!page.playing);
  }

  function stepOnce() {
    setPlaying(false);
    askStep();
  }

  /** The run from `f`, a frame at its start: the plot starts over from it. */
  function startedOver(f) {
    setBlown(false);
    clearBanner();
    setFrame(f);
    plots.setup(page.info, { sideBySide: sideBySide.on });
    onFrame(f);
  }

  /** Back to the start, or to a keyframe (an index) with its ctrl. */
  async function reset(keyframe) {
    if (!page.info) return;
    const gen = page.generation;
    let f;
    try {
      f = await engine.reset(Number.isInteger(keyframe) ? keyframe : undefined);
    } catch (e) {
      if (!restarted(e)) throw e; // the model was closed meanwhile (requestFrame says why)
      return;
    }
    if (gen === page.generation) startedOver(f);
  }

  /** A scene control's button (scene-controls.js): its push starts at the next step, and the scene plays. */
  async function sceneAction(action) {
    if (!page.info) return;
    const gen = page.generation;
    let f;
    try {
      f = await engine.push(action, controls.sceneValues(), controls.settings.dt);
    } catch (e) {
      if (!restarted(e)) banner(`That control was not applied: ${describeError(e)}`);
      return;
    }
    if (gen !== page.generation) return;
    if (f.reset) startedOver(f);
    setPlaying(true);
  }

  /** The time line (timeline.js) went to its entry `index`. */
  async function seek(index) {
    const gen = page.generation;
    try {
      const f = await engine.seek(index);
      if (gen === page.generation) onFrame(f);
    } catch (e) {
      if (!restarted(e)) banner(`The time line could not go there: ${describeError(e)}`);
    }
  }

  /**
   * Side by side turned on or off (side-by-side.js): the plot starts over; on, both runs start over with the gap
   * plotted. False when the worker refused.
   */
  async function compare(on) {
    const gen = page.generation;
    try {
      const f = await engine.sideBySide(on);
      if (gen !== page.generation) return false;
      if (on) {
        setBlown(false);
        clearBanner();
      }
      setFrame(f);
      plots.setup(page.info, { sideBySide: sideBySide.on, add: on ? ['gap (m)'] : [] });
      onFrame(f);
      return true;
    } catch (e) {
      if (!restarted(e)) banner(`Side by side: ${describeError(e)}`);
      return false;
    }
  }

  return {
    setPlaying, showFrame, onFrame, togglePlay, stepOnce, reset, sceneAction, seek, compare, startedOver,
    /** The frame loop, from the next animation frame on. */
    start: () => requestAnimationFrame(tick),
    /** The meters' last reading: drawn frames per second and the real-time factor. */
    meters: () => ({ fps: meter.fps, rtf: meter.rtf }),
    /** A frame request is out: a frame may still arrive. */
    stepping: () => inFlight,
  };
}
