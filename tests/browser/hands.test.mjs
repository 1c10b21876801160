// hands.test.mjs — hands on the model (web/src/inspect.js) and the time line (web/src/timeline.js): a click
// selects a body and the inspector names it; a Ctrl+drag pulls a body toward the cursor on the generated
// engine and on XPBD; going back on the time line restores an earlier state bit for bit; a share link opens
// at its time, in its state. Every wait is on the page's state. Screenshots: grab-threelink.png,
// grab-triple_pendulum.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import LZString from 'lz-string';

import { WAIT, openPage, pick, shots, usePlayground, status } from './harness.mjs';

const pg = usePlayground(5873);

const open = (hash = '') => openPage(pg.browser, pg.base + hash);
const hooks = (page, name, ...args) => page.evaluate(([n, a]) => window.playground[n](...a), [name, args]);
const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** Plays until simulated time has advanced by `seconds`, then pauses and waits for the last frame. */
async function playFor(page, seconds) {
  const t0 = (await status(page)).time;
  await page.click('#play');
  await page.waitForFunction((t) => window.playground.status().time > t, t0 + seconds, WAIT);
  await page.click('#play');
  await settled(page);
}

/** Paused, and no frame arrived between two looks 100 ms apart (a frame asked for before the pause lands). */
async function settled(page) {
  await page.waitForFunction(() => {
    const s = window.playground.status();
    const last = window.lastSteps;
    window.lastSteps = s.steps;
    return !s.playing && last === s.steps;
  }, null, { ...WAIT, polling: 100 });
}

/** Bit for bit: every entry the same number, -0 told from 0. */
function same(a, b, what) {
  assert.equal(a.length, b.length, `${what}: length`);
  a.forEach((x, i) => assert.ok(Object.is(x, b[i]), `${what}[${i}]: ${x} vs ${b[i]}`));
}

test('a click selects a body, the inspector names it; Esc and a click on empty space let go', async () => {
  const { page, context, errors } = await open();
  await pick(page, 'threelink');
  const p = await hooks(page, 'bodyScreenPoint', 2);
  await page.mouse.click(p.x, p.y);
  await page.waitForFunction(() => window.playground.selected()?.name === 'link3', null, WAIT);
  const text = await hooks(page, 'inspector');
  assert.match(text, /^link3 {2}\(body 2, revolute\)/);
  assert.match(text, /mass +1\.000 kg/);
  assert.match(text, /position +-?\d+\.\d{3} +-?\d+\.\d{3} +-?\d+\.\d{3} m\n/);
  assert.match(text, /velocity .* m\/s/);
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => window.playground.selected() === null && window.playground.inspector() === null, null, WAIT);

  await page.mouse.click(p.x, p.y);
  await page.waitForFunction(() => window.playground.selected()?.name === 'link3', null, WAIT);
  const box = await page.locator('#viewport canvas').boundingBox();
  await page.mouse.click(box.x + 20, box.y + box.height / 2); // the left edge: sky, no body
  await page.waitForFunction(() => window.playground.selected() === null, null, WAIT);
  assert.deepEqual(errors, []);
  await context.close();
});

