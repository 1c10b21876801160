// Every tests/bad/NAME.mech raises, through the API, the MechError its
// NAME.expected names (`NAME.mech:line:col: message`), with that line and
// column, and the same message the native parser gives; the runtime engine
// keeps working after each one.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';

import { MechError, openModel } from '../../wasm/index.mjs';
import { badDir, nativeRef } from './helpers.mjs';

const files = readdirSync(badDir).filter((f) => f.endsWith('.mech')).sort();

test('tests/bad holds malformed models', () => {
  assert.ok(files.length > 0, `no .mech files in ${badDir}`);
});

for (const file of files) {
  test(`tests/bad/${file}`, async () => {
    const expected = readFileSync(`${badDir}${file.replace(/\.mech$/, '.expected')}`, 'utf8').trim();
    const [, line, column] = expected.match(/^[^:]*:(\d+):(\d+): /) ?? [];
    // The raw bytes, so files that are not valid UTF-8 reach the parser unchanged.
    const text = readFileSync(`${badDir}${file}`);
    const error = await openModel({ text: new Uint8Array(text), name: file }).then(
      (sim) => { sim.dispose(); return null; },
      (e) => e,
    );
    assert.ok(error instanceof MechError, `expected a MechError, got ${error}`);
    assert.equal(error.message, expected);
    assert.equal(error.line, Number(line ?? 0));
    assert.equal(error.column, Number(column ?? 0));
    const native = nativeRef('check', `${badDir}${file}`);
    assert.equal(native.error, expected, 'native parser');
    const sim = await openModel('threelink', { backend: 'runtime' });
    assert.equal(sim.forward().length, 3, 'the runtime engine still works');
    sim.dispose();
  });
}

// Errors found when a parsed model is opened are MechErrors at the element too.
const fourbar = readFileSync(`${badDir}../fixtures/overconstrained_fourbar.mech`, 'utf8');

test('an over-constrained loop is refused when opened on the runtime, at the loop', async () => {
  const error = await openModel({ text: fourbar, name: 'fourbar.mech' }).then(
    (sim) => { sim.dispose(); return null; },
    (e) => e,
  );
  assert.ok(error instanceof MechError, `expected a MechError, got ${error}`);
  assert.equal(error.line, 26);
  assert.equal(error.column, 6);
  assert.match(error.message,
    /^fourbar\.mech:26:6: loop 'pivot' is over-constrained: rank\(K\) = 2 < nc = 5, 3 redundant rows .*point-on-line/);
});

test('XPBD runs the over-constrained loop the runtime refuses', async () => {
  const sim = await openModel({ text: fourbar, name: 'fourbar.mech' }, { engine: 'xpbd' });
  try {
    sim.step(0.01, 100);
    assert.ok(sim.q.every(Number.isFinite));
    const { constraint } = sim.residuals();
    assert.ok(constraint < 1e-3, `constraint residual ${constraint}`);
  } finally {
    sim.dispose();
  }
});

const body = (name, extra = '') => `body ${name}\n parent base\n joint revolute y\n mass 1\n inertia 1 1 1\n${extra}end\n`;
const xpbdRefused = [
  ['tsda', `${body('a')}poi pa a 0 0 0\npoi pb base 0 0 1\ntsda   spring\n from pa\n to pb\n k 1\n c 0\n l0 1\nend\n`, 9, 8,
    'tsda force elements are not supported by XPBD (rsda and actuators are)'],
  ['distance loop', `${body('a')}${body('b')}loop  rod\n type distance\n pred a\n succ b\n length 1\nend\n`, 13, 7,
    "loop 'rod': XPBD runs revolute, prismatic and spherical loops only"],
  ['rod', 'rod  coil\n disc quadratic\n shape helix 0.1 0.02 1\n diameter 0.01\n E 1e6\n rho 1000\nend\n', 1, 6,
    "rod 'coil': an element turns by more than 0.9 pi; use more elements"],
];

for (const [what, text, line, column, why] of xpbdRefused) {
  test(`XPBD refuses a ${what} with a MechError at its line and column`, async () => {
    const error = await openModel({ text, name: 'x.mech' }, { engine: 'xpbd' }).then(
      (sim) => { sim.dispose(); return null; },
      (e) => e,
    );
    assert.ok(error instanceof MechError, `expected a MechError, got ${error}`);
    assert.equal(error.message, `x.mech:${line}:${column}: ${why}`);
    assert.equal(error.line, line);
    assert.equal(error.column, column);
  });
}
