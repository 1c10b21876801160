// page_fps.mjs — the playground's frame rate, second by second, in headless
// chromium (software WebGL), for one model (docs/playground.md, "Frame rate").
// Not a test: it prints what the page's own meter shows, and the worker's load (share of each second spent
// stepping, time per step and per frame's copy of the state).
//
//   node bench/page_fps.mjs [model] [seconds]      (default hmmwv_pitman, 12; after `npm run build`)
import { pick, startPlayground, status, VIEWPORT } from '../tests/browser/harness.mjs';

const model = process.argv[2] ?? 'hmmwv_pitman';
const seconds = Number(process.argv[3] ?? 12);

const { base, browser, close } = await startPlayground(5199);
try {
  const page = await (await browser.newContext({ viewport: VIEWPORT })).newPage();
  await page.goto(base);
  await page.waitForFunction(() => window.playground?.status().loaded, null, { timeout: 30_000 });
  await pick(page, model);
  await page.click('#play');
  console.log(`playground frame rate, ${model}, headless chromium ${VIEWPORT.width}x${VIEWPORT.height}, once a second after play:`);
  const fps = [];
  for (let i = 1; i <= seconds; i++) {
    await page.waitForTimeout(1000);
    const s = await status(page);
    const r = await page.evaluate(() => window.playground.renderStats());
    fps.push(s.fps);
    console.log(`${String(i).padStart(3)} s  ${s.fps.toFixed(1).padStart(5)} fps  real-time factor ${s.rtf.toFixed(2)}  ` +
      `rendering level ${r.level} (pixel ratio ${r.pixelRatio})` + (s.load ? `  worker busy ${(100 * s.load.busy).toFixed(0)} %, ${s.load.stepMs.toFixed(3)} ms/step, snapshot ${s.load.snapshotMs.toFixed(2)} ms` : ''));
  }
  const settled = fps.slice(2);
  console.log(`after the first 2 s: min ${Math.min(...settled).toFixed(1)} fps, mean ` +
    `${(settled.reduce((a, b) => a + b, 0) / settled.length).toFixed(1)} fps`);
} finally {
  await close();
}
