// contact-draw.js — the contacts of the last step drawn on a toggle (Settings, or the C key as in MuJoCo's viewer):
// a marker at each contact point and an arrow for the contact force on the first collider (normal plus friction;
// Sim.contacts() and contactForces(), docs/contact.md). Instanced meshes, rewritten in place each frame; they grow
// (doubling) only when a frame has more contacts than ever before.
import * as THREE from 'three';

const FIRST_CAPACITY = 64;
const MARKER = 0.025;    // marker radius, in the model's reach
const SHAFT = 0.008;     // arrow shaft radius, in the model's reach
const HEAD = 0.06;       // arrow head length, in the model's reach (its radius: half that)
const LONGEST = 1.5;     // the longest arrow, in the model's reach
const STRIDE = 10;       // doubles per contact in a frame's `contacts`: point, normal, normal force, friction

const UP = new THREE.Vector3(0, 1, 0); // the axis of three.js's cylinder and cone

/**
 * The contact drawing, added to `root` (a THREE.Scene); `invalidate()` asks for a redraw. Arrows are scaled so
 * that the model's weight is as long as its reach (setModel).
 */
export function createContactDraw(root, invalidate) {
  const group = new THREE.Group();
  group.visible = false;
  root.add(group);
  const materials = {
    marker: new THREE.MeshBasicMaterial({ color: 0xff3b30, depthTest: false, transparent: true, opacity: 0.9 }),
    arrow: new THREE.MeshBasicMaterial({ color: 0xffd60a, depthTest: false, transparent: true, opacity: 0.85 }),
  };
  const geometries = {
    marker: new THREE.SphereGeometry(1, 12, 8),
    shaft: new THREE.CylinderGeometry(1, 1, 1, 8).translate(0, 0.5, 0), // from its base, along y
    head: new THREE.ConeGeometry(0.5, 1, 12).translate(0, -0.5, 0),     // its tip at the origin
  };
  let meshes = null;
  let capacity = 0;
  let shown = 0;
  let reach = 1;
  let perNewton = 0; // arrow length per N
  let on = false;

  // Instanced meshes for `n` contacts (the old ones dropped): the only allocation, when a frame has more contacts.
  function grow(n) {
    capacity = Math.max(FIRST_CAPACITY, 2 * capacity);
    while (capacity < n) capacity *= 2;
    for (const m of Object.values(meshes ?? {})) {
      group.remove(m);
      m.dispose();
    }
    meshes = {
      marker: new THREE.InstancedMesh(geometries.marker, materials.marker, capacity),
      shaft: new THREE.InstancedMesh(geometries.shaft, materials.arrow, capacity),
      head: new THREE.InstancedMesh(geometries.head, materials.arrow, capacity),
    };
    for (const m of Object.values(meshes)) {
      m.frustumCulled = false;
      m.renderOrder = 10; // over the bodies (no depth test): the points sit between the surfaces, under a foot
      m.count = 0;
      group.add(m);
    }
  }

  const at = new THREE.Vector3();
  const force = new THREE.Vector3();
  const turn = new THREE.Quaternion();
  const size = new THREE.Vector3();
  const matrix = new THREE.Matrix4();
  const tip = new THREE.Vector3();

  /** Draws the contacts of a frame: `contacts` holds STRIDE doubles per contact (worker.js), or null. */
  function update(contacts) {
    const n = on && contacts ? contacts.length / STRIDE : 0;
    if (n === 0 && shown === 0) return;
    if (n > capacity) grow(n);
    const marker = reach * MARKER;
    const head = reach * HEAD;
    let arrows = 0;
    for (let k = 0; k < n; k++) {
      const c = STRIDE * k; // point, normal, normal force, friction force
      at.set(contacts[c], contacts[c + 1], contacts[c + 2]);
      meshes.marker.setMatrixAt(k, matrix.compose(at, turn.identity(), size.setScalar(marker)));
      const fn = contacts[c + 6];
      force.set(contacts[c + 3] * fn + contacts[c + 7], contacts[c + 4] * fn + contacts[c + 8],
        contacts[c + 5] * fn + contacts[c + 9]);
      const length = Math.min(force.length() * perNewton, reach * LONGEST);
      if (!(length > marker)) continue; // no force worth an arrow
      turn.setFromUnitVectors(UP, force.normalize());
      const shaft = Math.max(length - head, 0);
      meshes.shaft.setMatrixAt(arrows, matrix.compose(at, turn, size.set(reach * SHAFT, shaft, reach * SHAFT)));
      tip.copy(force).multiplyScalar(length).add(at);
      meshes.head.setMatrixAt(arrows, matrix.compose(tip, turn, size.set(head, Math.min(head, length), head)));
      arrows++;
    }
    if (meshes) {
      meshes.marker.count = n;
      meshes.shaft.count = meshes.head.count = arrows;
      for (const m of Object.values(meshes)) m.instanceMatrix.needsUpdate = true;
    }
    shown = n;
    invalidate();
  }

  return {
    update,
    /** Shown or hidden (the frames carry contacts only while shown: worker.js). */
    setVisible(visible) {
      on = visible;
      group.visible = visible;
      if (!visible) update(null);
      invalidate();
    },
    /** Scales the drawing to a model of `extent` (a THREE.Box3) and `weight` (N): the weight is its reach long. */
    setModel(extent, weight) {
      reach = extent ? Math.max(extent.max.length(), extent.min.length(), extent.getSize(size).length() / 2, 0.05) : 1;
      perNewton = weight > 0 ? reach / weight : 0;
      update(null);
    },
    hooks: {
      /** The contact markers and force arrows drawn now. */
      contactsDrawn: () => ({
        markers: meshes?.marker.count ?? 0, arrows: meshes?.shaft.count ?? 0, visible: group.visible,
      }),
    },
  };
}
