// main.js — wires the page: gallery, scene, editor, settings, plots, share links, and the frame loop that
// draws the latest state of the simulation, which the worker steps on its own while playing.
import './style.css';
import { Engine, FRAME_BUDGET_MS, STEP_LIMIT_MS } from './engine.js';
import { createScene } from './scene.js';
import { createModelView } from './model-view.js';
import { attachRods, createRodControls } from './rod-view.js';
import { attachTracks, trackBodies } from './track-view.js';
import { createEditor } from './editor.js';
import { createControls } from './controls.js';
import { createPlot, createSignalPicker, defaultSignals, signalsFor } from './plots.js';
import { installKeys } from './keys.js';
import { toCsv } from './csv.js';
import { createDownloads, download } from './download.js';
import TEMPLATE from './template.mech?raw';
import { createGallery } from './gallery.js';
import { encodeShare, decodeShare, MAX_HASH, MAX_TEXT } from './share.js';
import { loadEdit, saveEdit, dropEdit } from './storage.js';
import { banner, clearBanner, toast, describeError, parseStatus } from './status.js';
import { createInspector } from './inspect.js';
import { createTimeline } from './timeline.js';
import { createSideBySide } from './side-by-side.js';
import { createJitSwitch } from './jit-switch.js';

const PLOT_INTERVAL_MS = 100; // the live plot redraws at 10 Hz: on a software renderer every redraw costs frames
const DEFAULT_MODEL = 'threelink';
const NEW_MODEL = 'untitled'; // what "New model" names the template

const $ = (id) => document.getElementById(id);

const engine = new Engine();
const scene = createScene($('viewport'));
const plot = createPlot($('plot'));
const inspector = createInspector(scene, engine);
const codegen = engine.features().then((f) => f.codegen, () => false); // generateCode and the jit
const jitSwitch = createJitSwitch(engine, codegen);
const timeline = createTimeline($('viewport'), {
  async seek(index) {
    const gen = state.generation;
    try {
      const f = await engine.seek(index);
      if (gen === state.generation) onFrame(f);
    } catch (e) {
      if (e.name !== 'StepTimeout') banner(`The time line could not go there: ${describeError(e)}`);
    }
  },
  pause: () => setPlaying(false),
  stepForward: () => (state.pendingStep = true),
});
const picker = createSignalPicker($('plotted'), $('signal'), (signals) => {
  plot.reset(signals);
  if (state.lastFrame) plot.push(state.lastFrame.time, state.lastFrame);
});

let models = [];     // listModels()
let gallery = null;  // gallery.js object, once the models are known

const state = {
  model: null,        // name of the model shown (shipped name, or the name a link gave)
  shipped: null,      // its shipped text, or null when it has none
  info: null,         // the worker's reply to 'open'
  view: null,         // model-view.js object
  framed: null,       // the model the camera was last framed for
  generation: 0,      // bumps on every open, so late frames of a previous model are dropped
  playing: false,
  pendingStep: false,
  blown: false,
  signals: [],
  lastFrame: null,
  ready: false,       // start() has finished: the first model (or its error) and any link message are shown
};

// ——— MJCF and URDF (docs/import.md) ———

// MJCF or URDF pasted into the editor: checked by the importer as it is typed, imported into .mech text on reload.
const XML_MODEL = /^\s*(<\?xml[\s\S]*?\?>\s*)?(<!--[\s\S]*?-->\s*)*<(mujoco|robot)[\s>/]/;
let importer = null;

/** The importer (wasm/import/ with its XML parser, a chunk of its own), loaded the first time XML is seen. */
function loadImporter() {
  importer ??= import('../../wasm/import/index.mjs');
  return importer;
}

/** An ImportError as the editor shows errors: the place apart from the message. */
function importError(e) {
  const line = Number.isInteger(e?.line) && e.line > 0 ? e.line : 1;
  const column = Number.isInteger(e?.column) && e.column > 0 ? e.column : 1;
  const message = String(e?.message ?? e).replace(/^[^\n]*?:\d+:\d+: /, '');
  return { name: 'ImportError', message, line, column };
}

