// share.js — share links: the scene in the URL hash, lz-string compressed. A hash is untrusted input:
// it is size-capped before and after decompression, every field is type-checked, and nothing from it is
// ever inserted as HTML (the text goes only into the editor and to the WebAssembly parser).
import LZString from 'lz-string';

const PREFIX = '#s=';
export const MAX_HASH = 100_000;     // characters of compressed hash
export const MAX_TEXT = 1_000_000;   // characters of decompressed JSON; also the cap on a dropped model file (bytes)
const MAX_ARRAY = 4096;
const MAX_STATE = 200_000;           // base64 characters of a saved state (150 000 bytes, 18 750 values)
const NAME = /^[A-Za-z0-9_.-]{1,48}$/;
const SCENE_KEY = /^[A-Za-z][A-Za-z0-9]{0,31}$/; // a scene slider's key (scene-controls.js); never __proto__
const MAX_SCENE_VALUES = 16;

class ShareError extends Error {}

// lz-string's "encoded URI component" format, decoded as LZString.decompressFromEncodedURIComponent does
// (lz-string 1.5.0, `_decompress`: LZW codes of growing width, 6 bits per character of the alphabet below,
// least significant bit first), but stopping as soon as the output passes `limit` characters. LZW output
// can grow quadratically with the input (a run of one character: each code is one character longer than
// the last), so a 75 000-character link would otherwise expand to 5e8 characters (over a gigabyte, seconds
// of the main thread). The dictionary holds no more than the output plus one character per code, so it is
// bounded too.
// Returns the text, or null when the input is damaged; throws ShareError when the text exceeds `limit`.
const URI_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$';
const URI_VALUE = new Map([...URI_ALPHABET].map((c, i) => [c, i]));

function decompressBounded(input, limit) {
  input = input.replace(/ /g, '+'); // a '+' the URL decoded into a space
  let index = 0;     // next input character
  let value = 0;     // its 6 bits
  let position = 0;  // the bit of `value` read next (0: fetch the next character)
  const bits = (width) => {
    let out = 0;
    for (let power = 1; power < 1 << width; power <<= 1) {
      if (position === 0) {
        value = URI_VALUE.get(input[index++]) ?? 0;
        position = 32;
      }
      if (value & position) out |= power;
      position >>= 1;
    }
    return out;
  };
  const dictionary = ['', '', '']; // codes 0, 1, 2: an 8-bit literal, a 16-bit literal, the end
  let width = 2;
  let enlargeIn = 4;
  const first = bits(width);
  if (first === 2) return '';
  if (first > 2) return null;
  let w = String.fromCharCode(bits(first === 0 ? 8 : 16));
  dictionary.push(w);
  width = 3;
  const out = [w];
  let length = w.length;
  for (;;) {
    if (index > input.length) return null; // ran past the end without an end code
    let code = bits(width);
    if (code === 2) return out.join('');
    if (code < 2) {
      dictionary.push(String.fromCharCode(bits(code === 0 ? 8 : 16)));
      code = dictionary.length - 1;
      if (--enlargeIn === 0) enlargeIn = 1 << width++;
    }
    let entry;
    if (code < dictionary.length) entry = dictionary[code];
    else if (code === dictionary.length) entry = w + w[0];
    else return null;
    length += entry.length;
    if (length > limit) {
      throw new ShareError(`the share link is too large: it holds too much text (more than ${limit} characters once decompressed)`);
    }
    out.push(entry);
    dictionary.push(w + entry[0]);
    if (--enlargeIn === 0) enlargeIn = 1 << width++;
    w = entry;
  }
}

