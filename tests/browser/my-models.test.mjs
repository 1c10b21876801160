// my-models.test.mjs — the user's own models (web/src/my-models.js, gallery.js): a dropped .mech file and an MJCF
// pasted into the editor each get a card in "My models" under a name of their own, keep their edits, survive a
// reload of the page and reopen from their card; renaming and deleting act on the card. Headless chromium; every
// wait is on the page's own state.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { WAIT, openPage, status, usePlayground } from './harness.mjs';

const pg = usePlayground(6373);

const MECH = `description a dropped pendulum
gravity 0 0 -9.81
body arm
  parent base
  joint revolute y
  mass 1
  com 0.5 0 0
  inertia 0.01 0.1 0.1
  q0 20
  shape box 1 0.05 0.05 pos 0.5 0 0
end
`;
const MJCF = `<mujoco model="pasted arm">
  <worldbody>
    <body name="link" pos="0 0 1">
      <joint name="hinge" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.04" mass="1"/>
    </body>
  </worldbody>
</mujoco>
`;

/** Drops a file `name` holding `text` on the view and waits until the page has handled it. */
async function drop(page, name, text) {
  const before = (await status(page)).drops;
  await page.evaluate(([name, text]) => {
    const data = new DataTransfer();
    data.items.add(new File([text], name, { type: 'text/plain' }));
    document.getElementById('viewport').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, [name, text]);
  await page.waitForFunction((n) => window.playground.status().drops > n, before, WAIT);
}

const loaded = (page, name) => page.waitForFunction((n) => {
  const s = window.playground.status();
  return s.loaded && s.model === n;
}, name, WAIT);
const mineCards = (page) => page.$$eval('.card[data-mine]', (cards) => cards.map((c) => c.dataset.model));
const editorText = (page) => page.evaluate(() => window.playground.editorText());

test('a dropped model and a pasted MJCF get cards, survive a reload, reopen, and are deleted from their card', async () => {
  const { page, context, errors } = await openPage(pg.browser, pg.base);
  await loaded(page, 'threelink');
  const threelink = await editorText(page);

  await drop(page, 'my pendulum.mech', MECH);
  await loaded(page, 'my_pendulum');
  assert.deepEqual(await mineCards(page), ['my_pendulum']);

  // An edit of the user's model is kept in it.
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('# kept\n');
  const edited = await editorText(page);
  assert.ok(edited.endsWith('# kept\n'));

  // MJCF pasted over the editor opens as a model of its own; the model shown before keeps its text.
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(MJCF);
  await page.waitForFunction(() => document.getElementById('parse-status').textContent.includes('imports as .mech'), null, WAIT);
  await page.keyboard.press('Control+Enter');
  await loaded(page, 'pasted_arm');
  assert.deepEqual(await mineCards(page), ['my_pendulum', 'pasted_arm']);
  assert.match(await editorText(page), /imported from MJCF/);

  await page.reload();
  await page.waitForFunction(() => window.playground?.status().ready, null, WAIT);
  assert.deepEqual(await mineCards(page), ['my_pendulum', 'pasted_arm'], 'the cards survive a reload');
  await page.click('.card[data-model="my_pendulum"]');
  await loaded(page, 'my_pendulum');
  assert.equal(await editorText(page), edited, 'the edit reopens with the model');
  await page.click('.card[data-model="threelink"]');
  await loaded(page, 'threelink');
  assert.equal(await editorText(page), threelink, 'the paste overwrote no other model');

  page.once('dialog', (d) => d.accept('arm two'));
  await page.click('.card-rename[aria-label="Rename pasted_arm"]');
  await page.waitForFunction(() => document.querySelector('.card[data-model="arm_two"]'), null, WAIT);
  assert.deepEqual(await mineCards(page), ['my_pendulum', 'arm_two']);

  await page.click('.card[data-model="my_pendulum"]');
  await loaded(page, 'my_pendulum');
  await page.click('.card-remove[aria-label="Delete my_pendulum"]');
  await loaded(page, 'threelink');
  assert.deepEqual(await mineCards(page), ['arm_two']);
  await page.reload();
  await page.waitForFunction(() => window.playground?.status().ready, null, WAIT);
  assert.deepEqual(await mineCards(page), ['arm_two'], 'a deleted model stays deleted');
  assert.deepEqual(errors, []);
  await context.close();
});
