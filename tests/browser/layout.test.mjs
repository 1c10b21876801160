// layout.test.mjs — the page from a phone to a wide screen (style.css, layout.js): at 390 × 844, 1024 × 700,
// 1440 × 900 and 1920 × 1080 the view takes at least 90 % of the phone's width, Play runs the model, and every
// control shown lies inside the window, on one line, overlapping no other (by the elements' boxes); on the
// phone and at 1024 the Models drawer opens over the page and a card picks a model; at 1440 × 900 the settings
// show their controls without scrolling; from 1600 px the stages readout times a frame. A screenshot per size goes to build/screenshots/layout-<w>x<h>.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { WAIT, openPage, shots, status, usePlayground } from './harness.mjs';

const pg = usePlayground(6273);

const SIZES = [[390, 844], [1024, 700], [1440, 900], [1920, 1080]];

/**
 * The boxes of the controls shown: buttons, selects, inputs, the readouts and the tabs, each with its text's
 * overflow (a label wider than its box, or on a second line) — what a scrolling pane has scrolled out of its box
 * (rows of the gallery or the settings, the plot's signal chips) is left out: the pane scrolls it into view.
 */
function controlBoxes(page) {
  return page.evaluate(() => {
    const scroller = (el) => {
      for (let p = el.parentElement; p; p = p.parentElement) {
        const style = getComputedStyle(p);
        if ((/(auto|scroll)/.test(style.overflowY) && p.scrollHeight > p.clientHeight)
          || (/(auto|scroll)/.test(style.overflowX) && p.scrollWidth > p.clientWidth)) return p;
      }
      return null;
    };
    const out = [];
    for (const el of document.querySelectorAll('button, select, input, .readout, [role="tab"]')) {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (r.width === 0 || r.height === 0 || style.visibility === 'hidden') continue;
      if (el.closest('.lil-gui, .cards, .download-menu, .cm-editor, .help')) continue; // lists and menus of their own
      const pane = scroller(el);
      if (pane) {
        const p = pane.getBoundingClientRect();
        if (r.bottom > p.bottom || r.top < p.top || r.right > p.right || r.left < p.left) continue;
      }
      const label = el.id || el.className || el.tagName;
      const lineHeight = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.4;
      out.push({
        label: `${el.tagName.toLowerCase()}#${label}`,
        x: r.left, y: r.top, right: r.right, bottom: r.bottom,
        clipped: el.scrollWidth > el.clientWidth + 1 && el.tagName !== 'SELECT' && el.tagName !== 'INPUT',
        wrapped: el.tagName === 'BUTTON' && el.clientHeight > 2 * lineHeight + 14,
      });
    }
    return { out, width: innerWidth, height: innerHeight };
  });
}

/** Fails naming every control outside the window, clipped, wrapped or overlapping another. */
async function assertLaidOut(page, what) {
  const { out, width, height } = await controlBoxes(page);
  assert.ok(out.length > 5, `${what}: controls found`);
  const problems = [];
  for (const b of out) {
    if (b.x < -0.5 || b.y < -0.5 || b.right > width + 0.5 || b.bottom > height + 0.5) problems.push(`${b.label} leaves the window`);
    if (b.clipped) problems.push(`${b.label} is clipped`);
    if (b.wrapped) problems.push(`${b.label} wraps`);
  }
  for (let i = 0; i < out.length; i++) {
    for (let j = i + 1; j < out.length; j++) {
      const [a, b] = [out[i], out[j]];
      const w = Math.min(a.right, b.right) - Math.max(a.x, b.x);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.y, b.y);
      if (w > 1 && h > 1) problems.push(`${a.label} overlaps ${b.label}`);
    }
  }
  assert.deepEqual(problems, [], what);
}

for (const [width, height] of SIZES) {
  test(`${width} × ${height}: the view, Play, and every control inside the window on one line`, async () => {
    const { page, context, errors } = await openPage(pg.browser, pg.base, { width, height });
    const view = await page.locator('#viewport').boundingBox();
    if (width < 760) assert.ok(view.width >= 0.9 * width, `the view is ${view.width} px of ${width}`);
    assert.ok(view.height >= 0.4 * height, `the view is ${view.height} px tall of ${height}`);
    await assertLaidOut(page, `${width} × ${height}`);

    const t0 = (await status(page)).time;
    await page.click('#play');
    await page.waitForFunction((t) => window.playground.status().time > t + 0.05, t0, WAIT);
    if (width >= 1600) {
      // The stages readout: the dynamics, the contact and the drawing, in ms per frame.
      await page.waitForFunction(() => /^dynamics [\d.]+ · contact [\d.]+ · draw [\d.]+ ms\/frame$/.test(
        document.getElementById('stages').textContent), null, WAIT);
    }
    await page.click('#play');
    await assertLaidOut(page, `${width} × ${height}, paused after playing`);

    if (width < 1280) {
      // The gallery is a drawer: closed, its cards are hidden; the Models button opens it, a card picks.
      assert.equal(await page.isVisible('.card[data-model="elbow"]'), false);
      await page.click('#models-button');
      await page.click('.card[data-model="elbow"]');
      await page.waitForFunction(() => window.playground.status().model === 'elbow', null, WAIT);
      assert.equal(await page.isVisible('.card[data-model="elbow"]'), false, 'picking closes the drawer');
    }
    if (width < 760) {
      for (const tab of ['text', 'plot', 'settings']) {
        await page.click(`#tab-${tab}`);
        await assertLaidOut(page, `${width} × ${height}, tab ${tab}`);
      }
      assert.ok(await page.isVisible('.controls-pane .lil-gui'), 'the settings tab shows the settings');
    }
    if (width === 1440) {
      const pane = await page.evaluate(() => {
        const el = document.querySelector('.controls-pane');
        return { scroll: el.scrollHeight, client: el.clientHeight };
      });
      assert.ok(pane.scroll <= pane.client + 1, `the settings fit their pane: ${pane.scroll} px in ${pane.client}`);
    }
    await page.screenshot({ path: join(shots, `layout-${width}x${height}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  });
}
