// contact.test.mjs — contact in the page (docs/playground.md, "Floor and contacts"): a floating model with colliders
// stands on the floor drawn (the toggle on by default for it, and carried through the jit's take-over); the C key
// draws its contacts (instanced markers and force arrows); a Ctrl+drag pushes it along the floor; the stages
// readout shows the dynamics, the contact and the drawing in ms per frame; share links carry the floor toggle, and
// one without the floor lets the model fall through. The robot is the Unitree Go2 from the gallery, held by the
// page's hold-pose PD law; the share-link tests use a box typed as .mech text. Screenshots: contact-<model>.png, contact-<model>-pushed.png, contact-help.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import LZString from 'lz-string';

import { WAIT, control, openPage, pick, shots, status, usePlayground } from './harness.mjs';

const pg = usePlayground(6573);

const hooks = (page, name, ...args) => page.evaluate(([n, a]) => window.playground[n](...a), [name, args]);

// A 3 kg box resting on the floor (its bottom at z = 0), with a `contact` line: its collider touches.
const BOX = `# a box on the floor
contact
body box
  parent base
  joint floating
  mass 3
  inertia 0.05 0.05 0.08
  q0 0 0 0.1
  shape box 0.4 0.4 0.2
end
`;
const link = (extra = {}) => `#s=${LZString.compressToEncodedURIComponent(JSON.stringify({ v: 1, model: 'box', text: BOX, ...extra }))}`;

/** The readout's three numbers, or null while it shows something else. */
const stages = (page) => page.evaluate(() => {
  const m = /^dynamics ([\d.]+) · contact ([\d.]+) · draw ([\d.]+) ms\/frame$/.exec(document.getElementById('stages').textContent);
  return m && m.slice(1).map(Number);
});

/** The Unitree Go2 from the gallery at its keyframe `home`, held there by the page's PD law (its actuators are torque
 * motors). */
async function openGo2() {
  const { page, context, errors } = await openPage(pg.browser, pg.base);
  await pick(page, 'unitree_go2');
  await control(page, 'Actuators', 'keyframe').locator('select').selectOption('home'); // its standing pose
  await control(page, 'Actuators', 'hold pose (PD)').locator('input').check();
  await page.evaluate(() => document.activeElement.blur()); // the page's keys (C) go to the view, not the checkbox
  return { page, context, errors, name: 'unitree_go2', body: 0 };
}

/** A point of the page where a click picks `body`: its drawn box's centre, else the nearest point of a grid around it
 * on the screen that does (a robot's base may be hollow where its centre is drawn, or hidden by a leg); each probe's
 * selection is let go with Esc. */
async function pointOn(page, body) {
  const p = await hooks(page, 'bodyScreenPoint', body);
  const offsets = [];
  for (let dx = -80; dx <= 80; dx += 20) for (let dy = -80; dy <= 80; dy += 20) offsets.push([dx, dy]);
  offsets.sort((u, v) => Math.hypot(...u) - Math.hypot(...v));
  for (const [dx, dy] of offsets) {
    await page.mouse.click(p.x + dx, p.y + dy);
    const picked = await hooks(page, 'selected');
    await page.keyboard.press('Escape');
    if (picked?.body === body) return { x: p.x + dx, y: p.y + dy };
  }
  return assert.fail(`no point within 80 px of the centre of body ${body} on the screen picks it`);
}

