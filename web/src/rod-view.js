// rod-view.js — Cosserat rods on the page: smooth tubes swept along each rod's interpolated centreline
// (sim.rodCentreline, so a cubic element is drawn curved and the tube turns with the material frame), and
// the rod sliders (E, damping, element count and order), which rebuild the model from edited text.
import * as THREE from 'three';
import GUI from 'lil-gui';

const RADIAL = 16;                  // vertices around the tube
const DEFAULT_COLOR = 0xc87533;

/**
 * A tube whose rings sit at the samples of `data` (Float64Array(12(n + 1)): positions, then row-major
 * frames): ring k is p_k + r (cos θ d1_k + sin θ d2_k); the normals are the ring directions.
 */
function createTube(rod, n, radius) {
  const rings = n + 1;
  const positions = new Float32Array(3 * rings * (RADIAL + 1));
  const normals = new Float32Array(positions.length);
  const index = [];
  for (let k = 0; k < n; k++) {
    for (let j = 0; j < RADIAL; j++) {
      const a = k * (RADIAL + 1) + j;
      const b = a + RADIAL + 1;
      index.push(a, b, a + 1, b, b + 1, a + 1);
    }
  }
  // End caps: a centre vertex each, fanned to the first / last ring.
  const capBase = rings * (RADIAL + 1);
  for (let j = 0; j < RADIAL; j++) {
    index.push(capBase, j + 1, j);
    const last = n * (RADIAL + 1);
    index.push(capBase + 1, last + j, last + j + 1);
  }
  const geometry = new THREE.BufferGeometry();
  const pos = new THREE.BufferAttribute(new Float32Array(positions.length + 6), 3);
  const nor = new THREE.BufferAttribute(new Float32Array(normals.length + 6), 3);
  pos.setUsage(THREE.DynamicDrawUsage);
  nor.setUsage(THREE.DynamicDrawUsage);
  geometry.setAttribute('position', pos);
  geometry.setAttribute('normal', nor);
  geometry.setIndex(index);
  const color = rod.color ? new THREE.Color(...rod.color) : new THREE.Color(DEFAULT_COLOR);
  const mesh = new THREE.Mesh(geometry, new THREE.MeshStandardMaterial({ color, roughness: 0.45, metalness: 0.15 }));
  mesh.castShadow = mesh.receiveShadow = true;
  mesh.frustumCulled = false; // the vertices move every frame

  const cos = Float64Array.from({ length: RADIAL + 1 }, (_, j) => Math.cos((2 * Math.PI * j) / RADIAL));
  const sin = Float64Array.from({ length: RADIAL + 1 }, (_, j) => Math.sin((2 * Math.PI * j) / RADIAL));
  function update(data) {
    const P = pos.array;
    const N = nor.array;
    const F = 3 * rings; // frames start here
    for (let k = 0; k < rings; k++) {
      const px = data[3 * k], py = data[3 * k + 1], pz = data[3 * k + 2];
      const f = F + 9 * k; // row-major R: column c is (R[c], R[3 + c], R[6 + c])
      for (let j = 0; j <= RADIAL; j++) {
        const nx = cos[j] * data[f] + sin[j] * data[f + 1];
        const ny = cos[j] * data[f + 3] + sin[j] * data[f + 4];
        const nz = cos[j] * data[f + 6] + sin[j] * data[f + 7];
        const v = 3 * (k * (RADIAL + 1) + j);
        P[v] = px + radius * nx;
        P[v + 1] = py + radius * ny;
        P[v + 2] = pz + radius * nz;
        N[v] = nx;
        N[v + 1] = ny;
        N[v + 2] = nz;
      }
    }
    for (const [c, k, s] of [[0, 0, -1], [1, n, 1]]) {
      const f = F + 9 * k;
      const v = 3 * (capBase + c);
      for (let i = 0; i < 3; i++) {
        P[v + i] = data[3 * k + i];
        N[v + i] = s * data[f + 3 * i + 2]; // ± d3
      }
    }
    pos.needsUpdate = true;
    nor.needsUpdate = true;
    geometry.computeBoundingBox();
    geometry.computeBoundingSphere();
  }
  return { mesh, update };
}