/** MJCF or URDF text imported into { text, warnings } (.mech text); throws ImportError. `file` names it in messages. */
async function importXml(text, file) {
  return (await loadImporter()).importModel(text, { name: file });
}

/** The toast after an import: how many warnings, which head the .mech text. */
function announceImport({ warnings }) {
  const n = warnings.length;
  toast(`Imported ${n ? `with ${n} warning${n === 1 ? '' : 's'}, listed at the top of the text` : 'with no warnings'}`);
}

/** `text`, or when it is MJCF or URDF its import, which then replaces it in the editor. */
async function imported(text) {
  if (!XML_MODEL.test(text)) return text;
  const out = await importXml(text, state.model ?? 'model');
  editor.setText(out.text);
  announceImport(out);
  return out.text;
}

// ——— editor ———

const editor = createEditor($('editor'), {
  async check(text) {
    if (XML_MODEL.test(text)) {
      let err = null;
      try {
        (await loadImporter()).importModel(text, { name: state.model ?? 'model' });
      } catch (e) {
        err = importError(e);
      }
      parseStatus(err);
      if (!err) $('parse-status').textContent = '✓ imports as .mech: reload (Ctrl+Enter) to convert it';
      return err;
    }
    const err = await engine.check(text, state.model ?? 'model');
    parseStatus(err);
    return err;
  },
  onChange(text) {
    if (!state.model) return;
    saveEdit(state.model, text, state.shipped);
    showEdited();
    forgetLink();
  },
  onReload: () => reload(),
});

function showEdited() {
  const edited = state.shipped !== null && editor.text !== state.shipped;
  $('edited').hidden = !edited;
  $('revert').disabled = !edited;
  gallery?.markEdited(state.model, edited);
}

// The Download menu: the editor's text as .mech, and as generated C and WebAssembly (disabled for XPBD scenes).
const downloads = createDownloads($('revert'), {
  current: () => state.info && { name: state.model, text: editor.text, engine: state.info.engine },
  generate: (text, name, target) => engine.generate(text, name, target),
  describe: describeError,
  report: banner,
});
codegen.then((on) => downloads.setAvailable(on));

// ——— settings ———

const controls = createControls($('controls'), {
  onView: applyView,
  onQuality: (mode) => scene.setQuality(mode),
  async onInputs() {
    try {
      await engine.setInputs(controls.inputs());
    } catch (e) {
      // StepTimeout: the model was closed meanwhile (requestFrame says why); anything else is a refused value.
      if (e.name !== 'StepTimeout') banner(`That value was not applied: ${describeError(e)}`);
    }
  },
  onAction: sceneAction,
  onClamped: toast,
  async onSceneValue(key, value) {
    try {
      await engine.sceneValue(key, value);
    } catch (e) {
      if (e.name !== 'StepTimeout') banner(`That value was not applied: ${describeError(e)}`);
    }
  },
});

scene.setQuality(controls.view.quality);

// Side by side: turning it on or off starts the plot over; on, both runs start over with the gap plotted.
const sideBySide = createSideBySide(controls.gui, scene, async (on) => {
  const gen = state.generation;
  try {
    const f = await engine.sideBySide(on);
    if (gen !== state.generation) return false;
    if (on) {
      state.blown = false;
      clearBanner();
    }
    state.lastFrame = f;
    setupSignals(state.info, on ? ['gap (m)'] : []);
    onFrame(f);
    return true;
  } catch (e) {
    if (e.name !== 'StepTimeout') banner(`Side by side: ${describeError(e)}`);
    return false;
  }
});

const sameVector = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The gravity sliders' value when the user moved it away from the model's own, else null. */
function customGravity() {
  const g = controls.inputs().gravity;
  return state.info && !sameVector(g, state.info.model.gravity) ? g : null;
}