/** A saved state (Sim.saveState(), a Float64Array) as base64 of its bytes: every bit kept. */
function packState(state) {
  const bytes = new Uint8Array(state.buffer, state.byteOffset, state.byteLength);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** The Float64Array a link's "state" holds, or ShareError. */
function unpackState(text) {
  if (typeof text !== 'string' || text.length > MAX_STATE || text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) {
    throw new ShareError('"state" is not a saved state (base64 of at most 150 000 bytes)');
  }
  const binary = atob(text);
  if (binary.length % 8 !== 0) throw new ShareError('"state" is not a saved state (not a whole number of values)');
  const values = new Float64Array(Uint8Array.from(binary, (c) => c.charCodeAt(0)).buffer);
  const bad = values.findIndex((x) => !Number.isFinite(x));
  if (bad >= 0) throw new ShareError(`"state" value ${bad} is not a finite number`);
  return values;
}

/** The scene as a link; its `shown`, when given, is the time line's place: { time, steps, state: Sim.saveState() }. */
export function encodeShare(scene) {
  const shown = scene.shown && { ...scene.shown, state: packState(scene.shown.state) };
  return PREFIX + LZString.compressToEncodedURIComponent(JSON.stringify({ v: 1, ...scene, shown }));
}

const finite = (x) => typeof x === 'number' && Number.isFinite(x);
function numbers(a, field, length) {
  if (a === undefined) return undefined;
  if (!Array.isArray(a) || a.length > MAX_ARRAY || !a.every(finite)) throw new ShareError(`"${field}" is not a list of numbers`);
  if (length !== undefined && a.length !== length) throw new ShareError(`"${field}" must have ${length} numbers`);
  return a;
}
/** A list of levels from 0 to 1 (the brakes of a tracked vehicle's drive rollers). */
function levels(a, field) {
  if (numbers(a, field) === undefined) return undefined;
  if (!a.every((x) => x >= 0 && x <= 1)) throw new ShareError(`"${field}" levels must be between 0 and 1`);
  return a;
}
/** The time line's place a link shows, { time, steps, state: Float64Array }, or undefined. */
function place(shown) {
  if (shown === undefined) return undefined;
  if (!shown || typeof shown !== 'object' || Array.isArray(shown)) throw new ShareError('"shown" is not a time and a state');
  const { time, steps } = shown;
  if (!finite(time) || time < 0 || time > 1e9) throw new ShareError('"shown" has no time in 0..1e9 s');
  if (!Number.isSafeInteger(steps) || steps < 0) throw new ShareError('"shown" has no step count');
  return { time, steps, state: unpackState(shown.state) };
}
/** A scene's own slider values (scene-controls.js), { key: number }: the page clamps each to its slider. */
function sceneValues(v) {
  if (v === undefined) return undefined;
  const entries = v && typeof v === 'object' && !Array.isArray(v) ? Object.entries(v) : null;
  if (!entries || entries.length > MAX_SCENE_VALUES || !entries.every(([k, x]) => SCENE_KEY.test(k) && finite(x))) {
    throw new ShareError('"scene" is not a set of named numbers');
  }
  return Object.fromEntries(entries);
}
/** A toggle: true or false (the floor: contact-settings.js). */
function toggle(x, field) {
  if (x === undefined || typeof x === 'boolean') return x;
  throw new ShareError(`"${field}" is not true or false`);
}
function positive(x, field, max) {
  if (x === undefined) return undefined;
  if (!finite(x) || x <= 0 || x > max) throw new ShareError(`"${field}" is out of range`);
  return x;
}

/**
 * A link's numbers clamped to the ranges of the controls that show them: `ranges` maps a field of `values` to
 * [min, max], for a number or every entry of a list, or to one [min, max] per entry of a list (fields not in
 * `ranges` are kept). Returns { values, notes }: the values, and one sentence per value that was moved, naming
 * its field (the page shows them).
 */
export function clampToControls(values, ranges) {
  const out = { ...values };
  const notes = [];
  const clamp = (x, [min, max], field) => {
    if (x >= min && x <= max) return x;
    const to = Math.min(Math.max(x, min), max);
    notes.push(`the link's ${field} ${x} is outside its control's range ${min} to ${max}: set to ${to}`);
    return to;
  };
  for (const [field, range] of Object.entries(ranges)) {
    const v = values[field];
    if (v === undefined || v === null) continue;
    out[field] = Array.isArray(v)
      ? v.map((x, i) => clamp(x, Array.isArray(range[0]) ? range[i] ?? [-Infinity, Infinity] : range, `${field}[${i}]`))
      : clamp(v, range, field);
  }
  return { values: out, notes };
}

/**
 * Reads a location hash. Returns null when there is no share state in it; throws ShareError when there is
 * one but it is oversized or corrupt. The result has only known, checked fields.
 */
export function decodeShare(hash) {
  if (!hash || !hash.startsWith(PREFIX)) return null;
  if (hash.length > MAX_HASH) throw new ShareError(`the link is too long (${hash.length} characters; the limit is ${MAX_HASH})`);
  const json = decompressBounded(hash.slice(PREFIX.length), MAX_TEXT);
  if (!json) throw new ShareError('the link is damaged (it does not decompress)');
  let raw;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new ShareError('the link is damaged (not valid JSON)');
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw) || raw.v !== 1) throw new ShareError('the link has an unknown format');
  if (typeof raw.model !== 'string' || !NAME.test(raw.model)) throw new ShareError('the link names no valid model');
  if (raw.text !== undefined && typeof raw.text !== 'string') throw new ShareError('the link\'s model text is not text');
  return {
    model: raw.model,
    text: raw.text,
    tau: numbers(raw.tau, 'tau'),
    act: numbers(raw.act, 'act'),
    gravity: numbers(raw.gravity, 'gravity', 3),
    brake: levels(raw.brake, 'brake'),
    camera: numbers(raw.camera, 'camera', 6),
    dt: positive(raw.dt, 'dt', 0.1),
    timeScale: positive(raw.timeScale, 'timeScale', 100),
    scene: sceneValues(raw.scene),
    floor: toggle(raw.floor, 'floor'),
    shown: place(raw.shown),
  };
}
