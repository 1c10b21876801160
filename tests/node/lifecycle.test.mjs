// Memory: 1000 open/dispose cycles leave the heap and the linear memory as
// they were; views stay correct across memory growth; disposed Sims refuse use.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadModelText, openModel } from '../../wasm/index.mjs';

for (const backend of ['generated', 'runtime']) {
  test(`1000 open/dispose cycles do not grow memory (${backend})`, async (t) => {
    const probe = await openModel('satellite', { backend });
    const cycle = async () => {
      const sim = await openModel('satellite', { backend });
      sim.step(1e-3, 10);
      sim.poses();
      sim.dispose();
    };
    await cycle(); // warm-up: first-use allocations, if any
    const before = probe.memoryUsage();
    for (let i = 0; i < 1000; i++) await cycle();
    const after = probe.memoryUsage();
    t.diagnostic(`${backend}: heap ${before.heap} -> ${after.heap} bytes, linear ${before.linear} -> ${after.linear}`);
    assert.equal(after.heap, before.heap, 'heap bytes in use');
    assert.equal(after.linear, before.linear, 'linear memory size');
    probe.dispose();
  });
}

test('views follow memory growth', async () => {
  const sim = await openModel('threelink', { backend: 'runtime' });
  sim.q.set([0.1, 0.2, 0.3]);
  const stale = sim.q;
  const { linear } = sim.memoryUsage();
  const text = await loadModelText('bintree');
  const many = [];
  while (sim.memoryUsage().linear === linear) many.push(await openModel({ text }));
  assert.equal(stale.length, 0, 'a view taken before growth is detached (documented)');
  assert.deepEqual([...sim.q], [0.1, 0.2, 0.3], 'the getter returns a fresh view of the same state');
  sim.qd.fill(0);
  sim.step(1e-3);
  assert.ok(sim.q.every(Number.isFinite));
  for (const s of many) s.dispose();
  sim.dispose();
});

test('a disposed Sim refuses use; dispose is idempotent', async () => {
  const sim = await openModel('gantry');
  sim.dispose();
  sim.dispose();
  assert.throws(() => sim.q, /disposed/);
  assert.throws(() => sim.forward(), /disposed/);
  assert.throws(() => sim.step(1e-3), /disposed/);
  assert.throws(() => sim.poses(), /disposed/);
  assert.throws(() => sim.reset(), /disposed/);
});

test('every member of a disposed Sim throws, on every backend and engine, whatever its arguments', async () => {
  for (const options of [{}, { backend: 'runtime' }, { backend: 'jit' }, { engine: 'xpbd' }]) {
    const sim = await openModel('threelink', options);
    sim.dispose();
    const proto = Object.getPrototypeOf(sim);
    const members = Object.getOwnPropertyNames(proto).filter((k) => k !== 'constructor' && k !== 'dispose');
    assert.ok(members.length > 30, members.join(', '));
    for (const key of members) {
      const get = Object.getOwnPropertyDescriptor(proto, key).get;
      assert.throws(() => (get ? sim[key] : sim[key](0, 0)), /has been disposed/, `${JSON.stringify(options)} ${key}`);
    }
  }
});
