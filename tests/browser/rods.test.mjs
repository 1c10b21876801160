// rods.test.mjs — Cosserat rods in the playground (Debian's chromium, headless, software WebGL, driven by
// playwright-core; Vite dev server started here on 127.0.0.1): the rod models are in the gallery, the
// cantilever loads on engine 'xpbd', draws a tube (the canvas is not blank and the rod covers part of the
// view), simulated time advances and the tip sags; the element-count and order sliders rebuild the rod.
// Needs wasm/dist/ (scripts/build-wasm.sh). Screenshots go to build/screenshots/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { WAIT, openPage, pick, shots, usePlayground, status } from './harness.mjs';

const pg = usePlayground(5373);

/** The number box of the slider labelled `label` in the Rods panel. */
const rodSlider = (page, label) =>
  page.locator('.rod-controls .lil-controller').filter({ hasText: label }).locator('input');

test('the cantilever rod: listed, drawn as a tube, time advances, the tip sags; sliders rebuild it', async (t) => {
  const { page, context, errors } = await openPage(pg.browser, pg.base);

  const models = await page.evaluate(() => window.playground.models());
  const xpbd = models.filter((m) => m.group === 'xpbd').map((m) => m.name);
  for (const name of ['cantilever', 'spring']) assert.ok(xpbd.includes(name), `${name} is in the gallery (${xpbd})`);
  assert.equal(models.find((m) => m.name === 'cantilever').nrod, 1);

  await pick(page, 'cantilever');
  const info = await page.evaluate(() => window.playground.rodInfo());
  assert.deepEqual(info.map((r) => [r.name, r.disc, r.elements]), [['beam', 'cubic', 5]]);
  const [rest] = await page.evaluate(() => window.playground.rods());
  assert.ok(Math.abs(rest.end[0] - 1) < 1e-9 && Math.abs(rest.end[2]) < 1e-9, `rest tip ${rest.end}`);

  await page.click('#play');
  await page.waitForFunction(() => window.playground.status().time > 0.5, null, WAIT);
  await page.click('#play');
  const s = await status(page);
  assert.ok(s.time > 0.5, 'simulated time advances');
  assert.equal(s.blown, false, `blew up: ${s.banner}`);
  const [bent] = await page.evaluate(() => window.playground.rods());
  assert.ok(bent.end[2] < -0.1, `the tip sags under gravity (z ${bent.end[2]})`);
  assert.ok(Math.hypot(...bent.start) < 1e-9, 'the clamped end stays');

  await page.waitForTimeout(300); // paused: the next draw is at full quality
  const px = await page.evaluate(() => window.playground.pixelStats());
  t.diagnostic(`cantilever: t = ${s.time.toFixed(3)} s, tip z ${bent.end[2].toFixed(4)} m, luminance variance ${px.variance.toFixed(1)}, rod covers ${(100 * px.modelFraction).toFixed(2)} % of the view`);
  assert.ok(px.variance > 20, `the canvas is blank (variance ${px.variance})`);
  assert.ok(px.modelFraction > 0.002, `the rod is not visible (${px.modelFraction})`);
  await page.screenshot({ path: join(shots, 'rod-cantilever.png') });

  // Element count 5 → 12 (slider), then order cubic → linear (dropdown): each rebuilds the rod from the text.
  const elements = rodSlider(page, 'elements');
  await elements.fill('12');
  await elements.press('Enter');
  await page.waitForFunction(() => window.playground.rodInfo()[0]?.elements === 12, null, WAIT);
  assert.match(await page.evaluate(() => window.playground.editorText()), /^\s*elements 12\b/m);
  await page.locator('.rod-controls .lil-controller').filter({ hasText: 'order' }).locator('select').selectOption('linear');
  await page.waitForFunction(() => window.playground.rodInfo()[0]?.disc === 'linear', null, WAIT);
  const rebuilt = await page.evaluate(() => window.playground.rodInfo()[0]);
  assert.deepEqual([rebuilt.disc, rebuilt.elements, rebuilt.nodes], ['linear', 12, 13]);
  await page.click('#play');
  await page.waitForFunction(() => window.playground.status().time > 0.3, null, WAIT);
  await page.click('#play');
  assert.equal((await status(page)).blown, false);

  // The helix spring: a tube with 30 quadratic elements, its top end moving down.
  await pick(page, 'spring');
  const [top0] = await page.evaluate(() => window.playground.rods());
  await page.click('#play');
  await page.waitForFunction(() => window.playground.status().time > 0.3, null, WAIT);
  await page.click('#play');
  const [top1] = await page.evaluate(() => window.playground.rods());
  assert.ok(top1.end[2] < top0.end[2] - 1e-3, `the spring's top end moves down (${top0.end[2]} → ${top1.end[2]})`);
  await page.waitForTimeout(300);
  const spx = await page.evaluate(() => window.playground.pixelStats());
  assert.ok(spx.modelFraction > 0.002, `the spring is not visible (${spx.modelFraction})`);
  await page.screenshot({ path: join(shots, 'rod-spring.png') });

  assert.deepEqual(errors, []);
  await context.close();
});
