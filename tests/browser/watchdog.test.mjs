// watchdog.test.mjs — a step that runs for seconds in the simulation worker (Debian's chromium, headless,
// driven by playwright-core; Vite dev server started here on 127.0.0.1). The page stops the worker after
// STEP_LIMIT_MS (web/src/engine.js), names the model and what to change, and stays usable: the editor keeps
// the text, an edited text reloads and plays, another model loads and plays. Needs wasm/dist/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import LZString from 'lz-string';

import { WAIT, openPage, pick, usePlayground, status } from './harness.mjs';

const pg = usePlayground(5473);

/**
 * An XPBD scene whose one step takes a second or more, yet is an ordinary valid file within the parser's
 * work caps (docs/mech-format.md, "XPBD scenes"): `rods` cantilevers of `elements` cubic elements with full
 * Gauss integration, 10 substeps and 100 iterations. One rod of 74 elements is 9.5e6 of the 1e7 work
 * units a step may have, about 2 s per step in WebAssembly on a 2-CPU Xeon; the page is opened with a
 * watchdog limit of LIMIT_MS (`?watchdog=`), a quarter of that, so the step outlasts it on a faster
 * machine too, while an ordinary frame (10 ms of work) stays far inside it. With `elements` 1 the
 * same scene is cheap.
 */
const LIMIT_MS = 500;
function rods(count, elements) {
  let text = `description ${count} heavy rods\ngravity 0 0 -9.81\n\nxpbd\n  dt 0.01\n  substeps 10\n  iterations 100\nend\n`;
  for (let r = 0; r < count; r++) {
    text += `\nrod r${r}\n  disc cubic\n  elements ${elements}\n  integration full\n  length 1\n  diameter 0.05\n` +
      `  E 5e6\n  rho 1000\n  damping 1e5\n  origin 0 ${0.2 * r} 0\n  dir x\n  clamp start base\nend\n`;
  }
  return text;
}

test('a step that runs for seconds is stopped; the page names the model and stays usable', async (t) => {
  // Opened under the name of an XPBD scene of the gallery, so it runs on engine 'xpbd'.
  const heavy = rods(1, 74);
  const { page, context, errors } = await openPage(pg.browser, pg.base + `?watchdog=${LIMIT_MS}#s=` +
    LZString.compressToEncodedURIComponent(JSON.stringify({ v: 1, model: 'cantilever', text: heavy })));
  const s0 = await status(page);
  assert.ok(s0.loaded && s0.model === 'cantilever', `the heavy scene did not load: ${s0.banner}`);

  const t0 = Date.now();
  await page.click('#play');
  await page.waitForFunction(() => /ran longer than/.test(window.playground.status().banner ?? ''), null, WAIT);
  const seconds = (Date.now() - t0) / 1000;
  t.diagnostic(`the watchdog's message ${seconds.toFixed(2)} s after pressing play`);
  const s1 = await status(page);
  assert.match(s1.banner, /^cantilever: one simulation step ran longer than 0.5 s and was stopped\./);
  assert.match(s1.banner, /fewer substeps or iterations/);
  assert.ok(seconds >= LIMIT_MS / 1000 && seconds < 5, `the message came ${seconds} s after play`);
  assert.deepEqual([s1.loaded, s1.playing], [false, false]);
  assert.equal(await page.evaluate(() => window.playground.editorText()), heavy, 'the editor keeps the text');

  // Edit (one element per rod), reload: the fresh worker opens it and it plays.
  const light = rods(1, 1);
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(light);
  await page.keyboard.press('Control+Enter');
  await page.waitForFunction(() => window.playground.status().loaded, null, WAIT);
  assert.equal(await page.evaluate(() => window.playground.rodInfo().map((r) => r.elements).join()), '1');
  assert.equal((await status(page)).banner, null, 'the reload clears the message');
  await page.click('#play');
  await page.waitForFunction(() => window.playground.status().time > 0.2, null, WAIT);
  await page.click('#play');

  // Another model loads and plays.
  await pick(page, 'threelink');
  await page.click('#play');
  await page.waitForFunction(() => window.playground.status().time > 0.2, null, WAIT);
  await page.click('#play');
  assert.equal((await status(page)).blown, false);
  assert.deepEqual(errors, []);
  await context.close();
});
