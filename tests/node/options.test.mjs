// openModel's options: an object of known keys with known values. A wrong shape is a TypeError, an unknown
// value a RangeError; each message names the option and what it takes, and the module keeps working.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { openModel } from '../../wasm/index.mjs';

const text = { text: 'gravity 0 0 -9.81\nbody a\n  parent base\n  joint revolute y\n  mass 1\n  inertia 0.1 0.1 0.1\nend\n', name: 'one' };

test('options that are not an object are a TypeError naming what they are', async () => {
  for (const [options, got] of [[5, 'got 5'], ['runtime', "got 'runtime'"], [true, 'got true'], [[], 'got an array'],
    [['backend', 'runtime'], 'got an array'], [() => {}, 'got a function']]) {
    for (const source of ['threelink', text]) {
      await assert.rejects(openModel(source, options), {
        name: 'TypeError',
        message: `openModel: options must be an object such as { backend: 'runtime' }, ${got}`,
      }, `${String(options)}`);
    }
  }
});

test('an unknown option is a TypeError listing the options', async () => {
  for (const key of ['backends', 'Backend', 'engines', 'dt', 'keepState']) {
    await assert.rejects(openModel('threelink', { [key]: 'runtime' }), {
      name: 'TypeError',
      message: `openModel: unknown option '${key}'; the options are backend, engine, stepBudgetMs and files`,
    });
  }
  // The known keys around it do not hide it.
  await assert.rejects(openModel(text, { backend: 'runtime', engine: 'xpbd', substeps: 4 }), { name: 'TypeError', message: /unknown option 'substeps'/ });
});

test('an unknown option value names the option and its values', async () => {
  const cases = [
    [{ backend: 'xpbd' }, 'RangeError', "openModel: unknown backend 'xpbd'; use 'generated', 'runtime' or 'jit'"],
    [{ backend: 'Runtime' }, 'RangeError', "openModel: unknown backend 'Runtime'; use 'generated', 'runtime' or 'jit'"],
    [{ backend: '' }, 'RangeError', "openModel: unknown backend ''; use 'generated', 'runtime' or 'jit'"],
    [{ engine: 'pbd' }, 'RangeError', "openModel: unknown engine 'pbd'; use 'featherstone' or 'xpbd'"],
    [{ backend: 1 }, 'TypeError', "openModel: backend must be 'generated', 'runtime' or 'jit', got 1"],
    [{ backend: null }, 'TypeError', "openModel: backend must be 'generated', 'runtime' or 'jit', got null"],
    [{ engine: ['xpbd'] }, 'TypeError', "openModel: engine must be 'featherstone' or 'xpbd', got an array"],
    [{ engine: { name: 'xpbd' } }, 'TypeError', "openModel: engine must be 'featherstone' or 'xpbd', got an object"],
    // An inherited value is read, so it is checked too.
    [Object.create({ backend: 'fast' }), 'RangeError', "openModel: unknown backend 'fast'; use 'generated', 'runtime' or 'jit'"],
  ];
  for (const [options, name, message] of cases) {
    for (const source of ['threelink', text]) await assert.rejects(openModel(source, options), { name, message });
  }
});

test('no options, null, {} and undefined values all mean the defaults; the module still works after the errors', async () => {
  for (const options of [undefined, null, {}, { backend: undefined }, { engine: undefined }]) {
    const shipped = await openModel('threelink', options);
    assert.deepEqual([shipped.backend, shipped.engine], ['generated', 'featherstone']);
    shipped.step(1e-3, 10);
    shipped.dispose();
    const edited = await openModel(text, options);
    assert.deepEqual([edited.backend, edited.engine], ['runtime', 'featherstone']);
    edited.dispose();
  }
  const runtime = await openModel('threelink', { backend: 'runtime' });
  assert.deepEqual([runtime.backend, runtime.engine], ['runtime', 'featherstone']);
  runtime.dispose();
  const xpbd = await openModel('threelink', { engine: 'xpbd' });
  assert.deepEqual([xpbd.backend, xpbd.engine], ['runtime', 'xpbd']);
  xpbd.step(1e-3);
  xpbd.dispose();
});
