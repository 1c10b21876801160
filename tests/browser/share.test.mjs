// share.test.mjs — share-link decoding is the page's untrusted-input boundary; checked here without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import LZString from 'lz-string';
import { clampToControls, encodeShare, decodeShare, MAX_HASH } from '../../web/src/share.js';
import { bomb } from './lz-bomb.mjs';

const hashOf = (value) => '#s=' + LZString.compressToEncodedURIComponent(typeof value === 'string' ? value : JSON.stringify(value));

test('a link round-trips every field, the state shown bit for bit', () => {
  const saved = Float64Array.of(0.25, -0, 1 / 3, 5e-324, -1.7976931348623157e308);
  const state = { model: 'threelink', text: 'body a\n# <script>alert(1)</script>\n', tau: [1.5, -2, 0], act: [], gravity: [0, 0, -3.7],
    camera: [1, 2, 3, 0, 0, 0.5], dt: 0.002, timeScale: 0.5, brake: [0, 0.25, 1], scene: { motor: 300, speed: 12.5 },
    floor: true, shown: { time: 0.25, steps: 250, state: saved } };
  const got = decodeShare(encodeShare(state));
  assert.deepEqual(got, state);
  assert.deepEqual(new Uint8Array(got.shown.state.buffer), new Uint8Array(saved.buffer), '-0 and the last bits kept');
});

test('no share state: null', () => {
  assert.equal(decodeShare(''), null);
  assert.equal(decodeShare('#section-2'), null);
});

test('corrupt, oversized or ill-typed links are refused with a reason', () => {
  const bad = [
    ['#s=' + 'x'.repeat(300), /damaged/],
    ['#s=' + 'A'.repeat(MAX_HASH + 1), /too long/],
    [hashOf('not json'), /not valid JSON/],
    [hashOf([1, 2]), /unknown format/],
    [hashOf({ v: 2, model: 'threelink' }), /unknown format/],
    [hashOf({ v: 1 }), /no valid model/],
    [hashOf({ v: 1, model: '../../etc/passwd' }), /no valid model/],
    [hashOf({ v: 1, model: 'threelink', text: 42 }), /not text/],
    [hashOf({ v: 1, model: 'threelink', tau: 'x' }), /"tau"/],
    [hashOf({ v: 1, model: 'threelink', tau: [1, null] }), /"tau"/],
    [hashOf({ v: 1, model: 'threelink', tau: new Array(5000).fill(0) }), /"tau"/],
    [hashOf({ v: 1, model: 'threelink', camera: [1, 2, 3] }), /"camera" must have 6/],
    [hashOf({ v: 1, model: 'threelink', gravity: [0, 0, Infinity] }), /"gravity"/],
    [hashOf({ v: 1, model: 'threelink', dt: -1 }), /"dt"/],
    [hashOf({ v: 1, model: 'threelink', dt: 5 }), /"dt"/],
    [hashOf({ v: 1, model: 'threelink', timeScale: 0 }), /"timeScale"/],
    [hashOf({ v: 1, model: 'track_demo', brake: [5] }), /"brake" levels must be between 0 and 1/],
    [hashOf({ v: 1, model: 'track_demo', brake: [-0.1] }), /"brake" levels must be between 0 and 1/],
    [hashOf({ v: 1, model: 'track_demo', brake: ['full'] }), /"brake" is not a list of numbers/],
    [hashOf({ v: 1, model: 'bristlebot', scene: [300] }), /"scene" is not a set of named numbers/],
    [hashOf({ v: 1, model: 'bristlebot', scene: { motor: '300' } }), /"scene" is not a set of named numbers/],
    [hashOf({ v: 1, model: 'bristlebot', scene: { motor: null } }), /"scene" is not a set of named numbers/],
    [hashOf('{"v":1,"model":"bristlebot","scene":{"__proto__":{"x":1}}}'), /"scene" is not a set of named numbers/],
    [hashOf({ v: 1, model: 'bristlebot', scene: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, i])) }), /"scene"/],
    [hashOf({ v: 1, model: 'threelink', text: 'x'.repeat(1_000_001) }), /too much text/],
    [hashOf({ v: 1, model: 'threelink', shown: 3 }), /"shown" is not a time and a state/],
    [hashOf({ v: 1, model: 'threelink', shown: { time: -1, steps: 0, state: '' } }), /"shown" has no time/],
    [hashOf({ v: 1, model: 'threelink', shown: { time: 1, steps: 1.5, state: '' } }), /"shown" has no step count/],
    [hashOf({ v: 1, model: 'threelink', shown: { time: 1, steps: 1, state: [1, 2] } }), /"state" is not a saved state/],
    [hashOf({ v: 1, model: 'threelink', shown: { time: 1, steps: 1, state: 'AAAA' } }), /not a whole number of values/],
    [hashOf({ v: 1, model: 'threelink', shown: { time: 1, steps: 1, state: 'A'.repeat(200_004) } }), /"state" is not a saved state/],
    [hashOf({ v: 1, model: 'threelink', shown: { time: 1, steps: 1, state: 'AAAAAAAA+H8=' } }), /"state" value 0 is not a finite number/],
  ];
  for (const [hash, reason] of bad) assert.throws(() => decodeShare(hash), reason, hash.slice(0, 60));
});