for (const [model, engine] of [['threelink', 'generated'], ['triple_pendulum', 'XPBD']]) {
  test(`a Ctrl+drag pulls the body toward the cursor (${model}, ${engine})`, async () => {
    const { page, context, errors } = await open();
    await pick(page, model);
    const last = (await status(page)).poses.length / 7 - 1;
    const p = await hooks(page, 'bodyScreenPoint', last);
    const base = await hooks(page, 'bodyScreenPoint', 0);
    await page.keyboard.down('Control');
    await page.mouse.move(p.x, p.y);
    await page.mouse.down();
    // Halfway toward the first body on the screen: within the chain's reach.
    await page.mouse.move((p.x + base.x) / 2, (p.y + base.y) / 2, { steps: 8 });
    const grab = await hooks(page, 'grab');
    assert.equal(grab?.body, last, 'the press grabbed the body under the cursor');
    assert.equal((await hooks(page, 'selected')).body, last, 'and selected it');
    const before = dist(grab.start, grab.to);
    assert.ok(before > 0.1, `the cursor moved ${before} m away from the grabbed point`);
    await page.evaluate(() => document.getElementById('play').click());
    await page.waitForFunction((d) => {
      const g = window.playground.grab();
      return g.from && Math.hypot(g.from[0] - g.to[0], g.from[1] - g.to[1], g.from[2] - g.to[2]) < 0.5 * d;
    }, before, WAIT);
    const after = await hooks(page, 'grab');
    assert.ok(dist(after.from, after.to) < 0.5 * before, `from ${before} m to ${dist(after.from, after.to)} m`);
    await page.screenshot({ path: join(shots, `grab-${model}.png`) });
    await page.mouse.up();
    await page.keyboard.up('Control');
    assert.equal(await hooks(page, 'grab'), null, 'let go on release');
    assert.equal((await status(page)).blown, false);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the time line goes back to an earlier state bit for bit, and steps back and forward (buttons and keys)', async () => {
  const { page, context, errors } = await open();
  await pick(page, 'threelink');
  await playFor(page, 0.3);
  const earlier = await status(page);
  const mark = await hooks(page, 'timeline');
  assert.equal(mark.index, mark.count - 1, 'the state shown is the last kept');
  await playFor(page, 0.3);
  const later = await status(page);
  assert.ok(later.steps > earlier.steps);

  await page.locator('#timeline').fill(String(mark.index));
  await page.waitForFunction((n) => window.playground.status().steps === n, earlier.steps, WAIT);
  const back = await status(page);
  assert.equal(back.time, earlier.time);
  same(back.poses, earlier.poses, 'poses');
  same(back.q, earlier.q, 'q');
  same(back.qd, earlier.qd, 'qd');

  await page.click('#timeline-back');
  await page.waitForFunction((i) => window.playground.timeline().index === i - 1, mark.index, WAIT);
  assert.ok((await status(page)).steps < earlier.steps);
  await page.click('#timeline-forward');
  await page.waitForFunction((n) => window.playground.status().steps === n, earlier.steps, WAIT);
  same((await status(page)).poses, earlier.poses, 'poses after back and forward');

  // The . key moves along the kept frames too, keeping the ones ahead.
  await page.click('#timeline-back');
  await page.waitForFunction((i) => window.playground.timeline().index === i - 1, mark.index, WAIT);
  const kept = (await hooks(page, 'timeline')).count;
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('.');
  await page.waitForFunction((n) => window.playground.status().steps === n, earlier.steps, WAIT);
  assert.equal((await hooks(page, 'timeline')).count, kept, 'the frames ahead are kept');

  // The states ahead stay until the run steps on from an earlier one: the last is the later state.
  await page.locator('#timeline').fill(String((await hooks(page, 'timeline')).count - 1));
  await page.waitForFunction((n) => window.playground.status().steps === n, later.steps, WAIT);
  same((await status(page)).poses, later.poses, 'the last state again');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a share link opens at its time, in its state; a state that does not fit is refused', async () => {
  const { page, context } = await open();
  await pick(page, 'threelink');
  await playFor(page, 0.4);
  const shared = await status(page);
  await page.click('#share');
  await page.waitForFunction(() => location.hash.startsWith('#s='), null, WAIT);
  const link = await page.evaluate(() => location.hash);
  await context.close();

  const fresh = await open(link);
  const got = await status(fresh.page);
  assert.equal(got.model, 'threelink');
  assert.equal(got.time, shared.time);
  assert.equal(got.steps, shared.steps);
  same(got.poses, shared.poses, 'poses');
  same(got.qd, shared.qd, 'qd');
  assert.equal(got.playing, false);
  assert.equal(got.banner, null);
  const plotted = await fresh.page.evaluate(() => window.playground.plotColumns());
  assert.equal(plotted.data[0][0], shared.time, "the plot starts at the link's time");
  await fresh.context.close();

  const short = Buffer.from(new Float64Array([0.5, 1, 2]).buffer).toString('base64');
  const hash = '#s=' + LZString.compressToEncodedURIComponent(JSON.stringify({ v: 1, model: 'threelink', shown: { time: 0.5, steps: 500, state: short } }));
  const bad = await open(hash);
  const s = await status(bad.page);
  assert.match(s.banner, /share link's state was not restored: .*has 10 values, not 3/);
  assert.equal(s.time, 0);
  await bad.context.close();
});
