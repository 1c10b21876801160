// inspect.js — hands on the model: a click on a body selects it (highlighted, with an inspector panel: name,
// mass, world pose and velocity, live); Esc or a click on empty space lets go. Ctrl+drag on a body pulls the
// grabbed point toward the cursor on the plane through it facing the camera (the spring-damper of grab.js,
// run in the worker), drawn as a line from the point to the cursor.
import * as THREE from 'three';

const CLICK_PX = 5;                 // a press and release closer than this is a click, not an orbit
const HIGHLIGHT = 0x505050;         // emissive colour of the selected body: lighter, whatever its colour
const LINE_COLOR = 0xffd166;

const fmt = (v, digits = 3) => Array.from(v, (x) => x.toFixed(digits).padStart(digits + 4)).join(' ');

/** Roll, pitch, yaw (rad) of the unit quaternion [w, x, y, z]: R = Rz(yaw) Ry(pitch) Rx(roll). */
function rollPitchYaw([w, x, y, z]) {
  const roll = Math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y));
  const pitch = Math.asin(Math.min(1, Math.max(-1, 2 * (w * y - z * x))));
  const yaw = Math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
  return [roll, pitch, yaw];
}

/** The inspector on `scene` (scene.js), its panel over the view; `engine` carries the pulls to the worker. */
export function createInspector(scene, engine) {
  const { camera, canvas } = scene;
  const panel = document.createElement('pre');
  Object.assign(panel, { id: 'inspector', className: 'inspector', hidden: true });
  canvas.parentElement.append(panel);
  const raycaster = new THREE.Raycaster();
  const line = new THREE.Line(
    new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(), new THREE.Vector3()]),
    new THREE.LineBasicMaterial({ color: LINE_COLOR, depthTest: false }),
  );
  line.renderOrder = 12;
  line.frustumCulled = false;
  line.visible = false;
  scene.root.add(line);

  let view = null;      // model-view.js object of the model shown
  let info = null;      // the worker's reply to 'open'
  let frame = null;     // the last frame shown
  let selected = null;  // body index
  let lit = [];         // materials lit for the selection, with their own emissive colour
  let press = null;     // { x, y } of a press that may become a click
  let grab = null;      // { body, point, target, plane, pointerId } while Ctrl+dragging

  /** The body under the pointer: { body, point (world) }, or null for empty space. */
  function pick(e) {
    if (!view) return null;
    const r = canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(((e.clientX - r.left) / r.width) * 2 - 1, -((e.clientY - r.top) / r.height) * 2 + 1);
    raycaster.setFromCamera(ndc, camera);
    for (const hit of raycaster.intersectObjects(view.pickables, true)) {
      if (!hit.object.visible) continue;
      if (hit.object.userData.shoe0 !== undefined) return { body: hit.object.userData.shoe0 + hit.instanceId, point: hit.point };
      for (let o = hit.object; o; o = o.parent) {
        if (o.userData.body !== undefined) return { body: o.userData.body, point: hit.point };
      }
    }
    return null;
  }

  function light(on) {
    for (const { material, own } of lit) material.emissive.copy(on ? new THREE.Color(HIGHLIGHT) : own);
    scene.invalidate();
  }

  function select(body) {
    light(false);
    lit = [];
    selected = body;
    view?.body(body)?.traverse((o) => {
      if (o.isMesh && o.material.emissive) lit.push({ material: o.material, own: o.material.emissive.clone() });
    });
    light(true);
    panel.hidden = selected === null;
    show();
  }

  function show() {
    if (selected === null || !frame || !info) return;
    const i = selected;
    const pose = frame.poses.subarray(7 * i, 7 * i + 7);
    const v = frame.velocities.subarray(6 * i, 6 * i + 6);
    const rpy = rollPitchYaw(pose.subarray(3)).map((a) => (a * 180) / Math.PI);
    panel.textContent = [
      `${info.bodyNames[i]}  (body ${i}, ${info.model.bodies[i].joint})`,
      `mass       ${info.model.bodies[i].mass.toPrecision(4)} kg`,
      `position   ${fmt(pose.subarray(0, 3))} m`,
      `rpy        ${fmt(rpy, 1)} °`,
      `quaternion ${fmt(pose.subarray(3), 4)}`,
      `velocity   ${fmt(v.subarray(0, 3))} m/s`,
      `angular    ${fmt(v.subarray(3))} rad/s`,
    ].join('\n');
  }

  /** The grab's target: where the pointer's ray meets the plane through the grabbed point. */
  function target(e) {
    const r = canvas.getBoundingClientRect();
    raycaster.setFromCamera(new THREE.Vector2(((e.clientX - r.left) / r.width) * 2 - 1, -((e.clientY - r.top) / r.height) * 2 + 1), camera);
    return raycaster.ray.intersectPlane(grab.plane, new THREE.Vector3());
  }

  function drawLine(from, to) {
    line.geometry.attributes.position.setXYZ(0, ...from);
    line.geometry.attributes.position.setXYZ(1, ...to);
    line.geometry.attributes.position.needsUpdate = true;
    line.visible = true;
    scene.invalidate();
  }

  function startGrab(hit, e) {
    const k = 7 * hit.body;
    const p = frame.poses;
    const q = new THREE.Quaternion(p[k + 4], p[k + 5], p[k + 6], p[k + 3]);
    const local = hit.point.clone().sub(new THREE.Vector3(p[k], p[k + 1], p[k + 2])).applyQuaternion(q.invert());
    const normal = camera.getWorldDirection(new THREE.Vector3());
    grab = {
      body: hit.body, point: local.toArray(), start: hit.point.toArray(), target: hit.point.toArray(), pointerId: e.pointerId,
      plane: new THREE.Plane().setFromNormalAndCoplanarPoint(normal, hit.point),
    };
    engine.grab({ body: grab.body, point: grab.point, target: grab.target });
    drawLine(grab.target, grab.target);
  }

  function moveGrab(e) {
    const t = target(e);
    if (!t) return;
    grab.target = t.toArray();
    engine.grab({ body: grab.body, point: grab.point, target: grab.target });
    drawLine(line.geometry.attributes.position.array.slice(0, 3), grab.target);
  }

  function endGrab() {
    grab = null;
    line.visible = false;
    scene.invalidate();
    engine.grab(null).catch(() => {}); // the model may be gone (watchdog); nothing to let go of then
  }

  // Capturing on the canvas' parent, so that a Ctrl+press on a body never reaches the orbit controls.
  canvas.parentElement.addEventListener('pointerdown', (e) => {
    if (e.target !== canvas || e.button !== 0) return;
    if (e.ctrlKey || e.metaKey) {
      const hit = frame && pick(e);
      if (!hit) return; // Ctrl+drag on empty space pans, as the orbit controls do
      e.stopPropagation();
      e.preventDefault();
      select(hit.body);
      startGrab(hit, e);
      return;
    }
    press = { x: e.clientX, y: e.clientY };
  }, true);
  window.addEventListener('pointermove', (e) => {
    if (grab && e.pointerId === grab.pointerId) moveGrab(e);
  });
  window.addEventListener('pointerup', (e) => {
    if (grab && e.pointerId === grab.pointerId) return endGrab();
    if (press && Math.hypot(e.clientX - press.x, e.clientY - press.y) < CLICK_PX && e.target === canvas) {
      select(pick(e)?.body ?? null);
    }
    press = null;
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && selected !== null) select(null);
  });

  return {
    /** A model was opened (`view`, `opened`: model-view.js object and the worker's reply) or closed (null). */
    setModel(nextView, opened) {
      if (grab) endGrab();
      view = nextView;
      info = opened;
      frame = opened;
      lit = [];
      select(null);
    },
    /** A frame was shown: the readout and the pull's line follow it. */
    update(f) {
      frame = f;
      show();
      if (f.grab && grab) drawLine(f.grab.from, grab.target);
    },
    /** Test hooks: the selection, the readout, where a body is drawn on the page, the pull. */
    hooks: {
      selected: () => (selected === null ? null : { body: selected, name: info.bodyNames[selected] }),
      inspector: () => (panel.hidden ? null : panel.textContent),
      bodyScreenPoint(i) {
        const box = new THREE.Box3().setFromObject(view.body(i));
        const p = box.getCenter(new THREE.Vector3()).project(camera);
        const r = canvas.getBoundingClientRect();
        return { x: r.left + ((p.x + 1) / 2) * r.width, y: r.top + ((1 - p.y) / 2) * r.height };
      },
      /** While Ctrl+dragging: the grabbed point where it was pressed and in the last frame, and the cursor's. */
      grab: () => grab && { body: grab.body, start: [...grab.start], from: frame?.grab ? [...frame.grab.from] : null, to: [...grab.target] },
    },
  };
}
