// harness.mjs — what every browser test file shares: a Vite dev server on 127.0.0.1 serving the playground,
// Debian's chromium driven by playwright-core (headless, software WebGL; flags in DEVELOPERS.md), fresh
// pages, and the page's status and model picker. Needs wasm/dist/ (scripts/build-wasm.sh).
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { createServer } from 'vite';
import { chromium } from 'playwright-core';

export const repo = fileURLToPath(new URL('../..', import.meta.url));
export const shots = join(repo, 'build', 'screenshots');
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const WAIT = { timeout: 30_000 };
export const VIEWPORT = { width: 1600, height: 950 };

/** Starts the server (first free port from `port`) and the browser: { base, browser, close() }. */
export async function startPlayground(port) {
  assert.ok(existsSync(join(repo, 'wasm/dist/models.json')), 'wasm/dist/ is missing: run scripts/build-wasm.sh');
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install chromium`);
  mkdirSync(shots, { recursive: true });
  const server = await createServer({
    configFile: join(repo, 'web/vite.config.js'),
    server: { host: '127.0.0.1', port, strictPort: false },
    logLevel: 'error',
    clearScreen: false,
  });
  await server.listen();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    base: server.resolvedUrls.local[0],
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * Starts the playground on `port` before this file's tests and stops it after them; the object returned has
 * startPlayground's base and browser once it has started.
 */
export function usePlayground(port) {
  const pg = {};
  before(async () => {
    Object.assign(pg, await startPlayground(port));
  });
  after(async () => {
    await pg.close?.();
  });
  return pg;
}

/** The engines that run a model's text: the runtime engine, then the jit once it has taken over (jit-switch.js). */
export const TEXT_ENGINES = ['runtime', 'jit'];

export const status = (page) => page.evaluate(() => window.playground.status());

/**
 * A fresh page (own storage) at `url` in a window of `viewport`, once it has started: the first model is loaded
 * (or its error shown) and any message about the link is in the banner. Page errors are collected in `errors`.
 */
export async function openPage(browser, url, viewport = VIEWPORT) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction(() => window.playground?.status().ready, null, WAIT);
  return { page, context, errors };
}

/** Clicks a model's gallery card and waits until it is loaded. */
export async function pick(page, name) {
  await page.click(`.card[data-model="${name}"]`);
  await page.waitForFunction((n) => {
    const s = window.playground.status();
    return s.loaded && s.model === n;
  }, name, WAIT);
}

/** The control named `name` in the Settings folder titled `folder` (lil-gui). */
export function control(page, folder, name) {
  return page.locator('.lil-gui:not(.lil-root)').filter({ has: page.locator(':scope > .lil-title', { hasText: folder }) })
    .locator('.lil-controller').filter({ has: page.locator('.lil-name', { hasText: name }) });
}

/** A body's tilt: the angle of its z axis from vertical, in degrees, from poses (7 per body: x y z, w x y z). */
export function tilt(poses, body) {
  const [qx, qy] = poses.slice(7 * body + 4, 7 * body + 6);
  return (Math.acos(Math.min(1, 1 - 2 * (qx * qx + qy * qy))) * 180) / Math.PI;
}

/** A body's yaw (rad) about z from poses. */
export function yaw(poses, body) {
  const [w, x, y, z] = poses.slice(7 * body + 3, 7 * body + 7);
  return Math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
}

/** Waits, playing, until the simulated time passes `t` (up to 10 minutes: a loaded machine runs well below real
 * time); asserts the run did not blow up and returns the status then. */
export async function until(page, t) {
  await page.waitForFunction((x) => window.playground.status().time > x || window.playground.status().blown, t,
    { timeout: 600_000 });
  const s = await status(page);
  assert.equal(s.blown, false, s.banner ?? '');
  return s;
}

/** Plays from the paused state shown until 0.1 s of simulated time has passed, pauses, and asserts the run did
 * not blow up; the status then. */
export async function playBriefly(page) {
  const t0 = (await status(page)).time;
  await page.click('#play');
  await page.waitForFunction((t) => window.playground.status().time > t, t0 + 0.1, WAIT);
  await page.click('#play');
  const after = await status(page);
  assert.equal(after.blown, false, after.banner ?? '');
  return after;
}