function applyView(v = controls.view) {
  state.view?.setAxesVisible(v.jointAxes);
  state.view?.setPoisVisible(v.pois);
  state.view?.setForcesVisible?.(v.contactForces);
  scene.invalidate();
  scene.setWorldFrame(v.worldFrame);
  scene.setShadows(v.shadows);
  if (!v.follow) scene.unfollow(); // followed again from where the model is when switched back on
}

// Rod sliders (E, damping, elements, order): they rewrite the rod block and rebuild the model.
const rodControls = createRodControls($('controls'), {
  text: () => editor.text,
  async onRebuild(text) {
    editor.setText(text);
    await reload();
  },
});

// ——— opening models ———

async function shippedText(name) {
  try {
    return await engine.shippedText(name);
  } catch {
    return null; // not a shipped model (a shared link's own text)
  }
}

function setPlaying(on) {
  if (!on && state.playing && state.info) stopRun();
  state.playing = on;
  $('play').textContent = on ? '❚❚ Pause' : '▶ Play';
  if (!on) scene.adapt(null); // a still picture: full quality at once
}

function clearModel() {
  state.info = null;
  state.view = null;
  state.generation++;
  setPlaying(false);
  scene.setModel(null);
  inspector.setModel(null, null);
  sideBySide.setModel(null);
  $('backend').textContent = '';
  $('behind').hidden = true;
  downloads.update();
}

/**
 * Opens `text`, or the shipped module when the text is the shipped one or null. Keeps the camera when
 * `keepCamera`, applies `inputs` (tau/act/gravity) where they fit. Returns false on a parse error, which
 * is then shown in the editor. A text that runs on the runtime engine then switches to the jit when that is
 * ready (jit-switch.js); `since` is when the user asked (performance.now()), for the time that took.
 */
async function openText(text, { keepCamera = false, camera = null, inputs = {}, since = performance.now() } = {}) {
  const name = state.model;
  const edited = text !== null && text !== state.shipped;
  let info;
  try {
    info = await engine.open(edited ? { text, name } : name);
  } catch (e) {
    if (state.info?.name !== name) clearModel();
    parseStatus(e);
    editor.revealError(e);
    banner(`${name} did not load — ${describeError(e)}\nFix it in the editor and press Ctrl/⌘+Enter.`);
    return false;
  }
  if (name !== state.model) return false; // another model was picked meanwhile
  state.generation++;
  state.info = info;
  state.lastFrame = info; // with info, so that status() never pairs the new model with an old frame
  state.blown = false;
  const gen = state.generation;
  jitSwitch.start(info, { current: () => gen === state.generation, since });
  state.view = attachTracks(attachRods(createModelView(info, trackBodies(info.model)), info), info);
  state.view.update(info.poses, info);
  const moved = scene.setModel(state.view); // true: another extent, which a kept camera may not show
  inspector.setModel(state.view, info);
  if (state.framed !== name) controls.viewDefaults(info.model);
  applyView();
  if (camera) scene.setCamera(camera);
  else if (!keepCamera || state.framed !== name || moved) scene.frameModel();
  state.framed = name;
  controls.buildModel(info, inputs);
  sideBySide.setModel(info);
  rodControls.build(info);
  await engine.setInputs(controls.inputs());
  setupSignals(info);
  showFrame(info);

  $('model-name').textContent = info.name;
  jitSwitch.badge(info);
  downloads.update();
  clearBanner();
  return true;
}

/** Slider values to carry into a reopened model (gravity only when moved: an input of every engine). */
function carriedInputs() {
  return { inputs: { ...controls.inputs(), gravity: customGravity() ?? undefined } };
}

async function pickModel(name, { text, camera, inputs } = {}) {
  state.model = name;
  gallery.select(name);
  clearModel();
  $('model-name').textContent = name;
  $('file-name').textContent = `${name}.mech`;
  state.shipped = await shippedText(name);
  if (state.model !== name) return;
  const source = text ?? loadEdit(name) ?? state.shipped; // null: no text to show, run the module by name
  editor.setText(source ?? '');
  showEdited();
  return openText(source, { camera, inputs });
}

