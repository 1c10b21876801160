// second-look.test.mjs — the playground's picture, per-model settings, plots, keys and first run, in Debian's
// chromium (headless, software WebGL) driven by playwright-core, on a Vite dev server this file starts. Every wait
// is on the page's state (simulated time, steps, what is shown), never on a duration; figures such as the frame
// rate are printed, not asserted. Needs wasm/dist/ (scripts/build-wasm.sh).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { TEXT_ENGINES, WAIT, openPage, pick, shots, status, usePlayground } from './harness.mjs';

const pg = usePlayground(5773);

const open = () => openPage(pg.browser, pg.base);
const renderStats = (page) => page.evaluate(() => window.playground.renderStats());

/** The lil-gui controller labelled `name` (exactly). */
const controller = (page, name) =>
  page.locator('.lil-controller').filter({ has: page.locator('.lil-name', { hasText: new RegExp(`^${name}$`) }) });

/** Plays until `simTime`, then pauses and waits for the last frame asked for. */
async function playUntil(page, simTime) {
  await page.click('#play');
  await page.waitForFunction((t) => window.playground.status().time > t, simTime, WAIT);
  await page.click('#play');
  await page.waitForFunction(() => !window.playground.status().stepping, null, WAIT);
}

/** The model's box on the canvas (fractions of it): its larger side, and whether all of it is in view. */
async function framing(page) {
  const f = await page.evaluate(() => window.playground.framing());
  return { ...f, side: Math.max(f.right - f.left, f.bottom - f.top), inside: f.left >= 0 && f.top >= 0 && f.right <= 1 && f.bottom <= 1 };
}

test('hmmwv_pitman plays at a pixel ratio of 0.75 or more, without its joint axes and points of interest', async (t) => {
  const { page, context, errors } = await open();
  assert.equal(await controller(page, 'joint axes').locator('input').isChecked(), true, 'threelink shows its joint axes');
  await pick(page, 'hmmwv_pitman');
  for (const name of ['joint axes', 'points of interest']) {
    assert.equal(await controller(page, name).locator('input').isChecked(), false, `a vehicle starts without ${name}`);
  }
  assert.equal((await renderStats(page)).quality, 'auto');

  // The lowest pixel ratio of any frame drawn while playing, until the rendering level is the lowest or 4 s
  // of simulated time have passed (the level is measured every half second of wall time).
  await page.click('#play');
  const lowest = await page.evaluate(() => new Promise((resolve) => {
    let min = Infinity;
    const watch = () => {
      const { pixelRatio, level } = window.playground.renderStats();
      min = Math.min(min, pixelRatio);
      if (level === 4 || window.playground.status().time > 4) resolve(min);
      else requestAnimationFrame(watch);
    };
    watch();
  }));
  const s = await status(page);
  const r = await renderStats(page);
  const line = `hmmwv_pitman playing: lowest pixel ratio ${lowest}, level ${r.level}, ${s.fps.toFixed(1)} fps, RTF ${s.rtf.toFixed(2)}, ${r.calls} draw calls`;
  t.diagnostic(line);
  console.log(`second look: ${line}`);
  assert.ok(lowest >= 0.75, `pixel ratio ${lowest}`);

  // Quality "low": the cheapest level at once, which renders at 0.75.
  await controller(page, 'quality').locator('select').selectOption('low');
  const low = await renderStats(page);
  assert.deepEqual([low.quality, low.level, low.pixelRatio], ['low', 4, 0.75]);
  await page.click('#play');
  assert.equal((await status(page)).blown, false);
  assert.deepEqual(errors, []);
  await context.close();
});

