// Every engine's output is checked in one place (core/sim/data.c): a
// non-finite pose, energy or observation from a finite state, a zero
// quaternion, or a non-finite value anywhere in an engine's own state (XPBD
// bodies, rod nodes and frames) raises a RangeError naming the entry; XPBD,
// which has no accelerations, refuses forward(); one step() call does a
// bounded amount of work.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { modelsDir, openModel } from './helpers.mjs';

const cantilever = readFileSync(`${modelsDir}xpbd/cantilever.mech`, 'utf8');

test('poses() from a finite but too large angle raises, on every backend; energy() stays finite', async () => {
  for (const options of [{ backend: 'generated' }, { backend: 'runtime' }, { engine: 'xpbd' }]) {
    const sim = await openModel('threelink', options);
    sim.q[0] = 1.35e154;   // finite; its sine and cosine are not computable
    if (options.engine === 'xpbd') {
      // XPBD reads q only at reset: its poses are its bodies', finite here.
      assert.ok(sim.poses().every(Number.isFinite));
    } else {
      assert.throws(() => sim.poses(), { name: 'RangeError', message: /^poses: the pose \w+ of body 'link1' is NaN from a finite state/ });
      // energy() runs the bodies' kinematics, whose sine and cosine of a huge angle are libm's, exact: finite.
      const e = sim.energy();
      assert.ok([e.kinetic, e.potential, e.total].every(Number.isFinite), JSON.stringify(e));
    }
    sim.dispose();
  }
});

test('a zero quaternion is named by poses() and energy()', async () => {
  for (const backend of ['generated', 'runtime']) {
    const sim = await openModel('satellite', { backend });
    sim.q.fill(0, 0, 4);
    for (const verb of ['poses', 'energy']) {
      assert.throws(() => sim[verb](), { name: 'RangeError', message: new RegExp(`^${verb}: the quaternion q\\[0\\.\\.3\\] of body '\\w+' is zero`) });
    }
    sim.dispose();
  }
});

test('a NaN in a rod node stops the next XPBD step with the rod and node named', async () => {
  const sim = await openModel({ text: cantilever, name: 'cantilever' }, { engine: 'xpbd' });
  sim.step(0.01, 2);
  sim.rodNodes(0)[3 * 7 + 1] = NaN;
  assert.throws(() => sim.step(0.01, 3), { name: 'RangeError', message: /^step: rod 'beam' node position\[\d+\] is NaN after step 1 of 3: the simulation blew up/ });
  sim.reset();
  sim.step(0.01, 2);   // reset recovers
  assert.ok(sim.rodNodes(0).every(Number.isFinite));
  sim.dispose();
});

test('XPBD has no forward dynamics: forward() says so', async () => {
  const sim = await openModel('threelink', { engine: 'xpbd' });
  assert.throws(() => sim.forward(), { name: 'RangeError', message: /^forward: engine 'xpbd' has no forward dynamics/ });
  sim.dispose();
});

test('one step() call does a bounded amount of work', async () => {
  for (const options of [{ backend: 'generated' }, { engine: 'xpbd' }]) {
    const sim = await openModel('threelink', options);
    const t0 = performance.now();
    assert.throws(() => sim.step(1e-3, 1e9), { name: 'RangeError', message: /^step: 1000000000 steps of 'threelink' on \w+ are .* units of work, over the 1e\+08 one call may do/ });
    assert.ok(performance.now() - t0 < 1000, 'refused before running');
    sim.step(1e-3, 10);   // the Sim is still usable
    sim.dispose();
  }
});
