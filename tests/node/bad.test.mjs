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
