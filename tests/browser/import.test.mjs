// import.test.mjs — robots imported in the playground (headless chromium, software WebGL): the shipped Panda MJCF
// dropped onto the page opens as .mech text with the importer's warnings and runs; the SCARA URDF pasted into the
// editor and reloaded runs; a malformed XML file dropped is refused with its line while the model shown keeps
// running; a model dropped with its included file and meshes opens with the meshes drawn. Drops are DragEvents
// built in the page from the files' contents; every wait is on the page's own state
// (window.playground.status(): drops handled, model loaded, simulated time), never on a fixed time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { TEXT_ENGINES, WAIT, openPage, repo, shots, usePlayground, status } from './harness.mjs';

const panda = readFileSync(join(repo, 'models/robots/panda.xml'), 'utf8');
const scara = readFileSync(join(repo, 'models/robots/scara.urdf'), 'utf8');

const pg = usePlayground(5673);

/** A fresh page (harness.mjs, openPage) once its first model is loaded. */
async function open() {
  const opened = await openPage(pg.browser, pg.base);
  await opened.page.waitForFunction(() => window.playground.status().loaded, null, WAIT);
  return opened;
}

/**
 * Drops a file named `name` holding `text` (or, when `text` is a number, that many spaces: built in the page) on the
 * view, and waits until the page has handled it.
 */
