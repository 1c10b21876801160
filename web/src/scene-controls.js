// scene-controls.js — controls of particular scenes, keyed by scene name: sliders and buttons in the Settings
// panel (controls.js), and the pushes their buttons start. A push sets forces before each of its steps in the
// worker (which imports this module: no three.js or lil-gui here), on top of the inputs, for a whole number of
// steps: the same at any frame rate. A live slider (one with `apply`) is an input of the run: the worker
// applies each value as it moves.

const LIFT = 25;       // N on each carriage: lifts pin, rope and carriage (1.8 kg, a 30 N/m spring) ~0.4 m
const HOLD = 1.5;      // s the pins hang from the raised carriages
const LOWER = 1.5;     // s over which the lift fades to nothing, setting the pins down
const STEADY = 0.5;    // s the pins are still steadied after the lift is gone
const STEADY_RATE = 4; // 1/s: how fast the steadying damps a pin's horizontal velocity
const STEADY_TURN = 0.4; // N·m·s: and its turning (STEADY_RATE × 0.1 kg·m², a pin's inertia about its head)

const TURN = 2 * Math.PI;

const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const bodiesNamed = (model, prefix) =>
  model.bodies.flatMap((b, i) => (b.name.startsWith(prefix) ? [{ ...b, index: i }] : []));

/**
 * Throw: the scene from the start, and one step of a force and a moment on the ball that change its speed
 * along +y to `speed` and its spin to rolling at it (ω_x = −v/r).
 */
function throwBall(model, { speed }) {
  const ball = model.bodies.findIndex((b) => b.name === 'ball');
  const { mass, inertia } = model.bodies[ball];
  const radius = model.shapes.find((s) => s.body === ball && s.type === 'sphere').size[0];
  return {
    reset: true,
    steps: 1,
    apply(sim, k, dt) {
      const p = sim.poses().subarray(7 * ball, 7 * ball + 3);
      const v = sim.velocities().subarray(6 * ball, 6 * ball + 6); // world [v; ω]
      const force = [0, (mass * (speed - v[1])) / dt, 0];
      const moment = cross(p, force);
      moment[0] += (inertia[0] * (-speed / radius - v[3])) / dt;
      sim.fext.set([...moment, ...force], 6 * ball);
    },
  };
}

/**
 * Reset pins: every carriage's joint force lifts its pin for HOLD s and fades over LOWER s, setting the pin
 * down; meanwhile a damper on each pin (a pinsetter's hand) steadies its swing, so it lands upright.
 */
function resetPins(model, values, dt) {
  const carriages = bodiesNamed(model, 'carriage');
  const pins = bodiesNamed(model, 'pin');
  return {
    reset: false,
    steps: Math.round((HOLD + LOWER + STEADY) / dt),
    apply(sim, k, dt) {
      const t = k * dt;
      const lift = LIFT * Math.min(1, Math.max(0, (HOLD + LOWER - t) / LOWER));
      for (const c of carriages) sim.tau[c.vidx] += lift;
      const poses = sim.poses();
      const velocities = sim.velocities();
      for (const pin of pins) {
        const p = poses.subarray(7 * pin.index, 7 * pin.index + 3);
        const v = velocities.subarray(6 * pin.index, 6 * pin.index + 6);
        const force = [-STEADY_RATE * pin.mass * v[0], -STEADY_RATE * pin.mass * v[1], 0];
        const moment = cross(p, force).map((m, i) => m - STEADY_TURN * v[3 + i]);
        sim.fext.set([...moment, ...force], 6 * pin.index);
      }
    },
  };
}

/** The bodies named `…motor` (a bristlebot's eccentric mass on its ramp drive). */
const motors = (model) => model.bodies.flatMap((b, i) => (/motor$/.test(b.name) ? [i] : []));

/**
 * Motor (turns/s): the rate of every motor's `ramp` drive (Sim.setRampRate, which keeps the target where it is
 * now: the motor changes speed without a jump); the slider starts at the first motor's rate in the file.
 */
const MOTOR = {
  label: 'Motor (turns/s)', min: 0, max: 1000, step: 10, value: 550,
  read: (sim, model) => sim.rampRate(motors(model)[0]) / TURN,
  apply: (sim, model, turns) => motors(model).forEach((b) => sim.setRampRate(b, TURN * turns)),
};

/** `value` clamped to the slider `v`'s range: { value, why } (why: null, or the sentence saying it was clamped). */
export function clampValue(v, value) {
  if (Number.isFinite(value) && value >= v.min && value <= v.max) return { value, why: null };
  const to = Number.isFinite(value) ? Math.min(Math.max(value, v.min), v.max) : v.value;
  return { value: to, why: `${v.label} goes from ${v.min} to ${v.max}: ${value} was set to ${to}` };
}

/**
 * Scene name → { title (of the settings folder), values: { key: { label, min, max, step, value } } (sliders; a live
 * one also has read(sim, model), its value in the run as opened, and apply(sim, model, value)),
 * actions: { key: { label, push(model, values, dt) } } (buttons; push returns { reset, steps, apply(sim, k, dt) }:
 * whether the scene starts over first, how many steps of dt, and the forces of its k-th step) }.
 */
export const SCENE_CONTROLS = {
  bowling: {
    title: 'Bowling',
    values: { speed: { label: 'Ball speed (m/s)', min: 1, max: 15, step: 0.5, value: 10 } },
    actions: {
      throw: { label: 'Throw', push: throwBall },
      resetPins: { label: 'Reset pins', push: resetPins },
    },
  },
  bristlebot: { title: 'Bristlebot', values: { motor: MOTOR }, actions: {} },
  bristlebot_enclosure: { title: 'Bristlebot', values: { motor: MOTOR }, actions: {} },
  bristlebots: { title: 'Bristlebots', values: { motor: MOTOR }, actions: {} },
};
