// compile.test.mjs — a jit compile never holds the page beyond its limit (web/src/engine.js, COMPILE_LIMIT_MS):
// a share link carrying a chain of 120 bodies closed by 30 four-bar loops (tests/fixtures/heavy_models.mjs; about
// 300 000 operations, under the size limit, whose generation takes seconds natively and longer in the worker; side by
// side four-bars are no use here, the generator's work follows their structure and 256 take about a second) opens ready on the runtime engine, says "compiling…"
// with a cancel beside the badge, and the cancel (or, unattended, the limit) stops the compile, restarts the worker and opens the model again on the runtime engine from its last
// state, which then plays. In Debian's chromium (headless) driven by playwright-core; every wait is on the page's
// state. Needs wasm/dist/ and dist/ from a build with the code generator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import LZString from 'lz-string';

import { chainOfFourbars } from '../fixtures/heavy_models.mjs';
import { WAIT, openPage, status, usePlayground } from './harness.mjs';

const pg = usePlayground(6273);

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

test('a link of a chain closed by 30 four-bars: ready, "compiling…", cancel stops the compile and the runtime engine runs on', async (t) => {
  // A limit longer than any compile here: the cancel stops it.
  const t0 = Date.now();
  const { page, context, errors } = await openPage(pg.browser, `${pg.base}?compile=600000${link(chainOfFourbars(30))}`);
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
  const { page, context, errors } = await openPage(pg.browser, `${pg.base}?compile=300${link(chainOfFourbars(30))}`);
  await page.waitForFunction(() => window.playground.jit().state === 'stopped' && window.playground.status().loaded, null, WAIT);
  assert.match((await jit(page)).reason, /^the jit's compile ran longer than 0.3 s and was stopped$/);
  const s = await status(page);
  assert.equal(s.backend, 'runtime');
  assert.equal(await compiling(page), false);
  await stepsOn(page, s.time);
  assert.deepEqual(errors, []);
  await context.close();
});
