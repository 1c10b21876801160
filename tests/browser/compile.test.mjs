// compile.test.mjs — a jit compile never holds the page beyond its limit (web/src/engine.js, COMPILE_LIMIT_MS):
// a share link carrying 128 four-bars (their generation takes seconds in the worker; 256 took 22-25 s, and their
// runtime steps half a second each on a loaded machine) opens ready on the runtime engine, says "compiling…" with a
// cancel beside the badge, and the cancel (or, unattended, the limit) stops the compile, restarts the worker and opens the model again on the runtime engine from its last
// state, which then plays. In Debian's chromium (headless) driven by playwright-core; every wait is on the page's
// state. Needs wasm/dist/ and dist/ from a build with the code generator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import LZString from 'lz-string';

import { WAIT, openPage, status, usePlayground } from './harness.mjs';

const pg = usePlayground(6273);

/** `n` planar four-bars side by side (as models/loops/fourbar.mech), each closed onto its ground pivot. */
function fourbars(n) {
  let text = `description ${n} four-bars\ngravity 0 0 -9.81\n`;
  for (let f = 0; f < n; f++) {
    text += `\nbody c${f}\n  parent base\n  joint revolute y\n  pos ${f} 0 0\n  mass 1\n  com 0.15 0 0\n` +
      '  inertia 0.00015 0.007575 0.007575\n  q0 -90\n  shape box 0.3 0.03 0.03 pos 0.15 0 0\nend\n' +
      `body k${f}\n  parent c${f}\n  joint revolute y\n  pos 0.3 0 0\n  mass 2\n  com 0.4272 0 0\n` +
      '  inertia 0.0003 0.121818 0.121818\n  q0 69.444\nend\n' +
      `body r${f}\n  parent k${f}\n  joint revolute y\n  pos 0.8544 0 0\n  mass 1.5\n  com 0.3 0 0\n` +
      '  inertia 0.000225 0.045113 0.045113\n  q0 110.556\nend\n' +
      `loop p${f}\n  type point-on-line\n  pred base\n  ppos ${f + 0.8} 0 0\n  paxis y\n  succ r${f}\n  spos 0.6 0 0\nend\n`;
  }
  return text;
}

const link = (text) => '#s=' + LZString.compressToEncodedURIComponent(JSON.stringify({ v: 1, model: 'fourbar', text }));
const compiling = (page) => page.evaluate(() => !document.getElementById('compiling').hidden);
const jit = (page) => page.evaluate(() => window.playground.jit());

/** Single steps until the run's time has moved past `t` (the runtime engine runs the model). */
async function stepsOn(page, t) {
  for (let i = 0; i < 20 && (await status(page)).time <= t; i++) {
    await page.click('#step');
    await page.waitForFunction(() => !window.playground.status().stepping, null, WAIT);
  }
  assert.ok((await status(page)).time > t, 'the model steps on the runtime engine');
}

test('a link of 128 four-bars: ready, "compiling…", cancel stops the compile and the runtime engine runs on', async (t) => {
  // A limit longer than any compile here: the cancel stops it.
  const t0 = Date.now();
  const { page, context, errors } = await openPage(pg.browser, `${pg.base}?compile=600000${link(fourbars(128))}`);
  const ready = (Date.now() - t0) / 1000;
  await page.waitForFunction(() => !document.getElementById('compiling').hidden, null, WAIT);
  t.diagnostic(`ready ${ready.toFixed(2)} s after the page was asked for, "compiling…" ${((Date.now() - t0) / 1000).toFixed(2)} s`);
  const s0 = await status(page);
  assert.deepEqual([s0.ready, s0.loaded, s0.model, s0.backend], [true, true, 'fourbar', 'runtime']);
  assert.equal((await jit(page)).state, 'compiling');
  assert.match(await page.textContent('#compiling'), /compiling…\s*cancel/);

  await page.click('#compile-cancel');
  await page.waitForFunction(() => window.playground.jit().state === 'stopped' && window.playground.status().loaded, null, WAIT);
  assert.equal(await compiling(page), false, '"compiling…" gone');
  assert.match((await jit(page)).reason, /^the jit's compile was cancelled$/);
  const s1 = await status(page);
  assert.deepEqual([s1.loaded, s1.backend, s1.banner], [true, 'runtime', null]);
  assert.match(await page.getAttribute('#backend', 'title'), /The jit did not take this model: the jit's compile was cancelled/);
  await stepsOn(page, s1.time);
  assert.deepEqual(errors, []);
  await context.close();
});

test('unattended, a compile past its limit is stopped and the runtime engine runs the model', async () => {
  const { page, context, errors } = await openPage(pg.browser, `${pg.base}?compile=300${link(fourbars(128))}`);
  await page.waitForFunction(() => window.playground.jit().state === 'stopped' && window.playground.status().loaded, null, WAIT);
  assert.match((await jit(page)).reason, /^the jit's compile ran longer than 0.3 s and was stopped$/);
  const s = await status(page);
  assert.equal(s.backend, 'runtime');
  assert.equal(await compiling(page), false);
  await stepsOn(page, s.time);
  assert.deepEqual(errors, []);
  await context.close();
});