async function reload() {
  if (!state.model) return;
  const since = performance.now();
  let text;
  try {
    text = await imported(editor.text);
  } catch (e) {
    const err = importError(e);
    parseStatus(err);
    editor.revealError(err);
    return;
  }
  saveEdit(state.model, text, state.shipped);
  showEdited();
  await openText(text, { keepCamera: true, since, ...carriedInputs() });
}

async function revert() {
  if (state.shipped === null) return;
  dropEdit(state.model);
  editor.setText(state.shipped);
  showEdited();
  forgetLink();
  await openText(state.shipped, { keepCamera: true, ...carriedInputs() });
}

// ——— plots ———

// The plotted signals are kept by label across a reload or another model that has them; `add` plots more.
function setupSignals(info, add = []) {
  state.signals = signalsFor(info, { sideBySide: sideBySide.on });
  picker.setSignals(state.signals, [...picker.plotted.map((s) => s.label), ...add], defaultSignals(info, state.signals));
}

$('csv').addEventListener('click', () => {
  const { header, data } = plot.columns();
  download(`${state.model ?? 'plot'}.csv`, toCsv(header, data), 'text/csv');
});

// ——— frame loop ———

const meter = { draws: 0, since: performance.now(), simSince: 0, fps: 0, rtf: 0 };
let inFlight = false;
let lastPlot = 0;

function showFrame(f) {
  state.view.update(f.poses, f);
  sideBySide.update(f);
  inspector.update(f);
  timeline.update(f);
  if (!state.view.anchored && controls.view.follow) scene.follow(state.view.root());
  scene.invalidate();
  plot.push(f.time, f);
}

function onFrame(f) {
  state.lastFrame = f;
  showFrame(f);
  $('behind').hidden = !f.behind;
  if (f.blowup) {
    setPlaying(false);
    state.blown = true;
    const { step, time, reason } = f.blowup;
    banner(`The simulation blew up at step ${step} (t = ${time.toFixed(4)} s): ${reason}.\nPaused on the last finite state — reset, or try a smaller dt.`);
  }
}

function requestFrame() {
  if (!state.info || inFlight || !(state.playing || state.pendingStep)) return;
  const gen = state.generation;
  const { name } = state.info;
  const single = state.pendingStep;
  state.pendingStep = false;
  inFlight = true;
  const { dt, timeScale } = controls.settings;
  engine
    .frame({ play: state.playing, single, dt, timeScale, budget: FRAME_BUDGET_MS })
    .then((f) => gen === state.generation && onFrame(f))
    .catch((e) => {
      if (e.name === 'StepTimeout') return gen === state.generation && stepTimedOut(name);
      setPlaying(false);
      banner(`The simulation stopped: ${describeError(e)}`);
    })
    .finally(() => (inFlight = false));
}

// Pausing stops the worker's run (it steps on its own while playing); the page then shows where it stopped.
function stopRun() {
  const gen = state.generation;
  const { dt, timeScale } = controls.settings;
  engine
    .frame({ play: false, single: false, dt, timeScale, budget: FRAME_BUDGET_MS })
    .then((f) => gen === state.generation && onFrame(f))
    .catch(() => {}); // a closed model (StepTimeout): requestFrame says why
}

// The engine stopped a step of the model shown that ran past STEP_LIMIT_MS, and restarted its worker
// without it: the model is closed, its text stays in the editor, and a reload opens it again.
function stepTimedOut(name) {
  clearModel();
  banner(`${name}: one simulation step ran longer than ${STEP_LIMIT_MS / 1000} s and was stopped.\n` +
    'Make a step cheaper — fewer substeps or iterations in the xpbd block, fewer rod elements or bodies — ' +
    'then press Ctrl/⌘+Enter to reload, or pick another model.');
}

