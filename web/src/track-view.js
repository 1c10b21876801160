// track-view.js — tracked vehicles on the page: every band's shoes as one THREE.InstancedMesh (one instance
// per shoe, placed from the shoe body's pose every frame), rollers as cylinders at their contact radius,
// the terrain as a mesh through the heights the C terrain computes (Sim.terrainHeights, sampled by the
// worker when the model opens), and optional arrows of the ground's force: on each shoe and each tire (instanced) and in all. Everything comes
// from Sim.describe() (tracks, ground) and the frame's poses; nothing is allocated per frame.
import * as THREE from 'three';
import { mergeGeometries } from 'three/addons/utils/BufferGeometryUtils.js';
import { pose, shapeGeometry } from './model-view.js';

const SHOE_COLOR = 0x3d4450;
const ROLLER_COLOR = 0x23272e;
const TERRAIN_LIGHT = '#5d6a55';
const TERRAIN_DARK = '#4f5b48';
const ARROW_COLOR = 0xffd54a;
const SHOE_ARROW_COLOR = 0xff8a3d;
const SHOE_ARROW_SHARE = 4; // a shoe's arrow is 1 m long at a quarter of the vehicle's weight
const CHECKER_M = 1;        // terrain checker tile (m): a moving vehicle is seen moving on a plain plane

/**
 * Bodies the track view draws itself, for model-view.js: `drawn` (no solid there: the shoes, and rollers
 * the model gives no shape) and `noAxis` (no joint axis: the shoes' pins).
 */
export function trackBodies(model) {
  const drawn = new Set();
  const noAxis = new Set();
  const withShape = new Set(model.shapes.map((s) => s.body));
  for (const t of model.tracks ?? []) {
    for (let s = 0; s < t.nshoe; s++) {
      drawn.add(t.shoe0 + s);
      noAxis.add(t.shoe0 + s);
    }
    for (const r of t.rollers) if (!withShape.has(r.body)) drawn.add(r.body);
  }
  return { drawn, noAxis };
}

function checkerTexture() {
  const c = document.createElement('canvas');
  c.width = c.height = 64;
  const g = c.getContext('2d');
  g.fillStyle = TERRAIN_LIGHT;
  g.fillRect(0, 0, 64, 64);
  g.fillStyle = TERRAIN_DARK;
  g.fillRect(0, 0, 32, 32);
  g.fillRect(32, 32, 32, 32);
  const tex = new THREE.CanvasTexture(c);
  tex.wrapS = tex.wrapT = THREE.RepeatWrapping;
  tex.colorSpace = THREE.SRGBColorSpace;
  return tex;
}

/** The terrain mesh through heights h[j·nx + i] at (xs[i], ys[j]); uv in checker tiles of world x, y. */
function terrainMesh({ xs, ys, h }) {
  const nx = xs.length, ny = ys.length;
  const pos = new Float32Array(3 * nx * ny);
  const uv = new Float32Array(2 * nx * ny);
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const k = j * nx + i;
      pos.set([xs[i], ys[j], h[k]], 3 * k);
      uv.set([xs[i] / (2 * CHECKER_M), ys[j] / (2 * CHECKER_M)], 2 * k);
    }
  }
  const index = [];
  for (let j = 0; j + 1 < ny; j++) {
    for (let i = 0; i + 1 < nx; i++) {
      const a = j * nx + i, b = a + 1, c = a + nx, d = c + 1;
      index.push(a, b, d, a, d, c);
    }
  }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(pos, 3));
  geometry.setAttribute('uv', new THREE.BufferAttribute(uv, 2));
  geometry.setIndex(index);
  geometry.computeVertexNormals();
  // Lambert, no anisotropic filtering: the terrain fills most of the view, and a software renderer pays per
  // pixel (track_demo in headless chromium on a loaded machine: 14–24 fps with the standard material, 22–33 with this one).
  const mesh = new THREE.Mesh(geometry, new THREE.MeshLambertMaterial({ map: checkerTexture() }));
  mesh.receiveShadow = true;
  mesh.name = 'terrain';
  return mesh;
}