test("spring steps at its file's dt, shown in the dt control; its rod signals are plotted", async (t) => {
  const { page, context, errors } = await open();
  await pick(page, 'spring');
  assert.equal((await page.evaluate(() => window.playground.settings())).dt, 0.01);
  const shown = await controller(page, 'dt').locator('select').evaluate((s) => s.options[s.selectedIndex].textContent);
  assert.equal(shown, 'model (10 ms)');

  // One step with the Step button, one with ".": each advances time by exactly the file's dt.
  const s0 = await status(page);
  await page.click('#step');
  await page.waitForFunction((n) => window.playground.status().steps === n + 1, s0.steps, WAIT);
  await page.keyboard.press('.');
  await page.waitForFunction((n) => window.playground.status().steps === n + 2, s0.steps, WAIT);
  const s2 = await status(page);
  assert.ok(Math.abs(s2.time - s0.time - 0.02) < 1e-12, `two steps took ${s2.time - s0.time} s`);

  const signals = await page.evaluate(() => window.playground.signals());
  for (const label of ['rod coil tip.z', 'rod coil strain', 'rod coil kinetic energy']) assert.ok(signals.includes(label), `signal ${label}`);
  assert.deepEqual(await page.evaluate(() => window.playground.plotted()), ['rod coil tip.z']);
  await page.selectOption('#signal', { label: 'rod coil kinetic energy' });
  await page.selectOption('#signal', { label: 'rod coil strain' });
  assert.deepEqual(await page.evaluate(() => window.playground.plotted()), ['rod coil tip.z', 'rod coil kinetic energy', 'rod coil strain']);

  await page.click('#play');
  await page.waitForFunction(() => window.playground.status().time > 1, null, WAIT);
  const { rtf } = await status(page);
  await page.click('#play');
  const value = (label) => page.evaluate((l) => window.playground.signalValue(l), label);
  const [tip, strain, kinetic] = [await value('rod coil tip.z'), await value('rod coil strain'), await value('rod coil kinetic energy')];
  t.diagnostic(`spring: RTF ${rtf.toFixed(2)} while playing; at t = ${(await status(page)).time.toFixed(2)} s tip z ${tip.toFixed(4)} m, strain ${strain.toExponential(2)}, kinetic energy ${kinetic.toExponential(2)} J`);
  assert.ok(tip < 0.55 - 1e-3, `the top end is pushed down (${tip})`);
  assert.ok(Number.isFinite(strain) && Math.abs(strain) < 0.01, `strain ${strain}`);
  assert.ok(kinetic > 0, `kinetic energy ${kinetic}`);
  const columns = await page.evaluate(() => window.playground.plotColumns());
  assert.deepEqual(columns.header, ['t (s)', 'rod coil tip.z', 'rod coil kinetic energy (J)', 'rod coil strain']);
  assert.ok(columns.data[1].length > 10 && columns.data[1].every(Number.isFinite), 'the plot is not empty');

  // R resets: time back to 0.
  await page.locator('#viewport canvas').click();
  await page.keyboard.press('r');
  await page.waitForFunction(() => window.playground.status().time === 0, null, WAIT);
  assert.deepEqual(errors, []);
  await context.close();
});

test('CSV downloads exactly the plotted columns, with a header row', async () => {
  const { page, context, errors } = await open();
  await page.selectOption('#signal', { label: 'qd[1] link2' });
  await page.selectOption('#signal', { label: 'link3.z' });
  await page.locator('#plotted .chip', { hasText: 'total energy' }).click();
  assert.deepEqual(await page.evaluate(() => window.playground.plotted()), ['q[0] link1', 'qd[1] link2', 'link3.z']);
  await playUntil(page, 0.3);

  const [download] = await Promise.all([page.waitForEvent('download', WAIT), page.click('#csv')]);
  assert.equal(download.suggestedFilename(), 'threelink.csv');
  const rows = (await readFile(await download.path(), 'utf8')).trimEnd().split('\r\n').map((r) => r.split(','));
  const { header, data } = await page.evaluate(() => window.playground.plotColumns());
  assert.deepEqual(rows[0], ['t (s)', 'q[0] link1', 'qd[1] link2', 'link3.z']);
  assert.deepEqual(rows[0], header);
  assert.equal(rows.length - 1, data[0].length, 'one row per plotted sample');
  assert.ok(rows.length > 10);
  rows.slice(1).forEach((row, i) => row.forEach((cell, c) => assert.equal(Number(cell), data[c][i], `row ${i + 1}, column ${c}`)));
  assert.equal(Number(rows.at(-1)[0]), (await status(page)).time, 'the last row is the last frame');
  assert.deepEqual(errors, []);
  await context.close();
});