async function drop(page, name, text) {
  const before = (await status(page)).drops;
  await page.evaluate(([name, text]) => {
    const data = new DataTransfer();
    data.items.add(new File([typeof text === 'number' ? ' '.repeat(text) : text], name, { type: 'text/plain' }));
    document.getElementById('viewport').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, [name, text]);
  await page.waitForFunction((n) => window.playground.status().drops > n, before, WAIT);
}

/** Drops several files at once ([name, text or bytes]), as a multi-file drop, and waits until it is handled. */
async function dropFiles(page, files) {
  const before = (await status(page)).drops;
  await page.evaluate((list) => {
    const data = new DataTransfer();
    for (const [name, content] of list) data.items.add(new File([typeof content === 'string' ? content : new Uint8Array(content)], name));
    document.getElementById('viewport').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, files.map(([name, content]) => [name, typeof content === 'string' ? content : [...content]]));
  await page.waitForFunction((n) => window.playground.status().drops > n, before, WAIT);
}

/** Plays until simulated time passes `simSeconds` more, then pauses; returns the status. */
async function playFor(page, simSeconds) {
  const t0 = (await status(page)).time;
  await page.click('#play');
  await page.waitForFunction((t) => window.playground.status().time > t, t0 + simSeconds, WAIT);
  await page.click('#play');
  await page.waitForFunction(() => !window.playground.status().playing, null, WAIT);
  return status(page);
}

/** Simulated time advanced, the state is finite and nothing blew up; the model covers part of the view. */
async function assertRuns(page, label) {
  const s = await playFor(page, 0.25);
  assert.ok(s.time > 0.25, `${label}: simulated time did not advance`);
  assert.equal(s.blown, false, `${label}: blew up: ${s.banner}`);
  assert.ok(s.q.length > 0 && [...s.q, ...s.qd, ...s.poses].every(Number.isFinite), `${label}: the state is not finite`);
  const px = await page.evaluate(() => window.playground.pixelStats());
  assert.ok(px.modelFraction > 0.002, `${label}: the robot is not visible (${px.modelFraction})`);
  return s;
}

test('the Panda MJCF dropped on the page opens as imported .mech text with its warnings, and runs', async () => {
  const { page, context, errors } = await open();
  await drop(page, 'panda.xml', panda);
  const s = await status(page);
  assert.equal(s.banner, null, `refused: ${s.banner}`);
  assert.equal(s.model, 'panda_2', 'a model of its own, beside the shipped panda');
  assert.equal(s.loaded, true);
  const text = await page.evaluate(() => window.playground.editorText());
  const lines = text.split('\n');
  assert.match(lines[0], /^# .* imported from MJCF 'panda\.xml' by the mech importer/);
  const warnings = lines.indexOf('# What the importer changed or dropped:');
  assert.ok(warnings > 0, 'the import warnings are not at the top of the text');
  const listed = lines.slice(warnings + 1).findIndex((l) => !l.startsWith('#   - '));
  assert.ok(listed > 0, 'no warning is listed');
  assert.match(s.lastToast, new RegExp(`^Imported with ${listed} warnings?, listed at the top of the text$`));
  assert.doesNotMatch(text, /<mujoco/, 'the editor still holds the XML');
  assert.deepEqual(await page.evaluate(() => window.playground.editorErrors()), []);
  await assertRuns(page, 'panda (dropped)');
  await page.screenshot({ path: join(shots, 'panda-dropped.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('the SCARA URDF pasted into the editor and reloaded runs as a model of its own', async () => {
  const { page, context, errors } = await open();
  const model = (await status(page)).model;
  const before = await page.evaluate(() => window.playground.editorText());
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(scara);
  await page.waitForFunction(() => document.getElementById('parse-status').textContent.includes('imports as .mech'), null, WAIT);
  await page.keyboard.press('Control+Enter');
  await page.waitForFunction((engines) => {
    const s = window.playground.status();
    return s.loaded && engines.includes(s.backend) && window.playground.editorText().startsWith('# ');
  }, TEXT_ENGINES, WAIT);
  const s = await status(page);
  assert.equal(s.model, 'scara_2', 'named after the URDF robot, beside the shipped scara');
  assert.equal(s.banner, null, `refused: ${s.banner}`);
  const text = await page.evaluate(() => window.playground.editorText());
  assert.match(text.split('\n')[0], /imported from URDF/);
  assert.match(text, /welded into/, 'the fixed joints\' warning is not listed');
  await assertRuns(page, 'scara (pasted)');
  await page.click(`.card[data-model="${model}"]`);
  await page.waitForFunction((n) => window.playground.status().model === n && window.playground.status().loaded, model, WAIT);
  assert.equal(await page.evaluate(() => window.playground.editorText()), before, `${model} keeps its own text`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a model dropped with its included file and its OBJ and STL meshes opens with the meshes drawn; a missing mesh is named', async () => {
  const { page, context, errors } = await open();
  const robot = `<mujoco model="meshy">
  <compiler meshdir="assets"/>
  <asset><mesh file="torus.obj" scale="2 2 2"/><mesh file="cube.stl" scale="0.3 0.3 0.3" refpos="0.5 0.5 0.5"/><mesh file="gone.obj"/></asset>
  <include file="ring.xml"/>
</mujoco>`;
  const ring = `<mujoco><worldbody><body name="ring" pos="0 0 1"><joint axis="1 0 0"/><inertial mass="1" diaginertia="0.1 0.1 0.1"/>
  <geom type="mesh" mesh="torus" rgba="0.85 0.35 0.2 1"/><geom type="mesh" mesh="cube" pos="0 0 -0.4" rgba="0.2 0.5 0.9 1"/>
  <geom type="mesh" mesh="gone"/></body></worldbody></mujoco>`;
  const fixtures = join(repo, 'tests/fixtures/meshes');
  await dropFiles(page, [['meshy.xml', robot], ['ring.xml', ring],
    ['torus.obj', readFileSync(join(fixtures, 'torus.obj'), 'utf8')], ['cube.stl', readFileSync(join(fixtures, 'cube.stl'))]]);
  const s = await status(page);
  assert.equal(s.model, 'meshy', s.banner ?? '');
  const text = await page.evaluate(() => window.playground.editorText());
  assert.match(text, /^mesh torus assets\/torus\.obj scale 2 2 2$/m);
  assert.match(text, /^ {2}shape mesh cube pos 0 0 -0\.4 color #3380e6 friction 1 1$/m);
  assert.match(text, /mesh 'gone': the file 'assets\/gone\.obj' is not among the files given: its geoms are not drawn/);
  await page.waitForFunction(() => window.playground.meshPixels() !== null, null, WAIT);
  const px = await page.evaluate(() => window.playground.meshPixels());
  await page.screenshot({ path: join(shots, 'meshes-dropped.png') });
  assert.ok(px.modelFraction > 0.01, `the meshes cover ${px.modelFraction} of the view`);
  await assertRuns(page, 'meshy (dropped)');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a malformed XML file dropped is refused with its line, and the model shown keeps running', async () => {
  const { page, context, errors } = await open();
  const s0 = await status(page);
  const shown = await page.evaluate(() => window.playground.editorText());
  await page.click('#play');
  await page.waitForFunction((t) => window.playground.status().time > t, s0.time, WAIT);
  // Line 4 closes an element that is not open.
  await drop(page, 'broken.xml', '<mujoco model="broken">\n  <worldbody>\n    <body name="a">\n  </worldbody>\n</mujoco>\n');
  const s = await status(page);
  assert.ok(s.banner, 'no message');
  assert.match(s.banner, /^broken\.xml did not import — line \d+, column \d+: /);
  assert.match(s.banner, /line 4,/);
  assert.match(s.banner, /keeps running/);
  assert.equal(s.model, s0.model);
  assert.equal(s.loaded, true);
  assert.equal(s.playing, true);
  assert.equal(await page.evaluate(() => window.playground.editorText()), shown);
  await page.waitForFunction((t) => window.playground.status().time > t, s.time + 0.1, WAIT);

  // Not text, over the page's text cap, not a model file: refused the same way.
  await drop(page, 'noise.mech', '\0\x01\x02');
  assert.match((await status(page)).banner, /^noise\.mech was not opened: it is not text/);
  await drop(page, 'huge.urdf', 1_000_001);
  assert.match((await status(page)).banner, /^huge\.urdf was not opened: it is too large \(1000001 bytes; the limit is 1000000\)/);
  await drop(page, 'notes.txt', 'hello');
  assert.match((await status(page)).banner, /^notes\.txt was not opened: drop an \.xml \(MJCF\), \.urdf or \.mech file/);
  const s2 = await status(page);
  assert.equal(s2.model, s0.model);
  await page.waitForFunction((t) => window.playground.status().time > t, s2.time + 0.1, WAIT);
  assert.deepEqual(errors, []);
  await context.close();
});