test('the Go2 stands on the floor, its contacts drawn on C, a Ctrl+drag pushes it, the stages timed', async (t) => {
  const { page, context, errors, name, body } = await openGo2();
  t.diagnostic(`model: ${name}`);
  assert.doesNotMatch((await status(page)).lastToast, /free fall/, 'standing on the floor is no free fall');
  const settings = await hooks(page, 'settings');
  const ownFloor = (await hooks(page, 'describe')).statics.some((s) => s.type === 'plane');
  assert.equal(settings.floor, !ownFloor, 'the floor collides by default for a floating model with contact and no floor');

  // Contacts on (C), then play.
  await page.keyboard.press('c');
  await page.click('#play');
  await page.waitForFunction(() => window.playground.contactsDrawn().markers > 0, null, WAIT);
  const drawn = await hooks(page, 'contactsDrawn');
  assert.ok(drawn.visible && drawn.arrows > 0, `markers ${drawn.markers}, arrows ${drawn.arrows}`);
  await page.waitForFunction(() => window.playground.status().time > 1, null, WAIT);
  const standing = await status(page);
  const z0 = standing.poses[7 * body + 2];
  assert.ok(z0 > 0.2, `it stands on its feet: its base at z = ${z0} (0.27 m standing, below 0.1 lying down)`);
  await page.screenshot({ path: join(shots, `contact-${name}.png`) });

  // The stages readout: three numbers, the contact a part of the stepping, and together the frame's work.
  await page.waitForFunction(() => /^dynamics [\d.]+ · contact [\d.]+ · draw [\d.]+ ms\/frame$/.test(
    document.getElementById('stages').textContent), null, WAIT);
  const [dynamics, contact, draw] = await stages(page);
  const { load, fps, rtf } = await status(page);
  const dt = (await hooks(page, 'settings')).dt;
  const stepping = (load.stepMs * rtf) / dt / fps; // the worker's ms of stepping per frame drawn
  t.diagnostic(`stages: dynamics ${dynamics} · contact ${contact} · draw ${draw} ms/frame; ${load.stepMs.toFixed(4)} ms per step, ${fps.toFixed(0)} fps, RTF ${rtf.toFixed(2)}`);
  assert.ok(contact > 0, 'the contact is timed');
  assert.ok(draw > 0, 'the drawing is timed');
  const sum = dynamics + contact;
  assert.ok(sum > stepping / 3 && sum < stepping * 3, `dynamics + contact ${sum} ms per frame, the stepping ${stepping.toFixed(3)}`);

  // A Ctrl+drag on the robot's base, sideways on the screen: it moves along, at least half the way the cursor went.
  const p = await pointOn(page, body);
  const before = (await status(page)).poses.slice(7 * body, 7 * body + 3);
  await page.keyboard.down('Control');
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  await page.mouse.move(p.x + 200, p.y, { steps: 8 });
  const grab = await hooks(page, 'grab');
  assert.equal(grab?.body, body, 'the press grabbed the base');
  const reach = Math.hypot(grab.to[0] - grab.start[0], grab.to[1] - grab.start[1]);
  await page.waitForFunction(([b, x0, y0, d]) => {
    const q = window.playground.status().poses;
    return Math.hypot(q[7 * b] - x0, q[7 * b + 1] - y0) > d / 2;
  }, [body, before[0], before[1], reach], WAIT);
  await page.screenshot({ path: join(shots, `contact-${name}-pushed.png`) });
  await page.mouse.up();
  await page.keyboard.up('Control');
  const after = (await status(page)).poses.slice(7 * body, 7 * body + 3);
  t.diagnostic(`pushed from ${before.map((x) => x.toFixed(3))} to ${after.map((x) => x.toFixed(3))}, the cursor ${reach.toFixed(3)} m away`);
  assert.equal((await status(page)).blown, false);

  // C again: the drawing goes.
  await page.keyboard.press('c');
  await page.waitForFunction(() => window.playground.contactsDrawn().markers === 0, null, WAIT);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the floor carries into the jit, and a link without it lets the box fall through', async () => {
  const { page, context, errors } = await openPage(pg.browser, pg.base + link());
  assert.equal((await hooks(page, 'settings')).floor, true);
  await page.click('#play');
  await page.waitForFunction(() => window.playground.status().backend === 'jit' && window.playground.status().time > 1, null, WAIT);
  const z = (await status(page)).poses[2];
  assert.ok(Math.abs(z - 0.1) < 0.005, `on the jit the box rests on the floor: z = ${z}`);
  assert.deepEqual(errors, []);
  await context.close();

  const off = await openPage(pg.browser, pg.base + link({ floor: false }));
  assert.equal((await hooks(off.page, 'settings')).floor, false, 'the link turned the floor off');
  await off.page.click('#play');
  await off.page.waitForFunction(() => window.playground.status().poses[2] < -1, null, WAIT);
  assert.deepEqual(off.errors, []);
  await off.context.close();
});

test('a link whose floor is not true or false is refused, naming the field', async () => {
  const { page, context } = await openPage(pg.browser, pg.base + link({ floor: 'yes' }));
  const s = await status(page);
  assert.match(s.banner, /"floor" is not true or false/);
  assert.notEqual(s.model, 'box');
  await context.close();
});

test('a model fixed to the world and the shipped floating demos keep the floor off; the help lists C', async () => {
  const { page, context, errors } = await openPage(pg.browser, pg.base);
  for (const name of ['threelink', 'satellite', 'quartercar']) {
    await pick(page, name);
    assert.equal((await hooks(page, 'settings')).floor, false, name);
  }
  await pick(page, 'hmmwv');
  assert.equal((await hooks(page, 'settings')).floor, false, 'hmmwv has its own ground');

  // The help lists the C key and says what the floor toggle does.
  await page.keyboard.press('?');
  await page.locator('#help').waitFor({ state: 'visible', ...WAIT });
  assert.ok((await page.locator('#help-keys tr td:first-child').allTextContents()).includes('C'), 'the help lists C');
  assert.match(await page.locator('#help').textContent(), /floor collides/);
  await page.screenshot({ path: join(shots, 'contact-help.png') });
  assert.deepEqual(errors, []);
  await context.close();
});
