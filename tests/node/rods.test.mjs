// Cosserat rods through the JavaScript API (docs/rods.md, "Through the JavaScript API"): `rod`
// blocks opened with engine 'xpbd' expose their node positions and frames
// as live views and sample the interpolated centreline; the .mech
// cantilever sags to the paper's §9.2 tip, the spring's end follows its
// prescribed motion, a body-clamped rod follows its body; errors are
// RangeErrors or MechErrors; two runs are bitwise equal.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { MechError } from '../../wasm/index.mjs';
import { ARM_WITH_ROD, modelsDir, openModel } from './helpers.mjs';

const cantilever = readFileSync(`${modelsDir}xpbd/cantilever.mech`, 'utf8');
const spring = readFileSync(`${modelsDir}xpbd/spring.mech`, 'utf8');
/** Static tip of the §9.2 cantilever, 500 cubic elements (docs/rods.md). */
const REF_TIP = [0.925498032738, -0.355301453935];

const dist = (a, i, b, j) => Math.hypot(a[3 * i] - b[3 * j], a[3 * i + 1] - b[3 * j + 1], a[3 * i + 2] - b[3 * j + 2]);

test('cantilever.mech on XPBD: rod info, nodes, frames, sag to the §9.2 tip, reset', async () => {
  const sim = await openModel({ text: cantilever, name: 'cantilever' }, { engine: 'xpbd' });
  try {
    const rods = sim.rods();
    assert.equal(rods.length, 1);
    const r = rods[0];
    assert.deepEqual({ name: r.name, disc: r.disc, order: r.order, elements: r.elements, nodes: r.nodes, gaussPoints: r.gaussPoints },
      { name: 'beam', disc: 'cubic', order: 3, elements: 5, nodes: 16, gaussPoints: 3 });
    assert.deepEqual([r.length, r.diameter, r.E, r.damping, r.rho], [1, 0.1, 5e6, 1e6, 1000]);
    assert.equal(sim.describe().dt, 0.01, "the xpbd block's dt");
    assert.ok(Math.abs(r.color[0] - 0xd0 / 255) < 1e-6 && Math.abs(r.color[2] - 0x30 / 255) < 1e-6);

    const rest = Float64Array.from(sim.rodNodes(0));
    assert.equal(rest.length, 48);
    for (let j = 0; j < 16; j++) {
      assert.ok(Math.abs(rest[3 * j] - j / 15) < 1e-15 && rest[3 * j + 1] === 0 && Math.abs(rest[3 * j + 2]) < 1e-15,
        `rest node ${j} on the x axis`);
    }
    sim.step(0.01, 300);
    const nodes = sim.rodNodes(0);
    assert.equal(nodes.buffer, sim.rodNodes(0).buffer, 'a live view');
    const tip = [nodes[45], nodes[47]];
    const err = Math.hypot(tip[0] - REF_TIP[0], tip[1] - REF_TIP[1]);
    assert.ok(err < 1e-4, `tip (${tip}) is ${err} m from the static reference after 3 s`);
    assert.ok(Math.abs(nodes[46]) < 1e-12, 'stays in its plane');
    assert.ok(Math.hypot(nodes[0], nodes[1], nodes[2]) < 1e-12, 'the clamped start stays');

    const frames = sim.rodFrames(0);
    assert.equal(frames.length, 9 * 16);
    for (let j = 0; j < 16; j++) {
      const R = frames.subarray(9 * j, 9 * j + 9);
      for (let a = 0; a < 3; a++) {
        for (let b = 0; b < 3; b++) {
          const dot = R[a] * R[b] + R[3 + a] * R[3 + b] + R[6 + a] * R[6 + b];
          assert.ok(Math.abs(dot - (a === b ? 1 : 0)) < 1e-12, `frame ${j} orthonormal`);
        }
      }
    }
    // The clamped start keeps its rest frame (d3 = world x); the tip's d3 is the sagged tangent, pointing down.
    assert.ok(Math.abs(frames[2] - 1) < 1e-12 && frames[9 * 15 + 8] < -0.4);

    sim.reset();
    assert.deepEqual(Array.from(sim.rodNodes(0)), Array.from(rest), 'reset restores the rest shape');
  } finally {
    sim.dispose();
  }
});

test('rodCentreline: interpolates the nodes, curved inside cubic elements, frames on request', async () => {
  const sim = await openModel({ text: cantilever, name: 'cantilever' }, { engine: 'xpbd' });
  try {
    sim.step(0.01, 100);
    const nodes = Float64Array.from(sim.rodNodes(0));
    const frames = Float64Array.from(sim.rodFrames(0));
    const n = 5 * 3 * 4; // 4 samples between neighbouring nodes
    const { positions, frames: sf } = sim.rodCentreline(0, n, { frames: true });
    assert.equal(positions.length, 3 * (n + 1));
    assert.equal(sf.length, 9 * (n + 1));
    let worstNode = 0;
    let worstFrame = 0;
    for (let j = 0; j < 16; j++) {
      worstNode = Math.max(worstNode, dist(positions, 4 * j, nodes, j));
      for (let k = 0; k < 9; k++) worstFrame = Math.max(worstFrame, Math.abs(sf[9 * 4 * j + k] - frames[9 * j + k]));
    }
    assert.ok(worstNode < 1e-12, `samples at the nodes are the nodes (${worstNode})`);
    assert.ok(worstFrame < 1e-12, `frames at the nodes are the nodes' (${worstFrame})`);
    // Between nodes the cubic centreline leaves the straight chord: a curved tube.
    let bulge = 0;
    for (let j = 0; j < 15; j++) {
      const mid = 4 * j + 2;
      for (let k = 0; k < 3; k++) {
        bulge = Math.max(bulge, Math.abs(positions[3 * mid + k] - 0.5 * (nodes[3 * j + k] + nodes[3 * j + 3 + k])));
      }
    }
    assert.ok(bulge > 1e-6 && bulge < 1e-3, `mid-samples off the chords by ${bulge} m`);
    // Default: 8 samples per element, no frames.
    const def = sim.rodCentreline(0);
    assert.equal(def.positions.length, 3 * 41);
    assert.equal(def.frames, null);
    assert.ok(dist(def.positions, 40, nodes, 15) < 1e-12);
  } finally {
    sim.dispose();
  }
});