// Frame rate counts drawn frames; while paused nothing is drawn unless the view changes.
function updateMeters(now, drew) {
  if (drew) meter.draws++;
  const span = (now - meter.since) / 1000;
  if (span < 0.5) return;
  const simTime = state.lastFrame?.time ?? 0;
  meter.fps = meter.draws / span;
  meter.rtf = state.playing ? Math.max(0, simTime - meter.simSince) / span : 0;
  meter.draws = 0;
  meter.since = now;
  meter.simSince = simTime;
  const level = scene.adapt(state.playing ? meter.fps : null);
  $('fps').textContent = state.playing ? `${meter.fps.toFixed(0)} fps` : '– fps';
  $('fps').title = level ? 'rendering at reduced resolution to hold the frame rate' : '';
  $('rtf').textContent = state.playing ? `RTF ${meter.rtf.toFixed(2)}×` : 'RTF –';
  const load = state.playing && state.lastFrame?.load;
  $('rtf').title = load ? `the simulation worker stepped ${(100 * load.busy).toFixed(0)} % of the last second, ` +
    `${(1000 * load.stepMs).toFixed(0)} µs per step; a frame's copy of the state took ${load.snapshotMs.toFixed(2)} ms` : '';
  $('time').textContent = `t ${simTime.toFixed(3)} s · step ${state.lastFrame?.steps ?? 0}`;
}

function tick(now) {
  requestAnimationFrame(tick);
  requestFrame();
  if (now - lastPlot > PLOT_INTERVAL_MS) {
    plot.redraw();
    lastPlot = now;
  }
  updateMeters(now, scene.render());
}

// ——— buttons and keys ———

function togglePlay() {
  if (!state.info) return;
  if (!state.playing && state.blown) clearBanner();
  setPlaying(!state.playing);
}

function stepOnce() {
  setPlaying(false);
  state.pendingStep = true;
}

async function reset() {
  if (!state.info) return;
  const gen = state.generation;
  let f;
  try {
    f = await engine.reset();
  } catch (e) {
    if (e.name !== 'StepTimeout') throw e; // the model was closed meanwhile (requestFrame says why)
    return;
  }
  if (gen === state.generation) startedOver(f);
}

function startedOver(f) {
  state.blown = false;
  clearBanner();
  state.lastFrame = f; // the plot starts over from it
  setupSignals(state.info);
  onFrame(f);
}

/** A scene control's button (scene-controls.js): its push starts at the next step, and the scene plays. */
async function sceneAction(action) {
  if (!state.info) return;
  const gen = state.generation;
  let f;
  try {
    f = await engine.push(action, controls.sceneValues(), controls.settings.dt);
  } catch (e) {
    if (e.name !== 'StepTimeout') banner(`That control was not applied: ${describeError(e)}`);
    return;
  }
  if (gen !== state.generation) return;
  if (f.reset) startedOver(f);
  setPlaying(true);
}

function fit() {
  if (state.view) scene.frameModel();
}

/** "New model": the template (a double pendulum) in the editor, opened and playing. */
async function newModel() {
  forgetLink();
  if (await pickModel(NEW_MODEL, { text: TEMPLATE })) setPlaying(true);
}

$('play').addEventListener('click', togglePlay);
$('step').addEventListener('click', stepOnce);
$('reset').addEventListener('click', reset);
$('fit').addEventListener('click', fit);
$('new-model').addEventListener('click', newModel);
$('reload').addEventListener('click', reload);
$('revert').addEventListener('click', revert);
installKeys({
  play: togglePlay,
  reset,
  step: stepOnce,
  back: () => timeline.stepBack(),
  fit,
  drive: (throttle, steer) => controls.drive(throttle, steer),
});

// ——— share links ———

function forgetLink() {
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
}

$('share').addEventListener('click', async () => {
  if (!state.model) return;
  const text = editor.text;
  const { tau, act, brake } = controls.inputs();
  const own = controls.sceneValues(); // a scene's own sliders: the motor's rate, the ball's speed
  const f = state.info && state.lastFrame;
  const shown = f && { time: f.time, steps: f.steps, state: f.state };
  const link = {
    model: state.model,
    text: state.shipped !== null && text === state.shipped ? undefined : text,
    tau,
    act,
    brake: brake.length ? brake : undefined,
    gravity: customGravity() ?? undefined,
    camera: scene.getCamera(),
    dt: controls.settings.dt,
    timeScale: controls.settings.timeScale,
    scene: Object.keys(own).length ? own : undefined,
  };
  let hash = encodeShare({ ...link, shown });
  if (hash.length > MAX_HASH) hash = encodeShare(link); // the text alone, from the initial state
  if (hash.length > MAX_HASH) return toast('This model is too large to share as a link.');
  history.replaceState(null, '', hash);
  try {
    await navigator.clipboard.writeText(location.href);
    toast('Link copied to the clipboard');
  } catch {
    toast('Link ready in the address bar');
  }
});

