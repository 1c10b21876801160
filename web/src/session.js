// session.js — the model shown and its text: picking one (the gallery, "New model", a link, a dropped file),
// opening it in the worker and drawing it, the editor's text checked as it is typed, kept per model
// (storage.js; the user's own models in my-models.js), reloaded and reverted, and the model closed when its step
// ran too long.
import TEMPLATE from './template.mech?raw';
import { STEP_LIMIT_MS } from './engine.js';
import { createModelView } from './model-view.js';
import { fetchShippedMeshes, meshGeometries, modelFiles, setModelFiles } from './mesh-assets.js';
import { keptFiles, keepMineFiles, forgetMineFiles, moveMineFiles, pruneMineFiles } from './model-store.js';
import { attachRods } from './rod-view.js';
import { attachTracks, trackBodies } from './track-view.js';
import { createGallery } from './gallery.js';
import { loadEdit, saveEdit, dropEdit } from './storage.js';
import { createMyModels } from './my-models.js';
import { download } from './download.js';
import { banner, clearBanner, describeError, parseStatus, toast, toastMore } from './status.js';
import { importError, importXml, isXmlModel, xmlError, announceImport } from './xml-import.js';
import { forgetLink } from './share-link.js';
import { page, pick, setShipped, opened, setView, setFramed, closed } from './page-state.js';

const NEW_MODEL = 'untitled'; // what "New model" names the template
const DEFAULT_MODEL = 'threelink'; // shown when the user's model shown is deleted

const $ = (id) => document.getElementById(id);
const sameVector = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

