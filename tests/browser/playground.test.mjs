// playground.test.mjs — the playground in Debian's chromium (headless, software WebGL), driven by
// playwright-core, served by a Vite dev server this file starts on 127.0.0.1 and stops at the end.
// Needs the WebAssembly modules (wasm/dist/, scripts/build-wasm.sh). Screenshots go to build/screenshots/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import LZString from 'lz-string';

import { TEXT_ENGINES, WAIT, openPage, pick, shots, usePlayground, status } from './harness.mjs';
import { bomb } from './lz-bomb.mjs';

const pg = usePlayground(5273);

/** A fresh page at `hash` (harness.mjs, openPage); page errors fail the test. */
const open = (hash = '') => openPage(pg.browser, pg.base + hash);

async function playFor(page, simSeconds) {
  const t0 = (await status(page)).time;
  await page.click('#play');
  await page.waitForFunction((t) => window.playground.status().time > t, t0 + simSeconds, WAIT);
  await page.click('#play');
}

/** The number box of the `index`-th slider in the settings folder titled `folder`. */
function sliderInput(page, folder, index) {
  return page.locator('.lil-gui:not(.lil-root)').filter({ has: page.locator(':scope > .lil-title', { hasText: folder }) })
    .locator('.lil-controller.lil-number input').nth(index);
}

async function setSlider(page, folder, index, value) {
  const input = sliderInput(page, folder, index);
  await input.fill(String(value));
  await input.press('Enter');
}

/** Puts the cursor at the end of 1-based `line` of the editor (a short line: End is per visual line). */
async function cursorToLineEnd(page, line) {
  await page.locator('.cm-content .cm-line').nth(line - 1).click();
  await page.keyboard.press('End');
}

/** 1-based number of the first line of `text` that starts with `prefix` (after indentation). */
function lineOf(text, prefix) {
  const i = text.split('\n').findIndex((l) => l.trimStart().startsWith(prefix));
  assert.ok(i >= 0, `no line starting with "${prefix}"`);
  return i + 1;
}