// ——— dropped files ———

// An .xml (MJCF), .urdf or .mech file dropped anywhere on the page opens as a model named after the file. It is
// read, imported and parsed before anything changes: a file that is not text, is over the page's text cap
// (share.js's MAX_TEXT), or fails to import or parse leaves the model shown running and says why in the banner.
const DROPPABLE = /\.(xml|urdf|mech)$/i;

/** A dropped file's bytes as { text }, or { why } they are not a model's text. */
function decodeText(bytes) {
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { why: 'it is not UTF-8 text' };
  }
  return text.includes('\0') ? { why: 'it is not text (it holds NUL characters)' } : { text };
}

/** The model name a file opens under: its base name in .mech's name characters. */
const droppedName = (file) => file.replace(DROPPABLE, '').replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 60) || 'model';

async function openDropped(files) {
  const refuse = (why) => banner(`${why}\nThe model shown keeps running.`);
  if (files.length !== 1) return refuse(`Drop one model file at a time (${files.length} were dropped).`);
  const [file] = files;
  if (!DROPPABLE.test(file.name)) return refuse(`${file.name} was not opened: drop an .xml (MJCF), .urdf or .mech file.`);
  if (file.size > MAX_TEXT) return refuse(`${file.name} was not opened: it is too large (${file.size} bytes; the limit is ${MAX_TEXT}).`);
  let bytes;
  try {
    bytes = await file.arrayBuffer();
  } catch (e) {
    return refuse(`${file.name} could not be read: ${e.message}`);
  }
  const read = decodeText(bytes);
  if (read.why) return refuse(`${file.name} was not opened: ${read.why}.`);
  const name = droppedName(file.name);
  let { text } = read;
  let out = null;
  if (!/\.mech$/i.test(file.name)) {
    try {
      out = await importXml(text, file.name);
    } catch (e) {
      return refuse(`${file.name} did not import — ${describeError(importError(e))}`);
    }
    text = out.text;
  }
  const err = await engine.check(text, name);
  if (err) return refuse(`${file.name} did not load — ${describeError(err)}`);
  forgetLink();
  if (!(await pickModel(name, { text }))) return;
  if (out) announceImport(out);
}

let drops = 0; // dropped files handled, opened or refused (the browser tests wait on it)
window.addEventListener('dragover', (e) => {
  if (!e.dataTransfer?.types.includes('Files')) return;
  e.preventDefault();
  e.dataTransfer.dropEffect = 'copy';
});
// Capturing, so that a file dropped on the editor opens as a model rather than being pasted into the text.
window.addEventListener('drop', (e) => {
  const files = [...(e.dataTransfer?.files ?? [])];
  if (!files.length) return;
  e.preventDefault();
  e.stopPropagation();
  openDropped(files)
    .catch((err) => banner(`The dropped file was not opened: ${describeError(err)}\nThe model shown keeps running.`))
    .finally(() => drops++);
}, true);

// ——— start ———

