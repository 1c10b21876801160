// model-view.js — the 3D objects of one model: each body drawn from its shapes, or from the box with the
// same inertia when it has none, plus joint axes and points of interest. Geometry comes from the parsed
// model (Sim.describe(), made by the C parser), never from the text.
import * as THREE from 'three';
import { DECORATIONS } from './scene.js';

const PALETTE = [0x5b8def, 0xf2a541, 0x4cc38a, 0xe5636b, 0xa57ee0, 0x47c1d1, 0xd9c24a, 0xe58ac8];
const AXIS_COLOR = { revolute: 0xffb347, prismatic: 0x4dd0e1 };

function material(rgba, index) {
  const useOwn = rgba && rgba[3] > 0;
  return new THREE.MeshStandardMaterial({
    color: useOwn ? new THREE.Color(rgba[0], rgba[1], rgba[2]) : PALETTE[index % PALETTE.length],
    opacity: useOwn ? rgba[3] : 1,
    transparent: useOwn && rgba[3] < 1,
    roughness: 0.55,
    metalness: 0.15,
  });
}

// Row-major rotation + translation → Matrix4.
export function pose(rot, pos) {
  const r = rot ?? [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const p = pos ?? [0, 0, 0];
  return new THREE.Matrix4().set(r[0], r[1], r[2], p[0], r[3], r[4], r[5], p[1], r[6], r[7], r[8], p[2], 0, 0, 0, 1);
}

export function shapeGeometry({ type, size }) {
  switch (type) {
    case 'box':
      return new THREE.BoxGeometry(size[0], size[1], size[2]);
    case 'sphere':
      return new THREE.SphereGeometry(size[0], 32, 16);
    case 'cylinder':
      return new THREE.CylinderGeometry(size[0], size[0], size[1], 32).rotateX(Math.PI / 2); // along z
    case 'capsule':
      return new THREE.CapsuleGeometry(size[0], size[1], 8, 24).rotateX(Math.PI / 2);
    default:
      return null;
  }
}

// Eigen-decomposition of a symmetric 3×3 (row-major) by Jacobi rotations: {values, vectors (columns)}.
function symmetricEigen(a) {
  const m = [[a[0], a[1], a[2]], [a[3], a[4], a[5]], [a[6], a[7], a[8]]];
  const v = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  for (let sweep = 0; sweep < 32; sweep++) {
    const off = Math.abs(m[0][1]) + Math.abs(m[0][2]) + Math.abs(m[1][2]);
    if (off < 1e-15 * (Math.abs(m[0][0]) + Math.abs(m[1][1]) + Math.abs(m[2][2]) + 1e-300)) break;
    for (const [p, q] of [[0, 1], [0, 2], [1, 2]]) {
      if (m[p][q] === 0) continue;
      const theta = (m[q][q] - m[p][p]) / (2 * m[p][q]);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1);
      const s = t * c;
      for (let k = 0; k < 3; k++) {
        const mkp = m[k][p], mkq = m[k][q];
        m[k][p] = c * mkp - s * mkq;
        m[k][q] = s * mkp + c * mkq;
      }
      for (let k = 0; k < 3; k++) {
        const mpk = m[p][k], mqk = m[q][k];
        m[p][k] = c * mpk - s * mqk;
        m[q][k] = s * mpk + c * mqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[k][p], vkq = v[k][q];
        v[k][p] = c * vkp - s * vkq;
        v[k][q] = s * vkp + c * vkq;
      }
    }
  }
  return { values: [m[0][0], m[1][1], m[2][2]], vectors: v };
}