test('F and the Fit button frame the model; a small model fills a fair part of the view on load', async () => {
  const { page, context, errors } = await open();
  await pick(page, 'spring');
  const loaded = await framing(page);
  assert.ok(loaded.inside && loaded.side > 0.35, `spring on load: ${JSON.stringify(loaded)}`);

  // Zoomed far out, the spring is a speck; F brings it back.
  const canvas = page.locator('#viewport canvas');
  await canvas.hover();
  const zoomOut = async () => {
    while ((await framing(page)).side > 0.15) await page.mouse.wheel(0, 400);
  };
  await zoomOut();
  await page.keyboard.press('f');
  await page.waitForFunction(() => {
    const f = window.playground.framing();
    return Math.max(f.right - f.left, f.bottom - f.top) > 0.35;
  }, null, WAIT);
  const fitted = await framing(page);
  assert.ok(fitted.inside && fitted.side > 0.35 && fitted.side <= 1, `after F: ${JSON.stringify(fitted)}`);

  await zoomOut();
  await page.click('#fit');
  await page.waitForFunction(() => {
    const f = window.playground.framing();
    return Math.max(f.right - f.left, f.bottom - f.top) > 0.35;
  }, null, WAIT);
  assert.ok((await framing(page)).inside, 'the Fit button keeps all of it in view');
  assert.deepEqual(errors, []);
  await context.close();
});

test('? opens the shortcuts overlay and Esc closes it; shortcuts are ignored while typing; the hint shows once', async () => {
  const { page, context, errors } = await open();
  assert.equal(await page.locator('#hint').isVisible(), true, 'a first visit shows the hint');
  await page.keyboard.press('?');
  await page.locator('#help').waitFor({ state: 'visible', ...WAIT });
  const listed = await page.locator('#help-keys tr td:first-child').allTextContents();
  for (const key of ['Space', 'R', '.', ',', 'F', '?', 'Esc']) assert.ok(listed.includes(key), `the help lists ${key} (${listed})`);
  assert.match(await page.locator('#help-keys').textContent(), /time line/, 'it says step back goes back on the time line');
  await page.screenshot({ path: join(shots, 'help.png') });
  await page.keyboard.press('Escape');
  await page.locator('#help').waitFor({ state: 'hidden', ...WAIT });

  // In the editor, "?" and Space are text.
  const text = await page.evaluate(() => window.playground.editorText());
  await page.locator('.cm-content .cm-line', { hasText: /^gravity / }).click();
  await page.keyboard.press('End');
  await page.keyboard.type(' ? f');
  assert.equal(await page.evaluate(() => window.playground.editorText()), text.replace(/^gravity .*$/m, '$& ? f'));
  assert.equal(await page.locator('#help').isVisible(), false);
  assert.equal((await status(page)).playing, false);

  // The next visit has no hint.
  await page.reload();
  await page.waitForFunction(() => window.playground?.status().ready, null, WAIT);
  assert.equal(await page.locator('#hint').isVisible(), false, 'the hint is remembered');
  assert.deepEqual(errors, []);
  await context.close();
});

test('New model opens a template in the editor and runs it', async () => {
  const { page, context, errors } = await open();
  await page.click('#new-model');
  await page.waitForFunction(() => window.playground.status().time > 0.3, null, WAIT);
  const s = await status(page);
  assert.deepEqual([s.model, s.playing, s.blown], ['untitled', true, false]);
  assert.ok(TEXT_ENGINES.includes(s.backend), s.backend);
  assert.match(await page.evaluate(() => window.playground.editorText()), /^# A new model: a double pendulum/);
  assert.equal(await page.locator('#file-name').textContent(), 'untitled.mech');
  assert.equal(s.q.length, 2);
  await page.click('#play');
  assert.deepEqual(errors, []);
  await context.close();
});
