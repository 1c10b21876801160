// The page's code downloads (web/src/code-bundle.js, web/src/zip.js) without the page: for a fixed-base arm, a
// floating vehicle with loops and observations, and a robot with actuators, the generated C zipped with its
// headers and main.c unzips (Info-ZIP's unzip checks every CRC), compiles with cc as strictly as the build
// compiles C, and prints the qdd the Sim's forward() gives at the same state; the .wasm with its loader prints it
// too. Needs wasm/dist/ with the code generator (scripts/build-wasm.sh).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { generateCode, loadModelText, openModel } from '../../wasm/index.mjs';
import { cFiles, describeC, loaderFor } from '../../web/src/code-bundle.js';
import { crc32, zip } from '../../web/src/zip.js';
import { root } from './helpers.mjs';

const dir = mkdtempSync(join(tmpdir(), 'mech-code-bundle-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const HEADERS = {
  'sim/generated.h': readFileSync(join(root, 'core/sim/generated.h'), 'utf8'),
  'spatial/mech_sincos.h': readFileSync(join(root, 'core/spatial/mech_sincos.h'), 'utf8'),
};

/** The numbers after `label = ` in printed lines, in order. */
const values = (text, label) => [...text.matchAll(new RegExp(`${label}\\[\\d+\\] = (\\S+)`, 'g'))].map((m) => Number(m[1]));

function assertClose(got, want, what) {
  assert.equal(got.length, want.length, what);
  // Both print every digit; cc's code and the WebAssembly module may round differently (no fused operations
  // either way, but another compiler's order of a few sums).
  got.forEach((x, i) => assert.ok(Math.abs(x - want[i]) <= 1e-12 * (1 + Math.abs(want[i])), `${what}[${i}]: ${x} vs ${want[i]}`));
}

test('CRC-32 of the check string, as zip stores it', () => {
  assert.equal(crc32(new TextEncoder().encode('123456789')), 0xcbf43926);
});

for (const name of ['threelink', 'hmmwv', 'panda']) {
  test(`${name}: the C zip compiles with cc and prints the Sim's qdd; the .wasm's loader prints it too`, async () => {
    const sim = await openModel(name);
    const q = Float64Array.from(sim.q);
    const qd = Float64Array.from(sim.qd);
    const qdd = Array.from(sim.forward());
    const text = await loadModelText(name);
    sim.dispose();
    const c = await generateCode(text, { target: 'c', name });
    const wasm = await generateCode(text, { target: 'wasm', name });

    const here = join(dir, name);
    mkdirSync(here);
    writeFileSync(join(here, 'c.zip'), zip(cFiles(name, c, HEADERS, q, qd)));
    writeFileSync(join(here, 'wasm.zip'), zip([{ name: `${name}/${name}.wasm`, data: wasm },
      { name: `${name}/${name}.mjs`, data: loaderFor(name, describeC(c), q, qd) }]));
    execFileSync('unzip', ['-q', 'c.zip'], { cwd: here });
    execFileSync('unzip', ['-q', 'wasm.zip'], { cwd: here });
    const src = join(here, name);
    execFileSync('cc', ['-std=c11', '-Wall', '-Wextra', '-Werror', '-O1', 'main.c', `${name}.c`, '-lm', '-o', name], { cwd: src });
    const printed = execFileSync(join(src, name), { encoding: 'utf8' });
    assert.match(printed, new RegExp(`^${name}, t = 0\\.001 s\\n`));
    assertClose(values(printed, 'qdd'), qdd, 'qdd by main.c');

    const loaded = execFileSync(process.execPath, [`${name}.mjs`], { cwd: src, encoding: 'utf8' });
    assertClose(JSON.parse(/qdd = ([^]*)/.exec(loaded)[1].replace(/\s+/g, '')), qdd, 'qdd by the loader');
  });
}