/**
 * Adds the bands, rollers, terrain and ground-reaction arrow of `info` (the worker's 'open' reply: model =
 * sim.describe(), terrain = sampled heights; every frame's poses and ground = sim.groundReaction()) to a
 * model view (model-view.js). A view of a model without tracks or ground is returned unchanged.
 */
export function attachTracks(view, info) {
  const { model } = info;
  const tracks = model.tracks ?? [];
  if (!tracks.length && !model.ground) return view;
  const group = new THREE.Group();
  group.name = 'tracks';
  view.group.add(group);

  // Shoes: the first shoe's shapes (the parser gives every shoe the same plate), or the pad plate under the
  // pin line (shoe frame: x along the band from the leading pin, y the pin axis), merged into one geometry
  // drawn once per shoe.
  const bands = tracks.map((t) => {
    const shapes = model.shapes.filter((sh) => sh.body === t.shoe0);
    const parts = shapes.map((sh) => shapeGeometry(sh)?.applyMatrix4(pose(sh.rot, sh.pos))).filter(Boolean);
    const geometry = parts.length === 1 ? parts[0] : new THREE.BoxGeometry(t.padLength, t.padWidth, t.thickness)
      .translate(t.link / 2, 0, t.padZ + t.thickness / 2);
    const own = shapes.length === 1 && shapes[0].rgba[3] > 0 ? shapes[0].rgba : null;
    const color = own ? new THREE.Color(own[0], own[1], own[2]) : SHOE_COLOR;
    const mesh = new THREE.InstancedMesh(geometry, new THREE.MeshStandardMaterial({ color, roughness: 0.6, metalness: 0.35 }), t.nshoe);
    mesh.castShadow = mesh.receiveShadow = true;
    mesh.frustumCulled = false; // instances move every frame
    mesh.name = `band ${t.name}`;
    mesh.userData.shoe0 = t.shoe0; // instance k is body shoe0 + k (inspect.js picks it)
    view.pickables.push(mesh);
    group.add(mesh);
    return { t, mesh };
  });

  // Rollers the model gives no shape: a cylinder at the contact radius, as wide as the pads, on the body.
  const withShape = new Set(model.shapes.map((s) => s.body));
  const rollers = [];
  for (const t of tracks) {
    for (const r of t.rollers) {
      if (withShape.has(r.body)) continue;
      // three's cylinder runs along y; the roller turns about its joint axis.
      const geometry = new THREE.CylinderGeometry(r.radius, r.radius, t.padWidth * 0.9, 32)
        .applyQuaternion(new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(0, 1, 0), new THREE.Vector3(...model.bodies[r.body].axis).normalize()));
      const mesh = new THREE.Mesh(geometry, new THREE.MeshStandardMaterial({ color: ROLLER_COLOR, roughness: 0.5, metalness: 0.3 }));
      mesh.castShadow = mesh.receiveShadow = true;
      mesh.matrixAutoUpdate = false;
      group.add(mesh);
      rollers.push({ body: r.body, mesh });
    }
  }

  // The terrain is the view's environment, not part of the model: the scene adds it beside the model's group
  // (so hiding the model, as the canvas checks do, leaves the ground).
  const terrain = info.terrain ? terrainMesh(info.terrain) : null;

  // The ground's total reaction, drawn from the middle of the run on the ground, 1 m per vehicle weight.
  const weight = model.bodies.reduce((s, b) => s + b.mass, 0) * Math.hypot(...model.gravity) || 1;
  const arrow = new THREE.ArrowHelper(new THREE.Vector3(0, 0, 1), new THREE.Vector3(), 1, ARROW_COLOR, 0.12, 0.07);
  arrow.visible = false;
  arrow.line.material.depthTest = false;
  arrow.cone.material.depthTest = false;
  arrow.renderOrder = 12;
  if (model.ground) group.add(arrow);
  const dir = new THREE.Vector3();
  const rollerBox = new THREE.Box3();

  // Per shoe, the ground's force on it (sim.groundForces: its four pad corners summed): one instanced arrow per
  // shoe from the middle of its pad, 1 m per a quarter of the vehicle's weight; a shoe off the ground has none.
  const shaft = new THREE.CylinderGeometry(0.012, 0.012, 0.8, 8).translate(0, 0.4, 0);
  const head = new THREE.ConeGeometry(0.035, 0.2, 12).translate(0, 0.9, 0);
  const arrowGeometry = mergeGeometries([shaft, head]); // along +y, length 1
  shaft.dispose();
  head.dispose();
  // Tires (`tire` blocks) get one the same way: their wheel's ground force (its tire's, sim.groundForces) from
  // the bottom of the wheel.
  const tires = model.tires ?? [];
  const shoeCount = tracks.reduce((n, t) => n + t.nshoe, 0);
  const shoeArrows = new THREE.InstancedMesh(arrowGeometry, new THREE.MeshBasicMaterial({ color: SHOE_ARROW_COLOR, depthTest: false }), Math.max(shoeCount + tires.length, 1));
  shoeArrows.count = shoeCount + tires.length;
  shoeArrows.renderOrder = 12;
  shoeArrows.frustumCulled = false;
  shoeArrows.visible = false;
  if (model.ground && shoeCount + tires.length) group.add(shoeArrows);
  const Y = new THREE.Vector3(0, 1, 0);
  const stretch = new THREE.Vector3();
  const turn = new THREE.Quaternion();
  const NONE = new THREE.Matrix4().makeScale(0, 0, 0);

  // Where the arrow starts: the mean pin of the shoes below their band's mean height (the run on the
  // ground), or under the first body when the model has no band.
  function lowerRun(poses, out) {
    let n = 0, zMean = 0;
    out.set(0, 0, 0);
    for (let b = 0; b < bands.length; b++) {
      const t = bands[b].t;
      for (let s = 0; s < t.nshoe; s++) zMean += poses[7 * (t.shoe0 + s) + 2];
      n += t.nshoe;
    }
    zMean /= n || 1;
    n = 0;
    for (let b = 0; b < bands.length; b++) {
      const t = bands[b].t;
      for (let s = 0; s < t.nshoe; s++) {
        const k = 7 * (t.shoe0 + s);
        if (poses[k + 2] > zMean) continue;
        out.x += poses[k];
        out.y += poses[k + 1];
        out.z += poses[k + 2];
        n++;
      }
    }
    if (n) out.divideScalar(n);
    else out.set(poses[0], poses[1], poses[2]);
  }

  const position = new THREE.Vector3();
  const quaternion = new THREE.Quaternion();
  const unit = new THREE.Vector3(1, 1, 1);
  const matrix = new THREE.Matrix4();
  let arrowWanted = false;

  const { update, bounds, dispose } = view;
  return Object.assign(view, {
    /** The ground the scene shows beside the model, instead of its floor grid and shadow plane; or null. */
    environment: terrain,
    dispose() {
      dispose();
      terrain?.geometry.dispose();
      terrain?.material.map?.dispose();
      terrain?.material.dispose();
    },
    update(poses, frame) {
      update(poses, frame);
      // Index loops only: this runs every frame and allocates nothing (no iterators, no closures).
      for (let b = 0; b < bands.length; b++) {
        const { t, mesh } = bands[b];
        for (let s = 0; s < t.nshoe; s++) {
          const k = 7 * (t.shoe0 + s);
          position.set(poses[k], poses[k + 1], poses[k + 2]);
          quaternion.set(poses[k + 4], poses[k + 5], poses[k + 6], poses[k + 3]);
          mesh.setMatrixAt(s, matrix.compose(position, quaternion, unit));
        }
        mesh.instanceMatrix.needsUpdate = true;
      }
      for (let r = 0; r < rollers.length; r++) {
        const { body, mesh } = rollers[r];
        const k = 7 * body;
        position.set(poses[k], poses[k + 1], poses[k + 2]);
        quaternion.set(poses[k + 4], poses[k + 5], poses[k + 6], poses[k + 3]);
        mesh.matrix.compose(position, quaternion, unit);
      }
      const perShoe = frame?.groundForces;
      shoeArrows.visible = arrowWanted && Boolean(perShoe);
      if (shoeArrows.visible) {
        let i = 0;
        for (let b = 0; b < bands.length; b++) {
          const { t } = bands[b];
          for (let s = 0; s < t.nshoe; s++, i++) {
            const body = t.shoe0 + s, k = 7 * body;
            const fx = perShoe[3 * body], fy = perShoe[3 * body + 1], fz = perShoe[3 * body + 2];
            const n = Math.hypot(fx, fy, fz);
            if (!(n > 0)) {
              shoeArrows.setMatrixAt(i, NONE);
              continue;
            }
            quaternion.set(poses[k + 4], poses[k + 5], poses[k + 6], poses[k + 3]);
            position.set(t.link / 2, 0, t.padZ).applyQuaternion(quaternion);
            position.x += poses[k];
            position.y += poses[k + 1];
            position.z += poses[k + 2];
            turn.setFromUnitVectors(Y, dir.set(fx / n, fy / n, fz / n));
            stretch.set(1, (SHOE_ARROW_SHARE * n) / weight, 1);
            shoeArrows.setMatrixAt(i, matrix.compose(position, turn, stretch));
          }
        }
        for (const tire of tires) {
          const body = tire.body, k = 7 * body;
          const fx = perShoe[3 * body], fy = perShoe[3 * body + 1], fz = perShoe[3 * body + 2];
          const n = Math.hypot(fx, fy, fz);
          if (!(n > 0)) {
            shoeArrows.setMatrixAt(i++, NONE);
            continue;
          }
          position.set(poses[k], poses[k + 1], poses[k + 2] - tire.radius);
          turn.setFromUnitVectors(Y, dir.set(fx / n, fy / n, fz / n));
          stretch.set(1, (SHOE_ARROW_SHARE * n) / weight, 1);
          shoeArrows.setMatrixAt(i++, matrix.compose(position, turn, stretch));
        }
        shoeArrows.instanceMatrix.needsUpdate = true;
      }
      const f = frame?.ground;
      arrow.visible = arrowWanted && Boolean(f);
      if (arrow.visible) {
        lowerRun(poses, arrow.position);
        const n = Math.hypot(f[0], f[1], f[2]);
        if (n > 0) arrow.setDirection(dir.set(f[0] / n, f[1] / n, f[2] / n));
        arrow.setLength(Math.max(n / weight, 1e-3), 0.12, 0.07);
      }
    },
    /** The vehicle's box (the terrain reaches far: the camera frames the vehicle, not the ground). */
    bounds() {
      const box = bounds();
      for (const { mesh } of bands) {
        mesh.computeBoundingBox();
        box.union(mesh.boundingBox);
      }
      for (const { mesh } of rollers) {
        mesh.geometry.computeBoundingBox();
        box.union(rollerBox.copy(mesh.geometry.boundingBox).applyMatrix4(mesh.matrix));
      }
      return box;
    },
    /** What is drawn, for the tests: per band its instanced mesh's instance count, rollers, terrain. */
    trackStats() {
      return {
        bands: bands.map(({ t, mesh }) => ({ name: t.name, instanced: mesh.isInstancedMesh, instances: mesh.count, shoes: t.nshoe })),
        rollers: rollers.length,
        terrain: terrain ? { vertices: terrain.geometry.attributes.position.count } : null,
        forceArrow: arrow.visible,
        shoeArrows: shoeArrows.visible ? shoeArrows.count : 0,
      };
    },
    setForcesVisible(v) {
      arrowWanted = v;
      arrow.visible = v && arrow.visible;
      shoeArrows.visible = v && shoeArrows.visible;
    },
  });
}
