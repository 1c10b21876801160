// xpbd-realtime.test.mjs — the XPBD contact scenes played in the page for 10 s of wall time each: the bristlebot
// walks forward and its Motor slider sets the motor's speed at once (a typed value outside the slider's range is
// clamped with a message), which a share link carries; the bowling ball knocks pins over. The real-time factor,
// frame rate and the worker's load are printed (console.log), not asserted: they depend on the machine and on what
// else runs on it. Every wait is on the page's state (its simulated time, and its own clock for the 10 s).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { control, openPage, pick, tilt, usePlayground, status } from './harness.mjs';

const WALL = 10_000;      // ms of wall time each scene plays
// m the bristlebot is from where it started, in the plane, at least. It walks forward (+x) while it turns, on a
// circle of about 30 mm radius (half a turn in 10 s), so its x alone comes back: 31 mm at 5 s, 8.0 mm at 10 s. Its
// distance from the start (Node, the file's own state) is 11.7 mm at 1 s and rises to 51 mm at 10 s; 33 mm at 15 s.
const WALKED = 0.008;
const UPRIGHT = 20;       // degrees: a pin's axis within this of vertical stands
const RATE_TOL = 0.02;    // a frame's motor speed within this fraction of the slider's rate (see atRate)
const LONG = { timeout: 600_000 };

const pg = usePlayground(6173);

/**
 * Plays the open scene for WALL ms of the page's clock and at least `minTime` s of simulated time; prints the
 * real-time factor over the run, the page's last frame rate and the worker's load. The state then.
 */
async function play(page, model, minTime) {
  await page.click('#play');
  // From the first frame that moved: both ends of the run are then shown one frame's round trip late, and the
  // factor measures the rate (from the click, it also counts that latency once: 0.5-1 % of 10 s).
  const start = await page.evaluate(() => new Promise((resolve) => {
    const t0 = window.playground.status().time;
    const poll = () => {
      const time = window.playground.status().time;
      if (time > t0) resolve({ wall: performance.now(), time });
      else requestAnimationFrame(poll);
    };
    poll();
  }));
  // The first second apart: the module's code is still being optimized (V8 tier-up) and the run starts.
  await page.waitForFunction((wall) => performance.now() - wall >= 1000, start.wall, LONG);
  const warm = await page.evaluate(() => ({ wall: performance.now(), time: window.playground.status().time }));
  await page.waitForFunction(({ wall, wait, minTime: t }) => {
    const s = window.playground.status();
    return s.blown || (performance.now() - wall >= wait && s.time >= t);
  }, { wall: start.wall, wait: WALL, minTime }, LONG);
  const end = await page.evaluate(() => ({ wall: performance.now(), s: window.playground.status(), r: window.playground.renderStats() }));
  const { s, r } = end;
  assert.equal(s.blown, false, s.banner ?? '');
  const load = s.load ? `; the worker stepped ${(100 * s.load.busy).toFixed(0)} % of the last second at ` +
    `${(1000 * s.load.stepMs).toFixed(0)} µs per step, ${s.load.snapshotMs.toFixed(2)} ms per frame's copy` : '';
  console.log(`${model}: ${(s.time - start.time).toFixed(3)} s simulated in ${((end.wall - start.wall) / 1000).toFixed(1)} s ` +
    `of wall time, real-time factor ${((s.time - start.time) / ((end.wall - start.wall) / 1000)).toFixed(2)} ` +
    `(${((s.time - warm.time) / ((end.wall - warm.wall) / 1000)).toFixed(2)} after the first second, last half second ` +
    `${s.rtf.toFixed(2)}), ${s.fps.toFixed(1)} fps at rendering level ${r.level}${load}`);
  return s;
}

