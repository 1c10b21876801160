// page-state.js — the page's state: the model shown, how it runs and the last frame drawn. The functions here are
// its only writers; every other module reads `page`, whose properties are getters (assigning one throws).

const state = {
  models: [],         // the shipped models (listModels()), once the engine has loaded
  model: null,        // name of the model shown (shipped name, or the name a link gave)
  shipped: null,      // its shipped text, or null when it has none
  info: null,         // the worker's reply to 'open'
  view: null,         // model-view.js object
  framed: null,       // the model the camera was last framed for
  generation: 0,      // bumps on every open and close, so late frames of a previous model are dropped
  playing: false,
  pendingStep: false, // one step asked for, taken by the next frame request
  blown: false,       // the run blew up and paused on its last finite state
  signals: [],        // the plottable signals of the model shown (plots.js)
  lastFrame: null,
  ready: false,       // start() has finished: the first model (or its error) and any link message are shown
};

export const page = Object.freeze(Object.defineProperties({}, Object.fromEntries(
  Object.keys(state).map((key) => [key, { get: () => state[key], enumerable: true }]))));

export function setModels(models) {
  state.models = models;
}

/** The model `name` is picked: it is shown from now on. */
export function pick(name) {
  state.model = name;
}

/** The shipped text of the model picked (null: it has none). */
export function setShipped(text) {
  state.shipped = text;
}

/** The model the worker opened (`info`, its reply), in a new generation; `info` is its first frame. */
export function opened(info) {
  state.generation++;
  state.info = info;
  state.lastFrame = info; // with info, so that status() never pairs the new model with an old frame
  state.blown = false;
  return state.generation;
}

/** The opened model's drawing (model-view.js). */
export function setView(view) {
  state.view = view;
}

/** The model the camera is now framed for. */
export function setFramed(name) {
  state.framed = name;
}

/** No model open (none yet, or it failed or was closed), in a new generation. */
export function closed() {
  state.info = null;
  state.view = null;
  state.generation++;
}

export function setPlaying(on) {
  state.playing = on;
}

export function askStep() {
  state.pendingStep = true;
}

/** Whether a step was asked for; the request is taken. */
export function takeStep() {
  const asked = state.pendingStep;
  state.pendingStep = false;
  return asked;
}

export function setBlown(blown) {
  state.blown = blown;
}

export function setFrame(frame) {
  state.lastFrame = frame;
}

export function setSignals(signals) {
  state.signals = signals;
}

export function setReady() {
  state.ready = true;
}