test('every gallery model draws a non-blank canvas and advances simulated time', async (t) => {
  const { page, context, errors } = await open();
  const models = await page.evaluate(() => window.playground.models());
  assert.ok(models.length > 0, 'the gallery is empty');
  for (const { name } of models) {
    // The model at its initial state, paused: the next draw is at full quality. Visibility is judged here, where
    // it does not depend on how far the run got before the pause landed (a free-falling satellite leaves the view
    // within a second or two, and a loaded machine can pause late).
    await pick(page, name);
    await page.waitForTimeout(300);
    const px = await page.evaluate(() => window.playground.pixelStats());
    assert.ok(px.variance > 20, `${name}: the canvas is blank (variance ${px.variance})`);
    assert.ok(px.modelFraction > 0.002, `${name}: the model is not visible (${px.modelFraction})`);
    await playFor(page, 0.25);
    const s = await status(page);
    assert.ok(s.time > 0.25, `${name}: simulated time did not advance`);
    assert.equal(s.blown, false, `${name}: blew up: ${s.banner}`);
    await page.waitForTimeout(300); // paused: the next draw is at full quality
    const after = await page.evaluate(() => window.playground.pixelStats());
    t.diagnostic(`${name}: ${s.backend}, model covers ${(100 * px.modelFraction).toFixed(2)} % of the view at t = 0 ` +
      `(luminance variance ${px.variance.toFixed(1)}), ${(100 * after.modelFraction).toFixed(2)} % at t = ${s.time.toFixed(3)} s`);
    assert.ok(after.variance > 20, `${name}: the canvas is blank after playing (variance ${after.variance})`);
    await page.screenshot({ path: join(shots, `${name}.png`) });
  }
  const heaviest = models.reduce((a, b) => (b.nv > a.nv || (b.nv === a.nv && b.nb > a.nb) ? b : a));
  await pick(page, heaviest.name);
  await page.click('#play');
  await page.waitForTimeout(4000);
  const { fps, rtf } = await status(page);
  const r = await page.evaluate(() => window.playground.renderStats());
  await page.click('#play');
  const line = `heaviest model ${heaviest.name} (nv ${heaviest.nv}): ${fps.toFixed(1)} fps, real-time factor ${rtf.toFixed(2)} ` +
    `(headless chromium, software WebGL; ${r.calls} draw calls, ${r.triangles} triangles, rendering level ${r.level}, pixel ratio ${r.pixelRatio})`;
  t.diagnostic(line);
  console.log(`playground: ${line}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the HMMWV rig runs on its generated module: shaker-post and steering sliders move the suspension', async (t) => {
  const { page, context, errors } = await open();
  const groups = await page.locator('#gallery .card-group').allTextContents();
  assert.deepEqual(groups, ['My models', 'Trees', 'Closed loops & vehicles', 'Tracked vehicles', 'Test rigs', 'XPBD: rods & scenes']);
  const loops = await page.evaluate(() => window.playground.models().filter((m) => m.group === 'loops').map((m) => m.name));
  for (const name of ['fourbar', 'quartercar', 'halfcar', 'hmmwv', 'hmmwv_pitman']) assert.ok(loops.includes(name), `${name} is in the gallery`);
  const rigs = await page.evaluate(() => window.playground.models().filter((m) => m.group === 'rigs').map((m) => m.name));
  assert.deepEqual(rigs.sort(), ['hmmwv_pitman_rig', 'hmmwv_rig'], 'the shaker-post rigs are grouped apart from the vehicles');
  await pick(page, 'hmmwv_rig');
  const s0 = await status(page);
  assert.equal(s0.backend, 'generated');
  const names = await page.locator('.lil-gui:not(.lil-root)').filter({ has: page.locator(':scope > .lil-title', { hasText: 'Actuator inputs' }) })
    .locator('.lil-controller .lil-name').allTextContents();
  assert.deepEqual(names, ['fl_post_drive (m)', 'fr_post_drive (m)', 'rl_post_drive (m)', 'rr_post_drive (m)', 'steer (m)']);
  // Let the vehicle settle on its springs, then raise the front-left post 8 cm and steer the rack 3 cm.
  await playFor(page, 0.3);
  const settled = await status(page);
  await setSlider(page, 'Actuator inputs', 0, 0.08);
  await setSlider(page, 'Actuator inputs', 4, 0.03);
  const act = (await page.evaluate(() => window.playground.inputs())).act;
  assert.ok(Math.abs(act[0] - 1e6 * 0.08) < 1e-6 && Math.abs(act[4] - 2e5 * 0.03) < 1e-6, `act ${act}`);
  await playFor(page, 0.5);
  const moved = await status(page);
  assert.ok(moved.time > settled.time + 0.5, 'simulated time advances');
  assert.equal(moved.blown, false, moved.banner ?? '');
  const bodies = await page.evaluate(() => window.playground.models().find((m) => m.name === 'hmmwv_rig').nb);
  const z = (s, b) => s.poses[7 * b + 2];
  // body 5 is fl_post (the rsda's joint): it follows the command; the whole suspension moves with it.
  const shift = Array.from({ length: bodies }, (_, b) => Math.hypot(...[0, 1, 2].map((k) => moved.poses[7 * b + k] - settled.poses[7 * b + k])));
  t.diagnostic(`hmmwv_rig: fl post z ${z(settled, 5).toFixed(3)} -> ${z(moved, 5).toFixed(3)} m, largest body shift ${Math.max(...shift).toFixed(3)} m`);
  assert.ok(z(moved, 5) - z(settled, 5) > 0.05, 'the front-left shaker post rose');
  // The model's observation values are plottable signals: the front-left spring's length is live.
  const signals = await page.evaluate(() => window.playground.signals());
  for (const label of ['poi fl_contact.z', 'tsda fl_spring length', 'tsda fl_spring rate']) assert.ok(signals.includes(label), `signal ${label}`);
  const spring = await page.evaluate(() => window.playground.signalValue('tsda fl_spring length'));
  const contact = await page.evaluate(() => window.playground.signalValue('poi fl_contact.z'));
  t.diagnostic(`hmmwv_rig: fl_spring length ${spring.toFixed(4)} m, fl_contact z ${contact.toFixed(4)} m`);
  assert.ok(spring > 0.1 && spring < 1, `spring length ${spring}`);
  assert.ok(Number.isFinite(contact), `contact z ${contact}`);
  assert.ok(shift.filter((d) => d > 0.01).length >= 4, 'the post moves the suspension and chassis with it');
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(shots, 'hmmwv_rig.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('typing an error marks its line; fixing it and reloading runs the edited model', async () => {
  const { page, context, errors } = await open();
  await pick(page, 'threelink');
  const text = await page.evaluate(() => window.playground.editorText());
  const line = lineOf(text, 'mass');

  await cursorToLineEnd(page, line);
  await page.keyboard.type(' oops');
  await page.waitForFunction(() => window.playground.editorErrors().length > 0, null, WAIT);
  const [err] = await page.evaluate(() => window.playground.editorErrors());
  assert.equal(err.line, line, `marker on line ${err.line}, expected ${line}: ${err.message}`);
  assert.ok(await page.locator('.cm-lint-marker-error').count(), 'no error marker in the gutter');
  assert.match(await page.textContent('#parse-status'), new RegExp(`line ${line}, column \\d+`));
  await page.screenshot({ path: join(shots, 'editor-error.png') });

  // Fix: drop the typo, and make a visible edit (first joint's initial angle 30 → 60 degrees).
  for (let i = 0; i < ' oops'.length; i++) await page.keyboard.press('Backspace');
  const q0 = lineOf(text, 'q0');
  await cursorToLineEnd(page, q0);
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('60');
  await page.waitForFunction(() => window.playground.editorErrors().length === 0, null, WAIT);
  await page.keyboard.press('Control+Enter');
  await page.waitForFunction((e) => e.includes(window.playground.status().backend), TEXT_ENGINES, WAIT);
  const s = await status(page);
  assert.ok(Math.abs(s.q[0] - Math.PI / 3) < 1e-12, `edited q0 not applied: q[0] = ${s.q[0]}`);
  assert.equal(await page.isVisible('#edited'), true);
  await playFor(page, 0.1);
  assert.ok((await status(page)).time > 0.1);

  // The edit survives a page reload (localStorage), and "revert to shipped" brings back the module.
  await page.reload();
  await page.waitForFunction(() => window.playground?.status().ready, null, WAIT);
  assert.ok(TEXT_ENGINES.includes((await status(page)).backend));
  await page.click('#revert');
  await page.waitForFunction(() => window.playground.status().backend === 'generated', null, WAIT);
  assert.equal(await page.evaluate(() => window.playground.editorText()), text);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a share link reproduces text, sliders, dt and time scale in a fresh page', async () => {
  const { page, context } = await open();
  await pick(page, 'fourlink');
  const text = await page.evaluate(() => window.playground.editorText());
  await cursorToLineEnd(page, lineOf(text, 'description'));
  await page.keyboard.type(' (shared)');
  await setSlider(page, 'Joint tau', 0, 1.5);
  await setSlider(page, 'Gravity', 2, -5);
  const timeScaleInput = page.locator('.lil-gui .lil-controller.lil-number').filter({ hasText: 'time scale' }).locator('input');
  await timeScaleInput.fill('0.5');
  await timeScaleInput.press('Enter');
  await page.selectOption('.lil-gui .lil-controller.lil-option select', { label: '2 ms' });
  const want = await page.evaluate(() => ({
    text: window.playground.editorText(),
    inputs: window.playground.inputs(),
    settings: window.playground.settings(),
    camera: window.playground.camera(),
  }));
  assert.notEqual(want.text, text);
  assert.equal(want.inputs.tau[0], 1.5);
  assert.deepEqual(want.inputs.gravity, [0, 0, -5]);
  await page.click('#share');
  const link = await page.evaluate(() => location.hash);
  await context.close();

  const fresh = await open(link);
  const got = await fresh.page.evaluate(() => ({
    text: window.playground.editorText(),
    inputs: window.playground.inputs(),
    settings: window.playground.settings(),
    camera: window.playground.camera(),
    status: window.playground.status(),
  }));
  assert.equal(got.status.model, 'fourlink');
  assert.ok(TEXT_ENGINES.includes(got.status.backend), got.status.backend);
  assert.equal(got.text, want.text);
  assert.deepEqual(got.inputs, want.inputs);
  assert.deepEqual(got.settings, { dt: 0.002, timeScale: 0.5, floor: false });
  got.camera.forEach((c, i) => assert.ok(Math.abs(c - want.camera[i]) < 1e-9, `camera[${i}]`));
  await fresh.context.close();
});

test('a share link\'s numbers outside their controls\' ranges are clamped to them, and the page says so', async () => {
  const hash = '#s=' + LZString.compressToEncodedURIComponent(JSON.stringify({
    v: 1, model: 'threelink', dt: 1e-300, timeScale: 100, gravity: [0, 0, -1e6], tau: [1e12, 0, 0],
  }));
  const { page, context } = await open(hash);
  const got = await page.evaluate(() => ({ settings: window.playground.settings(), inputs: window.playground.inputs() }));
  assert.deepEqual(got.settings, { dt: 1e-4, timeScale: 4, floor: false });
  assert.deepEqual(got.inputs.gravity, [0, 0, -20]);
  assert.ok(got.inputs.tau[0] > 0 && got.inputs.tau[0] < 1e3, `tau[0] ${got.inputs.tau[0]} within its slider`);
  await page.waitForFunction(() => /the link's dt 1e-300 is outside its control's range 0.0001 to 0.01: set to 0.0001/
    .test(window.playground.status().lastToast), null, WAIT);
  await context.close();
});

test('bad links: corrupt → message and default scene; a .mech error → editor at the error', async () => {
  const corrupt = await open('#s=' + 'x'.repeat(500));
  const s = await status(corrupt.page);
  assert.equal(s.loaded, true);
  assert.match(s.banner, /share link cannot be opened/);
  assert.equal(s.model, 'threelink');
  await corrupt.context.close();

  const huge = await open('#s=' + 'A'.repeat(200_000));
  assert.match((await status(huge.page)).banner, /too long/);
  await huge.context.close();

  // 74 000 characters that would expand to 5e8: refused while decompressing, the page does not freeze.
  const hostile = await open('#s=' + bomb(32_000));
  const b = await status(hostile.page);
  assert.match(b.banner, /share link is too large/);
  assert.equal(b.model, 'threelink');
  assert.equal(b.loaded, true);
  await hostile.context.close();

  const broken = 'description broken on purpose\ngravity 0 0 -9.81\nbody b\n  parent base\n  joint revolute y\n  mass -1\nend\n';
  const hash = '#s=' + LZString.compressToEncodedURIComponent(JSON.stringify({ v: 1, model: 'threelink', text: broken }));
  const { page, context } = await open(hash);
  await page.waitForFunction(() => window.playground.editorErrors().length > 0, null, WAIT);
  const [err] = await page.evaluate(() => window.playground.editorErrors());
  assert.equal(err.line, 6);
  assert.equal(await page.evaluate(() => window.playground.editorText()), broken);
  assert.ok(await page.evaluate(() => document.activeElement.closest('.cm-editor') !== null), 'editor not focused');
  assert.match((await status(page)).banner, /line 6/);
  await context.close();
});

test('moving gravity on a generated model: the same module reads it, from the same state', async () => {
  const { page, context, errors } = await open();
  await pick(page, 'pendulums');
  assert.equal((await status(page)).backend, 'generated');
  await playFor(page, 0.2);   // ends paused, so the state can be compared
  const before = await status(page);
  await setSlider(page, 'Gravity', 2, -1.62);
  assert.deepEqual((await page.evaluate(() => window.playground.inputs())).gravity, [0, 0, -1.62]);
  const after = await status(page);
  assert.equal(after.backend, 'generated', 'gravity is an input of the generated code: no backend switch');
  assert.equal(after.time, before.time, 'the run went on');
  assert.deepEqual(after.q, before.q);
  await playFor(page, 0.1);
  assert.equal((await status(page)).backend, 'generated');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a blow-up pauses with the step and time', async () => {
  const hash = '#s=' + LZString.compressToEncodedURIComponent(JSON.stringify({ v: 1, model: 'threelink', tau: [1e300, 0, 0] }));
  const { page, context } = await open(hash);
  await page.click('#play');
  await page.waitForFunction(() => window.playground.status().blown, null, WAIT);
  const s = await status(page);
  assert.equal(s.playing, false);
  assert.match(s.banner, /blew up at step \d+ \(t = [\d.]+ s\)/);
  assert.ok(s.q.every(Number.isFinite), 'the shown state is not finite');
  await context.close();
});
