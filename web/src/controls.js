// controls.js — the settings panel (lil-gui): time scale and dt, view toggles and quality, and sliders generated
// from the model for gravity, each joint's tau and each actuator input; a scene's own controls (scene-controls.js).
import GUI from 'lil-gui';
import { driveRollers } from './tracks.js';
import { differentialPair } from '../../wasm/drive.mjs';
import { SCENE_CONTROLS, clampValue } from './scene-controls.js';
import { QUALITIES } from './quality.js';
import { loadSetting, saveSetting } from './storage.js';
import { clampToControls } from './share.js';

const DEFAULTS = { timeScale: 1, dt: 0.001 };
const DT_CHOICES = { '0.1 ms': 1e-4, '0.25 ms': 2.5e-4, '0.5 ms': 5e-4, '1 ms': 1e-3, '2 ms': 2e-3, '5 ms': 5e-3, '10 ms': 1e-2 };
const TIME_SCALE = [0.05, 4];   // the time scale slider's range
const GRAVITY = [-20, 20];      // each gravity slider's, m/s²
const ACT = 10;                 // an actuator input slider's half-range (N or N·m) for values within it

// Half-ranges of a commanded coordinate (act = k × x): posts and racks in metres, joints in radians.
const COMMAND_M = 0.15;
const COMMAND_RAD = 0.6;

function range(x, fallback) {
  return Math.max(Math.abs(x) * 2, fallback);
}
// A round slider step near a thousandth of the range.
const stepFor = (r) => 10 ** Math.floor(Math.log10(r / 1000) + 0.5);

// Joint axes and points of interest start hidden on vehicles, where they are clutter: a model with a track
// band, or with more than CLUTTER of them together (the HMMWVs: 33 and 34).
const CLUTTER = 24;
function cluttered(model) {
  const axes = model.bodies.filter((b) => b.joint === 'revolute' || b.joint === 'prismatic').length;
  return model.tracks.length > 0 || axes + model.pois.length > CLUTTER;
}

/** The step a model brings (0: none): a model with contact its contact step, an XPBD scene its file's dt. */
const ownStep = (info) => (info.model.contactDt > 0 ? info.model.contactDt : info.engine === 'xpbd' ? info.model.dt : 0);
const ms = (s) => `${Number((s * 1e3).toPrecision(2))} ms`;

/**
 * @param container element for the panel
 * @param onView     (view) => void      a toggle changed
 * @param onQuality  (mode) => void      the quality setting changed: 'auto', 'high' or 'low'
 * @param onInputs   () => void          a gravity/tau/act slider moved
 * @param onAction   (action) => void    a scene control's button was pressed (its key in SCENE_CONTROLS)
 * @param onKeyframe (k) => void         a keyframe was picked (its index): the actuator sliders hold its ctrl
 * @param onSceneValue (key, value) => void  a live scene slider moved
 * @param onClamped  (why) => void      a typed scene value or a share link's value was outside its control's range
 *                                      and clamped (a sentence)
 * @param onFloor    (on) => void        the floor toggle changed (contact-settings.js)
 */
