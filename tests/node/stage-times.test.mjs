// Sim.stageTimes() (core/sim/clock.h, mech_data_stage_times): the wall-clock ms a Featherstone run's steps spend in
// the constraint solve and the penalty contact stage, read from the clock the JavaScript shim supplies
// (env.mech_now_ms). It only reports: two runs of a contact scene, each reading the clock, end bit for bit alike; the
// times lie within the steps' and add up across calls; a run without contact (or on XPBD) reports zeros.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openModel } from '../../wasm/index.mjs';
import { BOX } from './contact-scene.mjs';

test('a box on the floor: the solve is timed, within the step, and the state does not depend on it', async () => {
  const runs = [];
  for (let k = 0; k < 2; k++) {
    const sim = await openModel({ text: BOX, name: 'box' }, { backend: 'runtime' });
    try {
      assert.deepEqual(sim.stageTimes(), { contact: 0, solve: 0 });
      sim.setFloor(true);
      const t0 = performance.now();
      sim.step(0.001, 1000, { budgetMs: Infinity });
      const stepMs = performance.now() - t0;
      const { contact, solve } = sim.stageTimes();
      assert.equal(contact, 0, 'the box has no band or ground: no penalty contact stage');
      assert.ok(solve > 0 && solve <= stepMs, `the solve took ${solve} ms of the ${stepMs} ms the steps took`);
      runs.push({ q: [...sim.q], qd: [...sim.qd], solve });
    } finally {
      sim.dispose();
    }
  }
  assert.deepEqual(runs[1].q, runs[0].q);
  assert.deepEqual(runs[1].qd, runs[0].qd);
});

test('readings add up: the times of two calls are the difference of the readings around them', async () => {
  const sim = await openModel({ text: BOX, name: 'box' }, { backend: 'runtime' });
  try {
    sim.setFloor(true);
    sim.step(0.001, 200);
    const a = sim.stageTimes().solve;
    sim.step(0.001, 200);
    const b = sim.stageTimes().solve;
    assert.ok(b > a, `the second call's solve time adds: ${a} then ${b}`);
  } finally {
    sim.dispose();
  }
});

test('no contact, no time: a tree without colliders on its generated module, and XPBD', async () => {
  const sim = await openModel('threelink');
  try {
    sim.step(0.001, 500);
    assert.deepEqual(sim.stageTimes(), { contact: 0, solve: 0 });
  } finally {
    sim.dispose();
  }
  const x = await openModel({ text: BOX, name: 'box' }, { engine: 'xpbd' });
  try {
    x.step(0.001, 10);
    assert.deepEqual(x.stageTimes(), { contact: 0, solve: 0 });
  } finally {
    x.dispose();
  }
});

test('a tracked vehicle: its penalty contact stage is timed', async () => {
  const sim = await openModel('track_min', { backend: 'runtime' });
  try {
    sim.step(sim.describe().contactDt || 0.0005, 100);
    const { contact } = sim.stageTimes();
    assert.ok(contact > 0, `the contact stage took ${contact} ms`);
  } finally {
    sim.dispose();
  }
});
