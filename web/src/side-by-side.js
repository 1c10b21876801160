// side-by-side.js — the "Side by side: XPBD" toggle of the Settings panel: the worker also runs the open model on
// XPBD (xpbd-copy.js) with the same dt, inputs and steps, and the page draws that run as a ghost over the
// Featherstone one. The plot's signals for it (gap, residuals) are in plots.js.
import * as THREE from 'three';
import { createModelView } from './model-view.js';

const OPACITY = 0.45;
const TINT = 0xcfe6ff; // one pale colour, so the ghost reads over the solid model's own colours
const OUTLINE = 0xff9f1c; // its edges in a contrasting orange, opaque, so the ghost stands out where it overlaps
const ON_TITLE = 'Also runs this model on XPBD (same dt, tau, gravity and steps), drawn as a ghost over this run';

/**
 * The model's view as a ghost: one translucent tint with its solids' edges outlined in a contrasting colour,
 * drawn over coincident solids, no shadows, no markers.
 */
function createGhost(info) {
  const view = createModelView(info);
  view.setAxesVisible(false);
  view.setPoisVisible(false);
  const meshes = [];
  view.group.traverse((o) => o.isMesh && meshes.push(o));
  for (const o of meshes) {
    o.castShadow = o.receiveShadow = false;
    Object.assign(o.material, {
      transparent: true, opacity: OPACITY, depthWrite: false,
      polygonOffset: true, polygonOffsetFactor: -1, polygonOffsetUnits: -1,
    });
    o.material.color?.set(TINT);
    if (o.isInstancedMesh) continue; // instanced parts (a track's shoes) keep the tint alone
    const edges = new THREE.LineSegments(new THREE.EdgesGeometry(o.geometry, 30),
      new THREE.LineBasicMaterial({ color: OUTLINE, depthTest: false, transparent: true, opacity: 0.9 }));
    edges.renderOrder = 2;
    o.add(edges);
  }
  return view;
}

/**
 * The toggle, in `gui` (the Settings panel); `onToggle(on)` asks the worker and resolves false when that
 * failed, which turns the toggle back. The ghost is drawn in `scene`.
 */
export function createSideBySide(gui, scene, onToggle) {
  const folder = gui.addFolder('Compare');
  const setting = { on: false };
  const toggle = folder.add(setting, 'on').name('Side by side: XPBD').onChange(async (on) => {
    if (await onToggle(on)) return;
    setting.on = false;
    toggle.updateDisplay();
  });
  let info = null;   // the open model (the worker's reply to 'open')
  let ghost = null;  // its ghost view, while frames carry the XPBD copy
  let last = null;   // the last frame's report of the copy
  let reason = 'No model is open.'; // why the toggle is disabled, or null

  function hide() {
    if (!ghost) return;
    scene.root.remove(ghost.group);
    ghost.dispose();
    ghost = null;
    scene.invalidate();
  }

  return {
    get on() {
      return setting.on;
    },
    /** A newly opened model (null: none): off, and enabled when XPBD can run it beside (info.sideBySide). */
    setModel(next) {
      info = next;
      hide();
      last = null;
      setting.on = false;
      toggle.updateDisplay();
      reason = next ? next.sideBySide.reason : 'No model is open.';
      toggle.disable(Boolean(reason));
      folder.domElement.title = reason ?? ON_TITLE; // on the folder: a disabled controller takes no hover
    },
    /** A frame: poses the ghost from the XPBD copy's poses (f.ghost), or removes it when there is none. */
    update(f) {
      last = f.ghost;
      if (!last) return hide();
      if (!ghost) {
        ghost = createGhost(info);
        scene.root.add(ghost.group);
      }
      ghost.update(last.poses);
    },
    hooks: {
      /** Side by side as shown: the toggle, whether a ghost is drawn, and the last frame's gap and residuals. */
      sideBySide: () => ({
        on: setting.on,
        enabled: !reason,
        title: folder.domElement.title,
        ghost: ghost !== null,
        gap: last?.gap ?? null,
        primal: last?.primal ?? null,
        constraint: last?.constraint ?? null,
      }),
    },
  };
}