test('unknown fields are dropped', () => {
  const got = decodeShare(hashOf('{"v":1,"model":"gantry","__proto__":{"polluted":true},"extra":"<img onerror=x>"}'));
  assert.deepEqual(Object.keys(got).filter((k) => got[k] !== undefined), ['model']);
  assert.equal({}.polluted, undefined);
});

test('the bomb builder writes what lz-string reads', () => {
  assert.equal(LZString.decompressFromEncodedURIComponent(bomb(100)), 'x'.repeat((101 * 102) / 2));
});

test('a decompression bomb is refused at once, without expanding it', () => {
  // 32 000 codes: a link of about 74 000 characters (under MAX_HASH) that expands to 5.1e8 characters.
  const hash = '#s=' + bomb(32_000);
  assert.ok(hash.length < MAX_HASH, `${hash.length}`);
  const t0 = performance.now();
  assert.throws(() => decodeShare(hash), /share link is too large: it holds too much text \(more than 1000000 characters/);
  const ms = performance.now() - t0;
  assert.ok(ms < 1000, `decoding took ${ms.toFixed(0)} ms`);
});

test('the bounded decoder reads what lz-string writes: 8- and 16-bit literals, long texts', () => {
  const texts = ['', 'a', 'ab'.repeat(5000), 'gravity 0 0 -9.81\nbody a\nend\n'.repeat(300), 'Ω ≤ 10⁻⁶ · 😀 tab\there', 'x'.repeat(50_000)];
  let r = 12345;
  const random = () => (r = (r * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let n = 0; n < 50; n++) {
    texts.push(Array.from({ length: 1 + Math.floor(random() * 400) }, () => String.fromCharCode(random() < 0.2 ? 0x100 + Math.floor(random() * 0xd000) : 32 + Math.floor(random() * 8))).join(''));
  }
  for (const text of texts) {
    const state = { model: 'threelink', text };
    assert.deepEqual(decodeShare(encodeShare(state)).text, text, text.slice(0, 40));
  }
});

test('a link\'s numbers are clamped to their controls\' ranges, each move named by its field', () => {
  const link = decodeShare(encodeShare({ model: 'threelink', dt: 1e-300, timeScale: 100, gravity: [0, 25, -9.81], tau: [1e9, -3, 0], act: [-50] }));
  assert.equal(link.dt, 1e-300, 'decoded as written: the controls clamp it');
  const { values, notes } = clampToControls(link, {
    dt: [1e-4, 1e-2], timeScale: [0.05, 4], gravity: [-20, 20], tau: [[-30, 30], [-30, 30], [-30, 30]], act: [[-10, 10]],
  });
  assert.equal(values.dt, 1e-4);
  assert.equal(values.timeScale, 4);
  assert.deepEqual(values.gravity, [0, 20, -9.81]);
  assert.deepEqual(values.tau, [30, -3, 0]);
  assert.deepEqual(values.act, [-10]);
  assert.deepEqual(notes, [
    "the link's dt 1e-300 is outside its control's range 0.0001 to 0.01: set to 0.0001",
    "the link's timeScale 100 is outside its control's range 0.05 to 4: set to 4",
    "the link's gravity[1] 25 is outside its control's range -20 to 20: set to 20",
    "the link's tau[0] 1000000000 is outside its control's range -30 to 30: set to 30",
    "the link's act[0] -50 is outside its control's range -10 to 10: set to -10",
  ]);
  const inside = { dt: 0.002, timeScale: 0.5, gravity: [0, 0, -9.81] };
  assert.deepEqual(clampToControls(inside, { dt: [1e-4, 1e-2], timeScale: [0.05, 4], gravity: [-20, 20] }), { values: inside, notes: [] });
});