// The solid box with the body's mass and inertia, placed at its centre of mass along the principal axes.
function inertiaBox(body, minSide, mat) {
  const { values: I, vectors: v } = symmetricEigen(body.inertia);
  const side = (i) => Math.max(Math.sqrt(Math.max(0, (6 / body.mass) * (I[(i + 1) % 3] + I[(i + 2) % 3] - I[i]))), minSide);
  const mesh = new THREE.Mesh(new THREE.BoxGeometry(side(0), side(1), side(2)), mat);
  mesh.applyMatrix4(pose([v[0][0], v[0][1], v[0][2], v[1][0], v[1][1], v[1][2], v[2][0], v[2][1], v[2][2]], body.com));
  return mesh;
}

function axisArrow(body, length) {
  const dir = new THREE.Vector3(...body.axis).normalize();
  const color = AXIS_COLOR[body.joint];
  const arrow = new THREE.ArrowHelper(dir, dir.clone().multiplyScalar(-length / 2), length, color, length * 0.22, length * 0.12);
  arrow.line.material.depthTest = false;
  arrow.cone.material.depthTest = false;
  arrow.renderOrder = 10;
  return arrow;
}

// A length scale from the tree offsets, used to size markers before the scene has been framed.
function modelScale(model) {
  let s = 0;
  for (const b of model.bodies) s = Math.max(s, Math.hypot(...b.pos), Math.hypot(...b.com));
  for (const sh of model.shapes) s = Math.max(s, ...sh.size);
  return s > 0 ? s : 0.5;
}

/**
 * The 3D view of a model: `info` is the worker's reply to 'open'. Bodies another view draws (a band's shoes
 * and its shapeless rollers: track-view.js) are in `drawn`, which get no shape or box here; those in `noAxis`
 * (the shoes' pins) get no joint axis. `meshes`: the geometry of each of the model's meshes (mesh-assets.js),
 * null where its file is not at hand; a body drawn with meshes shows them alone (its other shapes still collide).
 */
const IDENTITY = new THREE.Matrix4();