test('spring.mech: the prescribed end motion is applied, the other end holds', async () => {
  const sim = await openModel({ text: spring, name: 'spring' }, { engine: 'xpbd' });
  try {
    const [r] = sim.rods();
    assert.equal(r.disc, 'quadratic');
    assert.ok(Math.abs(r.length - 5 * Math.hypot(2 * Math.PI * 0.1, 0.1)) < 1e-12, `helix length ${r.length}`);
    const last = r.nodes - 1;
    const rest = Float64Array.from(sim.rodNodes(0));
    sim.step(0.01, 150);
    assert.ok(Math.abs(sim.rodNodes(0)[3 * last + 2] - rest[3 * last + 2] + 0.075) < 1e-3, 'half way at 1.5 s');
    sim.step(0.01, 250);
    const p = sim.rodNodes(0);
    assert.ok(p.every(Number.isFinite));
    assert.ok(Math.abs(p[3 * last + 2] - rest[3 * last + 2] + 0.15) < 1e-6, `top end moved ${p[3 * last + 2] - rest[3 * last + 2]}`);
    assert.ok(dist(p, 0, rest, 0) < 1e-9, 'bottom end holds');
  } finally {
    sim.dispose();
  }
});

test('a rod clamped to a body follows it; bodies and rods in one world', async () => {
  const text = ARM_WITH_ROD;
  const sim = await openModel({ text, name: 'tail' }, { engine: 'xpbd' });
  try {
    sim.step(0.005, 200);
    const pose = sim.poses();
    const [qw, qx, qy, qz] = pose.slice(3, 7);
    // body point (1, 0, 0) in world: origin + R e_x
    const ex = [1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy + qw * qz), 2 * (qx * qz - qw * qy)];
    const start = sim.rodNodes(0);
    const gap = Math.hypot(start[0] - pose[0] - ex[0], start[1] - pose[1] - ex[1], start[2] - pose[2] - ex[2]);
    assert.ok(gap < 1e-6, `rod start ${gap} m from its body point`);
    assert.ok(Math.abs(sim.q[0]) > 0.1, `the arm swung (q ${sim.q[0]})`);
  } finally {
    sim.dispose();
  }
});

test('rod errors: bad indices and counts, Featherstone has no rods, parse errors, disposed', async () => {
  const sim = await openModel({ text: cantilever, name: 'cantilever' }, { engine: 'xpbd' });
  assert.throws(() => sim.rodNodes(1), { name: 'RangeError', message: "rodNodes: no rod 1; Sim 'cantilever' has 1 rod" });
  assert.throws(() => sim.rodFrames(-1), { name: 'RangeError' });
  assert.throws(() => sim.rodCentreline(0.5), { name: 'RangeError' });
  assert.throws(() => sim.rodCentreline(0, 0), { name: 'RangeError', message: /n must be an integer in \[1, 1000000\]/ });
  assert.throws(() => sim.rodCentreline(0, 2.5), { name: 'RangeError' });
  sim.dispose();
  assert.throws(() => sim.rods(), { message: /disposed/ });
  assert.throws(() => sim.rodNodes(0), { message: /disposed/ });

  const fs = await openModel({ text: cantilever, name: 'cantilever' });
  try {
    assert.deepEqual(fs.rods(), []);
    assert.throws(() => fs.rodNodes(0), { name: 'RangeError', message: /rods run on engine 'xpbd' only/ });
  } finally {
    fs.dispose();
  }
  const bad = cantilever.replace('  E 5e6 ', '  E -5e6');
  await assert.rejects(openModel({ text: bad, name: 'bad' }, { engine: 'xpbd' }),
    (e) => e instanceof MechError && e.line === 19 && e.column === 5 && /'E' must be positive: got -5e\+06/.test(e.message));
  const coarse = spring.replace('elements 30', 'elements 1');
  await assert.rejects(openModel({ text: coarse, name: 'coarse' }, { engine: 'xpbd' }),
    (e) => e instanceof MechError && e.line === 13 && e.column === 5 &&
      e.message === "coarse:13:5: rod 'coil': an element turns by more than 0.9 pi; use more elements");
});

test('two runs of a rod model are bitwise equal', async () => {
  const run = async () => {
    const sim = await openModel({ text: spring, name: 'spring' }, { engine: 'xpbd' });
    sim.step(0.01, 120);
    const out = Float64Array.from(sim.rodCentreline(0, 50, { frames: true }).frames);
    sim.dispose();
    return out;
  };
  assert.deepEqual(await run(), await run());
});
