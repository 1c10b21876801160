// contact-settings.js — the page's drawn floor as a real collider (Settings: "floor collides") and the contacts
// drawn (Settings: "contacts", the C key): their defaults per model, and their requests to the worker
// (docs/playground.md, "Floor and contacts").
import { createContactDraw } from './contact-draw.js';
import { page } from './page-state.js';
import { banner, describeError } from './status.js';
import { restarted } from './engine.js';

/** Why the model shown cannot have the floor, or '' when it can. */
function floorRefused(info) {
  if (info.engine !== 'featherstone') return 'An XPBD scene has its own floor (a static plane in its file)';
  if (info.model.ground) return 'This model has a ground of its own';
  return '';
}

/**
 * The floor's default for a model: on for a floating model whose file asks for contact (a `contact` line: its body
 * colliders touch) and brings no floor of its own (a `static plane`), which would otherwise fall through the floor
 * drawn; off for the rest, so that the mechanisms fixed to the world and the shipped demos without contact (the
 * satellite in free fall, the vehicles on their rigs) run as they always have.
 */
function floorDefault(model) {
  return model.contact && model.bodies.some((b) => b.joint === 'floating')
    && !model.statics.some((s) => s.type === 'plane');
}

/**
 * The floor toggle and the contact drawing, wired to `engine` (engine.js), `controls` (controls.js) and `scene`
 * (scene.js).
 */
export function createContactSettings({ engine, controls, scene }) {
  const draw = createContactDraw(scene.root, () => scene.invalidate());
  let contactsOn = false;

  async function sendFloor(on) {
    if (!page.info) return;
    try {
      await engine.floor(on, scene.floorHeight());
    } catch (e) {
      if (!restarted(e)) banner(`The floor was not changed: ${describeError(e)}`);
    }
  }

  return {
    draw,
    /**
     * A model was opened (`info`, the worker's reply) and drawn (its extent `extent`, a THREE.Box3): the floor
     * toggle set to its default when the model is new to the view (`fresh`), else as it was, or as a share link
     * says (`linked`, a boolean or undefined); sent to the worker before its first step.
     */
    opened(info, extent, { fresh, linked }) {
      const why = floorRefused(info);
      const on = !why && (typeof linked === 'boolean' ? linked
        : fresh ? floorDefault(info.model) : controls.settings.floor);
      // A mechanism fixed to the world hangs or swings where the floor is drawn, under its reach: no toggle.
      controls.setFloor(on, { why, shown: info.model.bodies.some((b) => b.joint === 'floating') });
      if (on) sendFloor(true);
      const weight = info.model.bodies.reduce((s, b) => s + b.mass, 0) * Math.hypot(...info.model.gravity);
      draw.setModel(extent, weight);
      if (contactsOn) engine.showContacts(true).catch(() => {}); // a fresh worker's frames carry none
    },
    /** The floor toggle changed. */
    setFloor: sendFloor,
    /** The contacts toggle is `on`: the worker's frames carry them, and they are drawn. */
    async showContacts(on) {
      if (on === contactsOn) return;
      contactsOn = on;
      draw.setVisible(on);
      if (!page.info) return;
      try {
        draw.update((await engine.showContacts(on)).contacts);
      } catch (e) {
        if (!restarted(e)) banner(`Contacts: ${describeError(e)}`);
      }
    },
  };
}
