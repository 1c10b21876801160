// actuators.test.mjs — the actuator panel (headless chromium): the Panda's Actuators folder has one slider per
// servo (the gripper's on its tendon among them), named, over its ctrlrange, and moving actuator4's moves joint 4; the M113 shows its drive controls and
// no slider per track shoe; a share link carries the ctrl values and reopens them.  Every wait is on the state
// the page shows, never on a fixed time.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { control, openPage, pick, status, usePlayground } from './harness.mjs';

const pg = usePlayground(5591);
const LONG = { timeout: 300_000 };

/** The number box of the actuator slider called `name`. */
const actuatorInput = (page, name) => control(page, 'Actuators', name).locator('input');

test('panda: one slider per servo; actuator4 moves joint 4; a share link reopens the ctrl values', async () => {
  const { page, context, errors } = await openPage(pg.browser, pg.base);
  await pick(page, 'panda');
  const model = await page.evaluate(() => window.playground.describe());
  assert.equal(model.actuators.length, 8, 'the seven joint servos and the gripper\'s, on its tendon');
  for (const a of model.actuators) assert.equal(await control(page, 'Actuators', a.name).count(), 1, `a slider for ${a.name}`);
  const link4 = model.bodies.find((b) => b.name === 'link4');
  const first = (await page.evaluate(() => window.playground.inputs())).act.length - model.actuators.length;

  await page.click('#play');
  await page.waitForFunction(() => window.playground.status().time > 0.5, null, LONG);
  const before = (await status(page)).q[link4.qidx];
  await actuatorInput(page, 'actuator4').fill('-1.2');
  await actuatorInput(page, 'actuator4').press('Enter');
  const ctrl = (await page.evaluate(() => window.playground.inputs())).act[first + 3];
  assert.ok(Math.abs(ctrl - -1.2) < 1e-3, `actuator4's ctrl, on the slider's step: ${ctrl}`);
  const t0 = (await status(page)).time;
  await page.waitForFunction((t) => window.playground.status().time > t + 2, t0, LONG);
  await page.click('#play');
  const after = (await status(page)).q[link4.qidx];
  assert.ok(Math.abs(after - ctrl) < 0.1, `joint 4 went to the servo's target: ${before} -> ${after}`);

  await page.click('#share');
  const link = await page.evaluate(() => location.hash);
  const want = await page.evaluate(() => window.playground.inputs());
  await context.close();
  const fresh = await openPage(pg.browser, `${pg.base}${link}`);
  await fresh.page.waitForFunction(() => window.playground.status().loaded, null, LONG);
  const got = await fresh.page.evaluate(() => window.playground.inputs());
  assert.deepEqual(got.act, want.act, 'the link reopened the ctrl values');
  assert.equal(await fresh.page.evaluate(() => document.querySelector('.lil-gui') !== null), true);
  assert.deepEqual(errors, []);
  await fresh.context.close();
});

test('m113: its drive controls, no slider per track shoe', async () => {
  const { page, context, errors } = await openPage(pg.browser, pg.base);
  await pick(page, 'm113');
  assert.equal(await control(page, 'Track drive', 'throttle').count(), 1, 'a throttle');
  const titles = await page.locator('.lil-gui .lil-title').allTextContents();
  assert.ok(!titles.some((t) => /Joint tau/.test(t)), `no per-joint folder: ${titles.join(', ')}`);
  assert.ok(await page.locator('.lil-controller').count() < 60, 'a panel of a few controls, not one per shoe');
  assert.deepEqual(errors, []);
  await context.close();
});