async function start() {
  try {
    models = await engine.models();
  } catch (e) {
    banner(`The WebAssembly engine did not load: ${e.message}`);
    state.ready = true;
    return;
  }
  gallery = createGallery($('gallery'), models, (name) => {
    forgetLink();
    pickModel(name);
  });
  const fallback = models.some((m) => m.name === DEFAULT_MODEL) ? DEFAULT_MODEL : models[0]?.name;

  let shared = null;
  let linkProblem = null;
  try {
    shared = decodeShare(location.hash);
    if (shared && shared.text === undefined && !models.some((m) => m.name === shared.model)) {
      throw new Error(`the link names the model "${shared.model}", which this build does not ship`);
    }
  } catch (e) {
    shared = null;
    linkProblem = e.message;
    forgetLink();
  }

  if (shared) {
    controls.setSettings(shared);
    const opened = await pickModel(shared.model, { text: shared.text, camera: shared.camera, inputs: shared });
    if (opened && shared.shown) {
      try {
        onFrame(await engine.restore(shared.shown));
      } catch (e) {
        banner(`This share link's state was not restored: ${describeError(e)}. Showing the model from its initial state.`);
      }
    }
  } else if (fallback) {
    await pickModel(fallback);
  } else {
    banner('No models are available.');
  }
  if (linkProblem) banner(`This share link cannot be opened: ${linkProblem}. Showing the default scene instead.`);
  state.ready = true;
  requestAnimationFrame(tick);
}

// Read-only hooks for the browser tests and for poking around from the console.
window.playground = {
  models: () => models.map((m) => ({ ...m })),
  status: () => ({
    ready: state.ready,
    model: state.model,
    backend: state.info?.backend ?? null,
    loaded: Boolean(state.info),
    playing: state.playing,
    stepping: inFlight, // a frame request is out: a frame may still arrive
    blown: state.blown,
    time: state.lastFrame?.time ?? 0,
    steps: state.lastFrame?.steps ?? 0,
    q: state.lastFrame ? [...state.lastFrame.q] : [],
    qd: state.lastFrame ? [...state.lastFrame.qd] : [],
    poses: state.lastFrame ? [...state.lastFrame.poses] : [],
    velocities: state.lastFrame ? [...state.lastFrame.velocities] : [], // per body, world [v; ω]
    ground: state.lastFrame?.ground ? [...state.lastFrame.ground] : null,
    fps: meter.fps,
    rtf: meter.rtf,
    load: state.lastFrame?.load ?? null,
    banner: $('banner').hidden ? null : $('banner-text').textContent,
    lastToast: $('toast').textContent, // the last toast's text, kept after it fades
    drops,
  }),
  pixelStats: () => scene.pixelStats(),
  /** Where the model's box falls on the canvas, in fractions of it (scene.js, framing). */
  framing: () => (state.view ? scene.framing() : null),
  renderStats: () => scene.renderStats(),
  editorErrors: () => editor.errors(),
  editorText: () => editor.text,
  inputs: () => controls.inputs(),
  /** The plottable signals' labels, the plotted ones, and one signal's value in the last frame. */
  signals: () => state.signals.map((s) => s.label),
  plotted: () => picker.plotted.map((s) => s.label),
  /** The plot's columns as drawn: titles (time first) and values. */
  plotColumns: () => plot.columns(),
  signalValue: (label) => {
    const s = state.signals.find((x) => x.label === label);
    return s && state.lastFrame ? s.read(state.lastFrame) : null;
  },
  settings: () => ({ ...controls.settings }),
  camera: () => scene.getCamera(),
  /** Per rod of the shown model: the first and last centreline sample [x, y, z] of the last frame. */
  rods: () => (state.lastFrame?.rods ?? []).map((r, i) => {
    const n = state.info.rodSamples[i];
    return { start: [...r.subarray(0, 3)], end: [...r.subarray(3 * n, 3 * n + 3)], samples: n + 1 };
  }),
  rodInfo: () => (state.info?.rodInfo ?? []).map((r) => ({ ...r })),
  /** The open model as Sim.describe() gave it (a copy), or null. */
  describe: () => (state.info ? structuredClone(state.info.model) : null),
  /** A tracked model's drawing (track-view.js): per band its instanced shoes, the rollers, the terrain mesh. */
  tracks: () => state.view?.trackStats?.() ?? null,
  ...inspector.hooks,
  ...timeline.hooks,
  ...sideBySide.hooks,
  ...jitSwitch.hooks,
  ...downloads.hooks,
};

start();