export function createSession({ engine, scene, editor, controls, plots, inspector, sideBySide, rodControls, jitSwitch,
  downloads, playback, contacts }) {
  let gallery = null; // gallery.js object, once the models are known
  let mine = null; // my-models.js object, likewise

  /** The gallery of `models` (listModels()) and of the user's own; picking one opens it. */
  function showGallery(models) {
    const pickCard = (name) => {
      forgetLink();
      pickModel(name);
    };
    gallery = createGallery($('gallery'), models, pickCard, { rename: renameMine, download: downloadMine, remove: removeMine });
    mine = createMyModels(new Set(models.map((m) => m.name)), (list) => gallery.showMine(list));
    gallery.showMine(mine.list());
    pruneMineFiles(mine.list().map((m) => m.name));
  }

  /**
   * Keeps `text` as a model of the user's named after `base` and opens it, with the mesh `files` it names (a
   * dropped folder's, kept with it: model-store.js); resolves as pickModel.
   */
  async function openMine(base, text, files) {
    forgetLink();
    const name = mine.add(base, text);
    const kept = keepMineFiles(name, files);
    const shown = await pickModel(name, { text, files });
    // A refusal is said after the open's own toasts (the import's warning count, which follows this).
    kept.then((why) => why && setTimeout(() => toastMore(why)));
    return shown;
  }

  function renameMine(name) {
    const to = window.prompt(`Rename ${name} to:`, name);
    if (to === null || !to.trim()) return;
    const renamed = mine.rename(name, to.trim());
    if (renamed && renamed !== name) {
      setModelFiles(renamed, modelFiles(name));
      setModelFiles(name, null);
      moveMineFiles(name, renamed);
    }
    if (renamed && page.model === name) pickModel(renamed);
  }

  function downloadMine(name) {
    download(`${name}.mech`, mine.text(name) ?? '', 'text/plain');
  }

  function removeMine(name) {
    mine.remove(name);
    setModelFiles(name, null);
    forgetMineFiles(name);
    if (page.model === name) pickModel(DEFAULT_MODEL);
  }

  /** The editor's text as it is typed: parse errors, or for MJCF and URDF import errors. */
  async function check(text) {
    if (isXmlModel(text)) {
      const err = await xmlError(text, page.model ?? 'model', modelFiles(page.model) ?? undefined);
      parseStatus(err);
      if (!err) $('parse-status').textContent = '✓ imports as .mech: reload (Ctrl+Enter) to convert it';
      return err;
    }
    const err = await engine.check(text, page.model ?? 'model');
    parseStatus(err);
    return err;
  }

  /** The user edited the text: kept for the model, and the link no longer says what the page shows. */
  function edited(text) {
    if (!page.model || isXmlModel(text)) return; // MJCF or URDF becomes a model of its own on reload
    keep(text);
    showEdited();
    forgetLink();
  }

  function showEdited() {
    const edited = page.shipped !== null && editor.text !== page.shipped;
    $('edited').hidden = !edited;
    $('revert').disabled = !edited;
    gallery?.markEdited(page.model, edited);
  }

  /** The gravity sliders' value when the user moved it away from the model's own, else null. */
  function customGravity() {
    const g = controls.inputs().gravity;
    return page.info && !sameVector(g, page.info.model.gravity) ? g : null;
  }

  function applyView(v = controls.view) {
    page.view?.setAxesVisible(v.jointAxes);
    page.view?.setPoisVisible(v.pois);
    page.view?.setForcesVisible?.(v.contactForces);
    scene.invalidate();
    scene.setWorldFrame(v.worldFrame);
    scene.setShadows(v.shadows);
    if (!v.follow) scene.unfollow(); // followed again from where the model is when switched back on
  }

  async function shippedText(name) {
    try {
      return await engine.shippedText(name);
    } catch {
      return null; // not a shipped model (a shared link's own text)
    }
  }

  function clearModel() {
    closed();
    playback.setPlaying(false);
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
   * ready (jit-switch.js; not when `jit` is false); `since` is when the user asked (performance.now()), for the
   * time that took.
   */
  async function openText(text, { keepCamera = false, camera = null, inputs = {}, since = performance.now(), jit = true } = {}) {
    const name = page.model;
    const edited = text !== null && text !== page.shipped;
    let info;
    try {
      // With the mesh files kept for it, from which its colliding meshes take their hulls.
      info = await engine.open(edited ? { text, name } : name, modelFiles(name) ?? undefined);
    } catch (e) {
      if (page.info?.name !== name) clearModel();
      parseStatus(e);
      editor.revealError(e);
      banner(`${name} did not load — ${describeError(e)}\nFix it in the editor and press Ctrl/⌘+Enter.`);
      return false;
    }
    if (name !== page.model) return false; // another model was picked meanwhile
    if (!edited) await fetchShippedMeshes(name, info.model); // a shipped robot's meshes, on its first opening
    const meshes = await meshGeometries(info.model, modelFiles(name)); // heavy ones simplified: a chunk loads
    if (name !== page.model) return false;
    const gen = opened(info);
    // The sliders' values reach the worker before the jit's compile holds it (up to COMPILE_LIMIT_MS), so a model
    // whose compile is long opens ready on the runtime engine; the compile is asked before the view is built.
    controls.buildModel(info, inputs);
    const inputsSet = engine.setInputs(controls.inputs());
    if (jit) jitSwitch.start(info, { current: () => gen === page.generation, since, stopped: () => resume(text) });
    setView(attachTracks(attachRods(createModelView(info, { ...trackBodies(info.model), meshes }), info), info));
    page.view.update(info.poses, info);
    const moved = scene.setModel(page.view); // true: another extent, which a kept camera may not show
    contacts.opened(info, page.view.bounds(), { fresh: page.framed !== name, linked: inputs.floor });
    inspector.setModel(page.view, info);
    if (page.framed !== name) controls.viewDefaults(info.model);
    applyView();
    if (camera) scene.setCamera(camera);
    else if (!keepCamera || page.framed !== name || moved) scene.frameModel();
    setFramed(name);
    sideBySide.setModel(info);
    rodControls.build(info);
    await inputsSet;
    plots.setup(info, { sideBySide: sideBySide.on });
    playback.showFrame(info);

    $('model-name').textContent = info.name;
    jitSwitch.badge(info);
    downloads.update();
    clearBanner();
    if (freeFalling(info)) {
      toast(`${info.name} is in free fall: no joint, ground or track holds it, so it falls with gravity (the camera follows it)`);
    }
    return true;
  }

  /**
   * The jit's compile of the model shown was stopped (too long, or cancelled) and the worker restarted without
   * it (engine.js): `text` opened again on the runtime engine, without the jit, from the last frame's state,
   * with the camera and the sliders kept. The time line starts again there.
   */
  async function resume(text) {
    const f = page.lastFrame;
    const shown = f?.state && { time: f.time, steps: f.steps, state: f.state };
    if (!(await openText(text, { keepCamera: true, jit: false, ...carriedInputs() })) || !shown) return;
    try {
      playback.onFrame(await engine.restore(shown));
    } catch (e) {
      banner(`The run was opened again from its initial state: ${describeError(e)}`);
    }
  }

  /** A Featherstone model with a floating body and nothing to stand on (no floor collides), under gravity. */
  function freeFalling(info) {
    const { model } = info;
    return info.engine === 'featherstone' && !page.view.anchored && !model.ground && !model.tracks.length
      && !controls.settings.floor && !(model.contact && model.statics.some((s) => s.type === 'plane'))
      && model.gravity.some((g) => g !== 0);
  }

  /** Slider values to carry into a reopened model (gravity only when moved: an input of every engine). */
  function carriedInputs() {
    return { inputs: { ...controls.inputs(), gravity: customGravity() ?? undefined } };
  }

  /**
   * Shows the model `name`: `text` (else its kept edit, else its shipped text), opened with `camera` and `inputs`
   * when given; `files`: the mesh files its text names (a dropped folder's), else those kept for it (model-store.js).
   * Resolves as openText does, or undefined when another model was picked meanwhile.
   */
  async function pickModel(name, { text, camera, inputs, files } = {}) {
    if (files) setModelFiles(name, files);
    pick(name);
    gallery.select(name);
    clearModel();
    $('model-name').textContent = name;
    $('file-name').textContent = `${name}.mech`;
    setShipped(await shippedText(name));
    if (!files && mine.has(name) && !modelFiles(name)) setModelFiles(name, await keptFiles(name));
    if (page.model !== name) return;
    const source = text ?? mine.text(name) ?? loadEdit(name) ?? page.shipped; // null: run the module by name
    editor.setText(source ?? '');
    showEdited();
    return openText(source, { camera, inputs });
  }

  /** The text kept for the model shown: into it when it is the user's, else as its edit. */
  function keep(text) {
    if (mine.has(page.model)) mine.update(page.model, text);
    else saveEdit(page.model, text, page.shipped);
  }

  /** MJCF or URDF in the editor, imported and opened as a model of the user's named after its root's name. */
  async function openPasted(text) {
    const out = await importXml(text, page.model ?? 'model', modelFiles(page.model) ?? undefined);
    const base = /<(?:mujoco\s[^>]*?model|robot\s[^>]*?name)\s*=\s*["']([^"']+)["']/.exec(text)?.[1] ?? 'imported';
    if (await openMine(base, out.text, modelFiles(page.model) ?? undefined)) announceImport(out);
  }

  async function reload() {
    if (!page.model) return;
    const since = performance.now();
    const text = editor.text;
    if (isXmlModel(text)) {
      try {
        await openPasted(text);
      } catch (e) {
        const err = importError(e);
        parseStatus(err);
        editor.revealError(err);
      }
      return;
    }
    keep(text);
    showEdited();
    await openText(text, { keepCamera: true, since, ...carriedInputs() });
  }

  async function revert() {
    if (page.shipped === null) return;
    dropEdit(page.model);
    editor.setText(page.shipped);
    showEdited();
    forgetLink();
    await openText(page.shipped, { keepCamera: true, ...carriedInputs() });
  }

  /** "New model": the template (a double pendulum) in the editor, opened and playing. */
  async function newModel() {
    if (await openMine(NEW_MODEL, TEMPLATE)) playback.setPlaying(true);
  }

  // The engine stopped a step of the model shown that ran past STEP_LIMIT_MS, and restarted its worker
  // without it: the model is closed, its text stays in the editor, and a reload opens it again.
  function timedOut(name) {
    clearModel();
    banner(`${name}: one simulation step ran longer than ${STEP_LIMIT_MS / 1000} s and was stopped.\n` +
      'Make a step cheaper — fewer substeps or iterations in the xpbd block, fewer rod elements or bodies — ' +
      'then press Ctrl/⌘+Enter to reload, or pick another model.');
  }

  return {
    showGallery, check, edited, customGravity, applyView, pickModel, openMine, reload, revert, newModel, timedOut,
  };
}