export function createControls(container, { onView, onQuality, onInputs, onAction, onSceneValue, onClamped, onKeyframe, onFloor }) {
  const gui = new GUI({ container, title: 'Settings' });
  const settings = { ...DEFAULTS, floor: false };
  const quality = loadSetting('quality');
  const view = {
    quality: QUALITIES.includes(quality) ? quality : 'auto',
    jointAxes: true, pois: true, worldFrame: true, shadows: true, contactForces: false, follow: true,
  };

  const sim = gui.addFolder('Simulation');
  const timeScale = sim.add(settings, 'timeScale', ...TIME_SCALE, 0.05).name('time scale');
  const dtChoice = { dt: settings.dt };
  const dt = sim.add(dtChoice, 'dt', DT_CHOICES).name('dt').onChange((v) => (settings.dt = v));
  // The page's floor as a collider (contact-settings.js): shown for a floating model once one opens.
  const floor = sim.add(settings, 'floor').name('floor collides').onChange((on) => onFloor(on)).hide();
  let fitted = '';  // the model and step dt was last fitted to
  let dtBefore = 0; // the dt a model's own step replaced, given back when a model without one opens
  let linked = false; // dt came from a share link: the next model keeps it

  // A model with its own step (ownStep) opens at it, offered in the list as "model": an XPBD scene at its
  // file's dt, a model with contact (a band, a ground) at its contact step unless dt is already smaller (a
  // larger dt may let the contact blow up; the user may still pick one). A reload keeps the dt shown.
  function fitDt(info) {
    const step = ownStep(info);
    const key = `${info.name} ${step}`;
    if (key === fitted) return;
    fitted = key;
    dt.options(step ? { [`model (${ms(step)})`]: step, ...DT_CHOICES } : DT_CHOICES); // first: it is the one shown
    if (linked) { // a link's dt, within the list's range (its shortest and longest steps, and the model's)
      linked = false;
      const steps = [...Object.values(DT_CHOICES), ...(step ? [step] : [])];
      const { values, notes } = clampToControls({ dt: settings.dt }, { dt: [Math.min(...steps), Math.max(...steps)] });
      settings.dt = dtChoice.dt = values.dt;
      if (notes.length) onClamped(`${notes.join('; ')}.`);
    } else if (step && (info.engine === 'xpbd' || settings.dt > step || dtBefore)) {
      if (!dtBefore) dtBefore = settings.dt;
      settings.dt = dtChoice.dt = step;
    } else if (!step && dtBefore) {
      settings.dt = dtChoice.dt = dtBefore;
      dtBefore = 0;
    }
    dt.updateDisplay();
  }

  const show = gui.addFolder('View');
  show.add(view, 'quality', QUALITIES).onChange((v) => {
    saveSetting('quality', v);
    onQuality(v);
  });
  show.add(view, 'jointAxes').name('joint axes').onChange(() => onView(view));
  show.add(view, 'pois').name('points of interest').onChange(() => onView(view));
  show.add(view, 'worldFrame').name('world frame').onChange(() => onView(view));
  show.add(view, 'shadows').onChange(() => onView(view));
  // Contacts (C): the constraint solve's points and forces (contact-draw.js), and a ground's force per body.
  show.add(view, 'contactForces').name('contacts (C)').onChange(() => onView(view));
  show.add(view, 'follow').name('camera follows').onChange(() => onView(view));

  let inputs = { tau: [], act: [], gravity: [0, 0, 0], brake: [] };
  // A robot whose actuators are all motors: hold its pose by a PD law towards the keyframe picked last.
  let hold = null;
  const drive = { throttle: 0, steer: 0 }; // a vehicle with a differential pair (wasm/drive.mjs), else both 0
  let driveControls = [];                  // its throttle and steer sliders
  let modelFolders = [];
  let sceneValues = {}; // the open scene's own sliders (scene-controls.js), by key

  /**
   * One slider per actuator (docs/mech-format.md, "Actuators"), named after it, over its ctrlrange (a motor
   * without one: ±10, a servo's target: ±π rad or ±0.5 m), writing its ctrl, act[first + i].
   */
  function actuatorSliders(actuators, first, keyframes) {
    const f = gui.addFolder('Actuators');
    modelFolders.push(f);
    hold = actuators.every((a) => a.kind === 'motor') ? { on: false, kp: 100, kd: 10, keyframe: -1 } : null;
    if (hold) {
      f.add(hold, 'on').name('hold pose (PD)').onChange(onInputs);
      f.add(hold, 'kp', 0, 1000, 1).name('hold kp (per rad or m)').onChange(onInputs);
      f.add(hold, 'kd', 0, 100, 0.1).name('hold kd').onChange(onInputs);
    }
    if (keyframes.length) {
      const pick = { keyframe: '' };
      const names = Object.fromEntries(keyframes.map((k, i) => [k.name, i]));
      f.add(pick, 'keyframe', names).name('keyframe').onChange((k) => {
        keyframes[k].ctrl.forEach((c, i) => (inputs.act[first + i] = c));
        if (hold) hold.keyframe = k;
        for (const c of f.controllers) c.updateDisplay();
        onKeyframe?.(k);
      });
    }
    actuators.forEach((a, i) => {
      const servo = a.kind === 'position';
      const [lo, hi] = a.ctrlrange ?? (servo ? [-1, 1].map((s) => s * (a.unit === 'rad' ? Math.PI : 0.5)) : [-10, 10]);
      const unit = servo ? ` (${a.unit})` : a.kind === 'motor' ? (a.unit === 'rad' ? ' (N·m)' : ' (N)') : '';
      f.add(inputs.act, first + i, lo, hi, stepFor(hi - lo)).name(`${a.name}${unit}`).onChange(onInputs);
    });
  }

  return {
    gui, // the panel, for other modules' settings (side-by-side.js)
    settings,
    view,
    /**
     * Sets time scale and dt from a share link, each clamped to its control's range (dt when the model opens,
     * its own step one of the choices) with a sentence to onClamped.
     */
    setSettings({ timeScale: ts, dt: step }) {
      if (ts !== undefined) {
        const { values, notes } = clampToControls({ timeScale: ts }, { timeScale: TIME_SCALE });
        settings.timeScale = values.timeScale;
        if (notes.length) onClamped(`${notes.join('; ')}.`);
      }
      if (step !== undefined) {
        settings.dt = dtChoice.dt = step;
        dtBefore = 0;
        linked = true;
      }
      timeScale.updateDisplay();
      dt.updateDisplay();
    },
    /**
     * Joint axes and points of interest as a newly opened model starts: hidden on vehicles (cluttered); the
     * camera follows a free-floating model (a vehicle's hull).
     */
    viewDefaults(model) {
      view.jointAxes = view.pois = !cluttered(model);
      view.follow = true;
      for (const c of show.controllers) c.updateDisplay();
    },
    /**
     * Rebuilds the model's sliders. `initial` (tau, act, gravity, brake arrays) is kept where its length
     * matches, so a reload of an edited model or a share link keeps the values; `initial.scene` (a share link's)
     * sets the scene's own sliders.
     */
    buildModel(info, initial = {}) {
      for (const f of modelFolders) f.destroy();
      modelFolders = [];
      hold = null;
      fitDt(info);
      const drives = driveRollers(info.model);
      const tires = drives.length ? [] : info.model.tires ?? [];
      const pick = (a, n, fill) => (Array.isArray(a) && a.length === n ? [...a] : Array.from({ length: n }, fill));
      inputs = {
        tau: pick(initial.tau, info.nv, () => 0),
        act: pick(initial.act, info.nact, () => 0),
        gravity: pick(initial.gravity, 3, (_, i) => info.gravity[i]),
        brake: pick(initial.brake, drives.length || tires.length, () => 0).map((x) => Math.min(Math.max(x, 0), 1)),
      };
      const totalMass = info.model.bodies.reduce((s, b) => s + b.mass, 0);
      const limit = Math.max(1, Math.ceil(totalMass * 9.81)); // a joint tau slider's half-range
      // A share link's values (or a reload's) within the sliders' ranges, which start at these bounds.
      const tauRange = Array.from({ length: info.nv }, (_, i) => {
        const r = Math.max(limit, drives.find((d) => d.vidx === i)?.torque ?? 0);
        return [-r, r];
      });
      const actRange = Array.from({ length: info.nact }, (_, i) => {
        const input = info.model.inputs?.[i];
        const r = input?.k > 0 ? input.k * (input.unit === 'rad' ? COMMAND_RAD : COMMAND_M) : ACT;
        return [-r, r];
      });
      const linkGravity = Array.isArray(initial.gravity) && initial.gravity.length === 3; // else the model's own
      const clamped = clampToControls(inputs, { tau: tauRange, act: actRange, ...(linkGravity ? { gravity: GRAVITY } : {}) });
      inputs = { ...inputs, tau: clamped.values.tau, act: clamped.values.act, gravity: clamped.values.gravity };
      if (clamped.notes.length) onClamped(`${clamped.notes.join('; ')}.`);

      // A tracked vehicle: per drive roller its drive torque (the joint's tau, also under Joint tau) and brake.
      const tauSliders = [];
      const driveSliders = [];
      drive.throttle = drive.steer = 0;
      driveControls = [];
      if (drives.length) {
        const f = gui.addFolder('Track drive');
        modelFolders.push(f);
        // Two drive rollers, one on each side: throttle and steer (keys W/S and A/D) through the sprocket motor.
        if (differentialPair(drives)) {
          driveControls = [
            f.add(drive, 'throttle', -1, 1, 0.01).name('throttle (W/S)').onChange(onInputs),
            f.add(drive, 'steer', -1, 1, 0.01).name('steer (A/D, + left)').onChange(onInputs),
          ];
        }
        drives.forEach((d, i) => {
          const r = range(inputs.tau[d.vidx], d.torque);
          driveSliders[d.vidx] = f.add(inputs.tau, d.vidx, -r, r, stepFor(r)).name(`${d.name} drive (N·m)`).onChange(() => {
            tauSliders[d.vidx]?.updateDisplay();
            onInputs();
          });
          f.add(inputs.brake, i, 0, 1, 0.01).name(`${d.name} brake (0–1)`).onChange(onInputs);
        });
      }
      // A wheeled vehicle (tires on wheels): throttle through its powertrain, steer through its steering input
      // (keys W/S and A/D; wasm/wheel_drive.mjs) and a brake per wheel.
      if (tires.length) {
        const f = gui.addFolder('Wheel drive');
        modelFolders.push(f);
        driveControls = [
          f.add(drive, 'throttle', -1, 1, 0.01).name('throttle (W/S)').onChange(onInputs),
          f.add(drive, 'steer', -1, 1, 0.01).name('steer (A/D, + left)').onChange(onInputs),
        ];
        tires.forEach((t, i) => f.add(inputs.brake, i, 0, 1, 0.01).name(`${t.name} brake (0–1)`).onChange(onInputs));
      }
      // A scene with its own controls: its sliders and buttons.
      const own = SCENE_CONTROLS[info.name];
      sceneValues = {};
      if (own) {
        const f = gui.addFolder(own.title);
        modelFolders.push(f);
        for (const [key, v] of Object.entries(own.values)) {
          const live = v.apply ? info.sceneValues?.[key] : undefined;
          sceneValues[key] = live ?? v.value;
          // A share link's value, clamped to the slider (the page says so); a live one is applied to the run.
          if (initial.scene?.[key] !== undefined && live !== null) {
            const { value, why } = clampValue(v, initial.scene[key]);
            if (why) onClamped(why);
            sceneValues[key] = value;
            if (live != null && value !== live) onSceneValue(key, value);
          }
          const c = f.add(sceneValues, key, v.min, v.max, v.step).name(v.label);
          if (live === null) c.disable().domElement.title = `This ${info.name} has nothing for it to move`;
          if (live != null) c.onChange((x) => onSceneValue(key, x));
          // lil-gui clamps a typed value to the range; the page says so.
          c.domElement.querySelector('input').addEventListener('change', (e) => {
            const { why } = clampValue(v, Number(e.target.value));
            if (why) onClamped(why);
          });
        }
        for (const [key, a] of Object.entries(own.actions)) f.add({ [key]: () => onAction(key) }, key).name(a.label);
      }
      // A vehicle's drive is its controls: no slider per track shoe.
      if (info.nv > 0 && !drives.length) {
        const f = gui.addFolder('Joint tau (N·m or N)');
        modelFolders.push(f);
        for (let i = 0; i < info.nv; i++) {
          const b = info.model.bodies.find((b) => i >= b.vidx && i < b.vidx + b.nv);
          const name = b.nv > 1 ? `${b.name}[${i - b.vidx}]` : b.name;
          const r = range(inputs.tau[i], limit);
          tauSliders[i] = f.add(inputs.tau, i, -r, r, stepFor(r)).name(name).onChange(() => {
            driveSliders[i]?.updateDisplay();
            onInputs();
          });
        }
        if (info.nv > 12 || info.model.actuators.length) f.close();
      }
      const elementInputs = info.nact - info.model.actuators.length;
      if (info.model.actuators.length) actuatorSliders(info.model.actuators, elementInputs, info.model.keyframes);
      if (elementInputs > 0) {
        const f = gui.addFolder('Actuator inputs');
        modelFolders.push(f);
        for (let i = 0; i < elementInputs; i++) {
          const input = info.model.inputs?.[i];
          if (input?.k > 0) {
            // A stiff element used as a position command: act = k × x holds its coordinate x away from rest,
            // so the slider is x (shaker post height, rack travel, steering angle), sent as k × x.
            const cmd = { x: inputs.act[i] / input.k };
            const r = range(cmd.x, input.unit === 'rad' ? COMMAND_RAD : COMMAND_M);
            f.add(cmd, 'x', -r, r, stepFor(r)).name(`${input.name} (${input.unit})`).onChange((x) => {
              inputs.act[i] = input.k * x;
              onInputs();
            });
          } else {
            const unit = !input ? '' : input.element === 'tsda' || input.unit === 'm' ? ' (N)' : ' (N·m)';
            const r = range(inputs.act[i], ACT);
            f.add(inputs.act, i, -r, r, stepFor(r)).name(input?.name ? `${input.name}${unit}` : `act[${i}]`).onChange(onInputs);
          }
        }
      }
      const g = gui.addFolder('Gravity (m/s²)');
      modelFolders.push(g);
      ['x', 'y', 'z'].forEach((c, i) => g.add(inputs.gravity, i, ...GRAVITY, 0.01).name(c).onChange(onInputs));
    },
    /**
     * The floor toggle as a model opens (contact-settings.js): `on`, shown when `shown`, and enabled when the model
     * can have the floor (`why` is the tooltip when it cannot).
     */
    setFloor(on, { why = '', shown = true } = {}) {
      settings.floor = on;
      floor.enable(!why).show(shown).domElement.title = why;
      floor.updateDisplay();
    },
    /** The contacts toggle flipped (the C key); the view then. */
    toggleContacts() {
      view.contactForces = !view.contactForces;
      for (const c of show.controllers) c.updateDisplay();
      onView(view);
    },
    /** The open scene's own slider values (scene-controls.js), by key. */
    sceneValues() {
      return { ...sceneValues };
    },
    /**
     * Current slider values: {tau, act, gravity, brake, throttle, steer} (brake: one level per drive roller or
     * tire wheel, 0 to 1; throttle and steer −1 to 1, 0 without a differential pair or tires).
     */
    inputs() {
      return { tau: [...inputs.tau], act: [...inputs.act], gravity: [...inputs.gravity], brake: [...inputs.brake],
        throttle: drive.throttle, steer: drive.steer, ...(hold ? { hold: { ...hold } } : {}) };
    },
    /** Sets throttle and steer (the keys W/S, A/D) on a vehicle with a differential pair or tires; false without. */
    drive(throttle, steer) {
      if (!driveControls.length) return false;
      if (drive.throttle === throttle && drive.steer === steer) return true;
      Object.assign(drive, { throttle, steer });
      for (const c of driveControls) c.updateDisplay();
      onInputs();
      return true;
    },
  };
}
