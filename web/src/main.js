// main.js — builds the page from its parts and wires them: the view, the plot, the editor, the settings, the
// buttons and keys; then start() opens the first model, or the one a link names, and the frame loop.
// The page's state lives in page-state.js; the model shown in session.js; its run and the frame loop in
// playback.js.
import './style.css';
import { Engine, restarted } from './engine.js';
import { createScene } from './scene.js';
import { createRodControls } from './rod-view.js';
import { createEditor } from './editor.js';
import { createControls } from './controls.js';
import { installKeys } from './keys.js';
import { createDownloads } from './download.js';
import { banner, toastMore, describeError } from './status.js';
import { createInspector } from './inspect.js';
import { createTimeline } from './timeline.js';
import { createSideBySide } from './side-by-side.js';
import { createJitSwitch } from './jit-switch.js';
import { createPlotPanel } from './plot-panel.js';
import { createPlayback } from './playback.js';
import { createSession } from './session.js';
import { createContactSettings } from './contact-settings.js';
import { installShareButton, openedLink } from './share-link.js';
import { installDrop } from './dropped-files.js';
import { installHooks } from './test-hooks.js';
import { installLayout } from './layout.js';
import { page, setModels, setReady } from './page-state.js';

const DEFAULT_MODEL = 'threelink';

const $ = (id) => document.getElementById(id);

const engine = new Engine();
const scene = createScene($('viewport'));
const plots = createPlotPanel();
const inspector = createInspector(scene, engine);
const codegen = engine.features().then((f) => f.codegen, () => false); // generateCode and the jit
const jitSwitch = createJitSwitch(engine, codegen);
const timeline = createTimeline($('viewport'), {
  seek: (index) => playback.seek(index),
  pause: () => playback.setPlaying(false),
  stepForward: () => playback.stepOnce(),
});

const editor = createEditor($('editor'), {
  check: (text) => session.check(text),
  onChange: (text) => session.edited(text),
  onReload: () => session.reload(),
});

// The Download menu: the editor's text as .mech, and as generated C and WebAssembly (disabled for XPBD scenes).
const downloads = createDownloads($('revert'), {
  current: () => page.info && {
    name: page.model, text: editor.text, engine: page.info.engine, state: { q: page.info.q, qd: page.info.qd },
  },
  generate: (text, name, target) => engine.generate(text, name, target),
  describe: describeError,
  report: banner,
});
codegen.then((on) => downloads.setAvailable(on));

const controls = createControls($('controls'), {
  onView(v) {
    session.applyView(v);
    contacts.showContacts(v.contactForces);
  },
  onFloor: (on) => contacts.setFloor(on),
  onQuality: (mode) => scene.setQuality(mode),
  async onInputs() {
    try {
      await engine.setInputs(controls.inputs());
    } catch (e) {
      // The worker restarted without the model meanwhile (requestFrame says why); anything else is a refused value.
      if (!restarted(e)) banner(`That value was not applied: ${describeError(e)}`);
    }
  },
  onAction: (action) => playback.sceneAction(action),
  async onKeyframe(k) { // the sliders took its ctrl (controls.js); the run goes to its state with them
    await engine.setInputs(controls.inputs());
    await playback.reset(k);
  },
  onClamped: toastMore,
  async onSceneValue(key, value) {
    try {
      await engine.sceneValue(key, value);
    } catch (e) {
      if (!restarted(e)) banner(`That value was not applied: ${describeError(e)}`);
    }
  },
});

scene.setQuality(controls.view.quality);
const contacts = createContactSettings({ engine, scene, controls });

// Side by side: turning it on or off starts the plot over; on, both runs start over with the gap plotted.
const sideBySide = createSideBySide(controls.gui, scene, (on) => playback.compare(on));

// Rod sliders (E, damping, elements, order): they rewrite the rod block and rebuild the model.
const rodControls = createRodControls($('controls'), {
  text: () => editor.text,
  async onRebuild(text) {
    editor.setText(text);
    await session.reload();
  },
});

const playback = createPlayback({
  engine, scene, controls, plots, sideBySide, inspector, timeline, contacts: contacts.draw,
  timedOut: (name) => session.timedOut(name),
});
const session = createSession({
  engine, scene, editor, controls, plots, inspector, sideBySide, rodControls, jitSwitch, downloads, playback, contacts,
});

// ——— buttons and keys ———

function fit() {
  if (page.view) scene.frameModel();
}

$('play').addEventListener('click', playback.togglePlay);
$('step').addEventListener('click', playback.stepOnce);
$('reset').addEventListener('click', playback.reset);
$('fit').addEventListener('click', fit);
$('new-model').addEventListener('click', session.newModel);
$('reload').addEventListener('click', session.reload);
$('revert').addEventListener('click', session.revert);
installKeys({
  play: playback.togglePlay,
  reset: playback.reset,
  step: () => timeline.stepForward(),
  back: () => timeline.stepBack(),
  fit,
  contacts: () => controls.toggleContacts(),
  drive: (throttle, steer) => controls.drive(throttle, steer),
});
installShareButton($('share'), { editor, controls, scene, customGravity: session.customGravity });
const dropsHandled = installDrop({ engine, session });
installLayout();
installHooks({
  scene, editor, controls, plots, playback, dropsHandled, parts: [inspector, timeline, sideBySide, jitSwitch, downloads, contacts.draw],
});

// ——— start ———

async function start() {
  let models;
  try {
    models = await engine.models();
  } catch (e) {
    banner(`The WebAssembly engine did not load: ${e.message}`);
    setReady();
    return;
  }
  setModels(models);
  session.showGallery(models);
  const fallback = models.some((m) => m.name === DEFAULT_MODEL) ? DEFAULT_MODEL : models[0]?.name;
  const { shared, problem } = openedLink(models);

  if (shared) {
    controls.setSettings(shared);
    const opened = await session.pickModel(shared.model, { text: shared.text, camera: shared.camera, inputs: shared });
    if (opened && shared.shown) {
      try {
        playback.startedOver(await engine.restore(shared.shown)); // the plot starts at the link's time
      } catch (e) {
        banner(`This share link's state was not restored: ${describeError(e)}. Showing the model from its initial state.`);
      }
    }
  } else if (fallback) {
    await session.pickModel(fallback);
  } else {
    banner('No models are available.');
  }
  if (problem) banner(`This share link cannot be opened: ${problem}. Showing the default scene instead.`);
  setReady();
  playback.start();
}

start();