export function createModelView(info, { drawn = new Set(), noAxis = new Set(), meshes = [] } = {}) {
  const { nb, model } = info;
  const scale = modelScale(model);
  const group = new THREE.Group();
  const solids = new THREE.Group();
  const axes = new THREE.Group();
  const pois = new THREE.Group();
  const statics = new THREE.Group(); // XPBD's static colliders: drawn, but not framed (bounds covers the bodies)
  group.add(solids, statics, axes, pois);

  const frames = [];
  for (let i = 0; i < nb; i++) {
    const frame = new THREE.Group();
    frame.userData.body = i; // what a pick on its meshes finds (inspect.js)
    frames.push(frame);
    solids.add(frame);
  }

  const hasShape = new Set();
  const meshObjects = []; // the solids drawn from mesh files
  const meshOf = (sh) => (sh.type === 'mesh' ? meshes[sh.mesh] ?? null : null);
  const withMeshes = new Set(model.shapes.filter((sh) => meshOf(sh)).map((sh) => sh.body));
  model.shapes.forEach((sh) => {
    if (drawn.has(sh.body) || (withMeshes.has(sh.body) && sh.type !== 'mesh')) return;
    const geometry = sh.type === 'mesh' ? meshOf(sh) : shapeGeometry(sh);
    if (!geometry) return;
    const mesh = new THREE.Mesh(geometry, material(sh.rgba, sh.body));
    mesh.applyMatrix4(pose(sh.rot, sh.pos));
    frames[sh.body].add(mesh);
    hasShape.add(sh.body);
    if (sh.type === 'mesh') meshObjects.push(mesh);
  });
  // XPBD's static colliders, fixed in the world: boxes as they are, planes as a translucent square.
  (model.statics ?? []).forEach((sh) => {
    const geometry = sh.type === 'plane' ? new THREE.PlaneGeometry(8 * scale, 8 * scale) : shapeGeometry(sh);
    const mat = sh.type === 'plane'
      ? new THREE.MeshStandardMaterial({ color: 0x8090a0, transparent: true, opacity: 0.35, side: THREE.DoubleSide })
      : material(sh.rgba[3] > 0 ? sh.rgba : [0.45, 0.48, 0.53, 1], 0);
    const mesh = new THREE.Mesh(geometry, mat);
    mesh.applyMatrix4(pose(sh.rot, sh.pos));
    statics.add(mesh);
  });
  model.bodies.forEach((b, i) => {
    if (!hasShape.has(i) && b.mass > 0 && !drawn.has(i)) frames[i].add(inertiaBox(b, scale * 0.03, material(null, i)));
    if ((b.joint === 'revolute' || b.joint === 'prismatic') && !noAxis.has(i)) {
      const arrow = axisArrow(b, scale * 0.4);
      arrow.userData.body = i;
      axes.add(arrow);
    }
  });
  // Points of interest: one instanced draw for all of them, each instance placed on its body every update.
  const dot = new THREE.SphereGeometry(scale * 0.035, 8, 6);
  const poiMat = new THREE.MeshBasicMaterial({ color: 0xff4fa3, depthTest: false });
  const poiMesh = new THREE.InstancedMesh(dot, poiMat, Math.max(model.pois.length, 1));
  poiMesh.count = model.pois.length;
  poiMesh.renderOrder = 11;
  poiMesh.frustumCulled = false;
  const poiLocal = model.pois.map((p) => new THREE.Matrix4().makeTranslation(p.pos[0], p.pos[1], p.pos[2]));
  const poiMatrix = new THREE.Matrix4();
  pois.add(poiMesh);
  for (const g of [solids, statics]) {
    g.traverse((o) => {
      if (o.isMesh) o.castShadow = o.receiveShadow = true;
    });
  }
  for (const g of [axes, pois]) g.traverse((o) => o.layers.set(DECORATIONS));

  // Axes and POIs are drawn on top, so they follow their body's frame without being parented to it.
  const followers = [...axes.children];
  const local = followers.map((o) => o.matrix.clone().compose(o.position, o.quaternion, o.scale));
  for (const o of followers) o.matrixAutoUpdate = false;

  return {
    group,
    /** Fixed to the world (no floating body): it moves within its reach of the origin. */
    anchored: !model.bodies.some((b) => b.joint === 'floating'),
    update(poses) {
      for (let i = 0; i < nb; i++) {
        const k = 7 * i;
        frames[i].position.set(poses[k], poses[k + 1], poses[k + 2]);
        frames[i].quaternion.set(poses[k + 4], poses[k + 5], poses[k + 6], poses[k + 3]);
        frames[i].updateMatrix();
      }
      // A POI on the base (body -1, e.g. a loop's ground anchor) stays where it is.
      followers.forEach((o, j) => o.matrix.copy(local[j]).premultiply(frames[o.userData.body]?.matrix ?? IDENTITY));
      model.pois.forEach((p, j) => {
        poiMesh.setMatrixAt(j, poiMatrix.copy(poiLocal[j]).premultiply(frames[p.body]?.matrix ?? IDENTITY));
      });
      poiMesh.instanceMatrix.needsUpdate = true;
    },
    /** What a click can pick (inspect.js): the bodies' solids; other views add theirs. */
    pickables: [solids],
    /** The solids drawn from mesh files. */
    meshObjects: () => meshObjects,
    /** Body i's frame, its meshes as children. */
    body(i) {
      return frames[i] ?? null;
    },
    /** World bounding box of the bodies' solids at the last update (not the static colliders: a small robot on a
     * large floor box fills the view). */
    bounds() {
      group.updateMatrixWorld(true);
      return new THREE.Box3().setFromObject(solids);
    },
    /** The middle of the solids' box at the last update: what camera-follow keeps in place (a turning vehicle too). */
    centre() {
      return this.bounds().getCenter(new THREE.Vector3());
    },
    setAxesVisible(v) {
      axes.visible = v;
    },
    setPoisVisible(v) {
      pois.visible = v;
    },
    dispose() {
      group.traverse((o) => {
        o.geometry?.dispose();
        o.material?.dispose?.();
      });
    },
  };
}