/**
 * Adds the rods of `info` (the worker's 'open' reply: rodInfo = sim.rods(), rodSamples = samples per rod;
 * every frame's rods = the sampled centrelines with frames)
 * to a model view (model-view.js): tubes in its group, update(poses, frame) moves them, bounds() covers
 * them. A view without rods is returned unchanged.
 */
export function attachRods(view, info) {
  const rods = info.rodInfo ?? [];
  if (!rods.length) return view;
  const group = new THREE.Group();
  group.name = 'rods';
  view.group.add(group);
  const tubes = rods.map((rod, i) => {
    const n = info.rodSamples[i];
    const tube = createTube(rod, n, Math.max(rod.diameter / 2, 1e-4));
    group.add(tube.mesh);
    return tube;
  });
  const { update, bounds } = view;
  return Object.assign(view, {
    update(poses, frame) {
      update(poses, frame);
      frame?.rods?.forEach((data, i) => tubes[i]?.update(data));
    },
    bounds() {
      const box = bounds();
      group.updateMatrixWorld(true);
      return box.union(new THREE.Box3().setFromObject(group));
    },
  });
}

// ——— sliders: edit the rod block's text and rebuild ———

const DISCS = ['rigid', 'linear', 'quadratic', 'cubic'];

/** `text` with `key value` set inside `rod <name>` … `end` (replacing the key's line, or added after the rod line). */
export function setRodKey(text, rodName, key, value) {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => {
    const w = l.replace(/#.*/, '').trim().split(/\s+/);
    return w[0] === 'rod' && w[1] === rodName;
  });
  if (start < 0) return text;
  let end = start + 1;
  while (end < lines.length && lines[end].replace(/#.*/, '').trim().split(/\s+/)[0] !== 'end') end++;
  for (let i = start + 1; i < end; i++) {
    const m = /^(\s*)(\S+)(\s+)([^#]*?)(\s*)(#.*)?$/.exec(lines[i]);
    if (m && m[2] === key) {
      const pad = m[4].length > String(value).length ? ' '.repeat(m[4].length - String(value).length) : '';
      lines[i] = `${m[1]}${key}${m[3]}${value}${m[6] ? `${pad}${m[5] || ' '}${m[6]}` : ''}`;
      return lines.join('\n');
    }
  }
  lines.splice(start + 1, 0, `  ${key} ${value}`);
  return lines.join('\n');
}

const round3 = (x) => Number(x.toPrecision(3));

/**
 * A 'Rods' settings folder per model with rods: per rod, E and damping β (log sliders), element count
 * and order. A change rewrites the rod's keys in the model text and calls onRebuild(text), which reopens
 * the model (the rod is rebuilt with the new discretization).
 */
export function createRodControls(container, { text, onRebuild }) {
  let gui = null;
  return {
    build(info) {
      gui?.destroy();
      gui = null;
      const rods = info.rodInfo ?? [];
      if (!rods.length) return;
      gui = new GUI({ container, title: 'Rods' });
      gui.domElement.classList.add('rod-controls');
      for (const rod of rods) {
        const f = rods.length > 1 ? gui.addFolder(rod.name) : gui;
        const v = {
          logE: Math.log10(rod.E),
          logBeta: rod.damping > 0 ? Math.log10(rod.damping) : 0,
          elements: rod.elements,
          disc: rod.disc,
        };
        const rebuild = (key, value) => onRebuild(setRodKey(text(), rod.name, key, value));
        f.add(v, 'logE', 3, 12, 0.05).name('E (log₁₀ Pa)')
          .onFinishChange((x) => rebuild('E', round3(10 ** x).toExponential()));
        f.add(v, 'logBeta', 0, 10, 0.05).name('damping (log₁₀ Pa·s; 0 = off)')
          .onFinishChange((x) => rebuild('damping', x <= 0 ? 0 : round3(10 ** x).toExponential()));
        f.add(v, 'elements', 1, 64, 1).name('elements').onFinishChange((x) => rebuild('elements', Math.round(x)));
        f.add(v, 'disc', DISCS).name('order').onChange((x) => rebuild('disc', x));
      }
    },
  };
}