test('bristlebot: plays, walks forward, and its Motor slider sets the motor\'s speed, also through a share link', async () => {
  const { page, context, errors } = await openPage(pg.browser, pg.base);
  await pick(page, 'bristlebot');
  const model = await page.evaluate(() => window.playground.describe());
  const bot = model.bodies.findIndex((b) => b.name === 'bot');
  const motor = model.bodies[model.bodies.findIndex((b) => b.name === 'bot_motor')].vidx;
  const motorSlider = control(page, 'Bristlebot', 'Motor').locator('input');
  assert.equal(Number(await motorSlider.inputValue()), 550, 'the slider starts at the file\'s 550 turns/s');

  const p0 = (await status(page)).poses.slice(7 * bot, 7 * bot + 2);
  const s = await play(page, 'bristlebot', 1);
  assert.ok(s.time > 0 && s.steps > 0, 'the simulation advanced');
  const [dx, dy] = [s.poses[7 * bot] - p0[0], s.poses[7 * bot + 1] - p0[1]];
  const walked = Math.hypot(dx, dy);
  console.log(`bristlebot: ${(1000 * walked).toFixed(1)} mm from its start (x ${(1000 * dx).toFixed(1)}, ` +
    `y ${(1000 * dy).toFixed(1)} mm) at t = ${s.time.toFixed(3)} s`);
  assert.ok(walked > WALKED, `walked ${walked} m`);
  assert.ok(s.time > 5 || dx > WALKED, `walked ${dx} m along +x in its first ${s.time} s`);

  // The slider, typed: the motor turns at its rate from the next step on. The drive is rigid, so its mean speed
  // is the rate (through the API, over 3000 steps: within 5.5e-9 at 300 turns/s, 2.6e-6 at 1000), but a frame
  // shows the joint's speed at one step, and the shaking robot moves it by up to 3e-5 of the rate at 300 turns/s
  // and 1.3e-2 at 1000 (only 0.6-3 % of the steps are within 1e-6): a frame within RATE_TOL of the new rate, which
  // tells each rate from the one before.
  const atRate = async (turns) => {
    const from = (await status(page)).time;
    await page.waitForFunction(({ t, i, w, tol }) => {
      const st = window.playground.status();
      return st.blown || (st.time > t + 0.01 && Math.abs(st.qd[i] - w) < tol * w);
    }, { t: from, i: motor, w: 2 * Math.PI * turns, tol: RATE_TOL }, LONG);
  };
  await motorSlider.fill('300');
  await motorSlider.press('Enter');
  await atRate(300);
  // Out of range: clamped to 1000 turns/s, and the page says so.
  await motorSlider.fill('5000');
  await motorSlider.press('Enter');
  await page.waitForFunction(() => window.playground.status().lastToast.includes('5000 was set to 1000'), null, LONG);
  await atRate(1000);
  assert.equal((await status(page)).blown, false);
  assert.deepEqual(errors, []);

  // A share link carries the motor's rate: a fresh page opens with the slider there, and the run turns at it.
  await page.click('#share');
  await page.waitForFunction(() => location.hash.startsWith('#s='), null, LONG);
  const link = await page.evaluate(() => location.hash);
  await context.close();
  const fresh = await openPage(pg.browser, pg.base + link);
  const slider = control(fresh.page, 'Bristlebot', 'Motor').locator('input');
  assert.equal(Number(await slider.inputValue()), 1000, 'the link\'s 1000 turns/s');
  await fresh.page.click('#play');
  const run = fresh.page;
  await run.waitForFunction(({ i, w, tol }) => {
    const st = window.playground.status();
    return st.blown || (st.time > 0.01 && Math.abs(st.qd[i] - w) < tol * w);
  }, { i: motor, w: 2 * Math.PI * 1000, tol: RATE_TOL }, LONG);
  assert.equal((await status(run)).blown, false);
  assert.deepEqual(fresh.errors, []);
  await fresh.context.close();
});

test('bowling: plays in real time as far as the machine allows, and the ball knocks pins over', async () => {
  const { page, context, errors } = await openPage(pg.browser, pg.base);
  await pick(page, 'bowling');
  const names = (await page.evaluate(() => window.playground.describe())).bodies.map((b) => b.name);
  const pins = names.flatMap((n, i) => (/^pin\d+$/.test(n) ? [i] : []));
  const s = await play(page, 'bowling', 2);
  assert.ok(s.time >= 2 && s.steps > 0, 'the simulation advanced');
  const down = pins.filter((p) => tilt(s.poses, p) > UPRIGHT).length;
  console.log(`bowling: ${down} of ${pins.length} pins down at t = ${s.time.toFixed(3)} s`);
  assert.ok(down > 0, 'the ball knocked pins down');
  assert.deepEqual(errors, []);
  await context.close();
});
