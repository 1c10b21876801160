// side-by-side.test.mjs — "Side by side: XPBD": a tree model also runs on XPBD, drawn as a ghost, with the gap
// between the runs and XPBD's residuals as signals; a model with loops has the toggle disabled. In Debian's
// chromium (headless, software WebGL) driven by playwright-core; every wait is on the page's state. Needs
// wasm/dist/ (scripts/build-wasm.sh). The screenshot goes to build/screenshots/side-by-side.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { WAIT, openPage, pick, shots, status, usePlayground } from './harness.mjs';

const pg = usePlayground(6073);

const TOGGLE = 'Side by side: XPBD';
const SIGNALS = ['gap (m)', 'XPBD primal residual', 'XPBD constraint residual'];

const sideBySide = (page) => page.evaluate(() => window.playground.sideBySide());
const signals = (page) => page.evaluate(() => window.playground.signals());

/** The checkbox of the lil-gui controller labelled `name`. */
const checkbox = (page, name) => page.locator('.lil-controller')
  .filter({ has: page.locator('.lil-name', { hasText: new RegExp(`^${name}$`) }) })
  .locator('input');

test('threelink side by side: an XPBD ghost a few mm from the Featherstone run, with its gap and residuals', async (t) => {
  const { page, context, errors } = await openPage(pg.browser, pg.base);
  await pick(page, 'threelink');
  assert.equal((await sideBySide(page)).enabled, true);

  await checkbox(page, TOGGLE).check();
  await page.waitForFunction(() => window.playground.sideBySide().ghost, null, WAIT);
  const listed = await signals(page);
  for (const s of SIGNALS) assert.ok(listed.includes(s), `${s} is listed`);
  assert.ok((await page.evaluate(() => window.playground.plotted())).includes('gap (m)'), 'the gap is plotted');
  const scales = await page.evaluate(() => window.playground.plotScales());
  const gapScale = scales.find((s) => s.label === 'gap (m)').scale;
  assert.equal(scales.filter((s) => s.scale === gapScale).length, 1, `the gap has a y axis of its own: ${JSON.stringify(scales)}`);

  await page.click('#play');
  await page.waitForFunction(() => window.playground.status().time > 1, null, WAIT);
  await page.click('#play');
  await page.waitForFunction(() => !window.playground.status().stepping, null, WAIT);
  const s = await status(page);
  const x = await sideBySide(page);
  const line = `threelink at t = ${s.time.toFixed(3)} s: gap ${x.gap.toExponential(3)} m, ` +
    `XPBD primal residual ${x.primal.toExponential(3)}, constraint residual ${x.constraint.toExponential(3)}`;
  t.diagnostic(line);
  console.log(`side by side: ${line}`);
  assert.equal(s.blown, false);
  assert.ok(x.ghost && x.on);
  assert.ok(Number.isFinite(x.gap) && x.gap > 0 && x.gap < 0.5, `gap ${x.gap}`);
  assert.ok(Number.isFinite(x.primal) && Number.isFinite(x.constraint), 'finite residuals');
  assert.equal(await page.evaluate(() => window.playground.signalValue('gap (m)')), x.gap);

  await page.setViewportSize({ width: 1200, height: 700 });
  await page.click('#fit');
  await page.screenshot({ path: join(shots, 'side-by-side.png') });

  // Reset starts both runs over; turning it off drops the ghost and its signals.
  await page.click('#reset');
  await page.waitForFunction(() => window.playground.status().time === 0 && window.playground.sideBySide().gap < 1e-12, null, WAIT);
  await checkbox(page, TOGGLE).uncheck();
  await page.waitForFunction(() => !window.playground.sideBySide().ghost, null, WAIT);
  assert.ok(!(await signals(page)).some((l) => SIGNALS.includes(l)), 'no side-by-side signals when off');
  assert.deepEqual(errors, []);
  await context.close();
});

test('fourbar, a closed loop, has the toggle disabled and says why', async () => {
  const { page, context, errors } = await openPage(pg.browser, pg.base);
  await pick(page, 'fourbar');
  const x = await sideBySide(page);
  assert.equal(x.enabled, false);
  assert.match(x.title, /closed loops/);
  assert.equal(await checkbox(page, TOGGLE).isDisabled(), true);
  assert.equal(x.ghost, false);
  assert.deepEqual(errors, []);
  await context.close();
});
