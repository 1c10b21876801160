// share.js — share links: the scene in the URL hash, lz-string compressed. A hash is untrusted input:
// it is size-capped before and after decompression, every field is type-checked, and nothing from it is
// ever inserted as HTML (the text goes only into the editor and to the WebAssembly parser).
import LZString from 'lz-string';

const PREFIX = '#s=';
export const MAX_HASH = 100_000;     // characters of compressed hash
const MAX_TEXT = 1_000_000;   // characters of decompressed JSON
const MAX_ARRAY = 4096;
const NAME = /^[A-Za-z0-9_.-]{1,48}$/;

class ShareError extends Error {}

export function encodeShare(state) {
  return PREFIX + LZString.compressToEncodedURIComponent(JSON.stringify({ v: 1, ...state }));
}

const finite = (x) => typeof x === 'number' && Number.isFinite(x);
function numbers(a, field, length) {
  if (a === undefined) return undefined;
  if (!Array.isArray(a) || a.length > MAX_ARRAY || !a.every(finite)) throw new ShareError(`"${field}" is not a list of numbers`);
  if (length !== undefined && a.length !== length) throw new ShareError(`"${field}" must have ${length} numbers`);
  return a;
}
function positive(x, field, max) {
  if (x === undefined) return undefined;
  if (!finite(x) || x <= 0 || x > max) throw new ShareError(`"${field}" is out of range`);
  return x;
}

/**
 * Reads a location hash. Returns null when there is no share state in it; throws ShareError when there is
 * one but it is oversized or corrupt. The result has only known, checked fields.
 */
export function decodeShare(hash) {
  if (!hash || !hash.startsWith(PREFIX)) return null;
  if (hash.length > MAX_HASH) throw new ShareError(`the link is too long (${hash.length} characters; the limit is ${MAX_HASH})`);
  let json;
  try {
    json = LZString.decompressFromEncodedURIComponent(hash.slice(PREFIX.length));
  } catch {
    json = null;
  }
  if (!json) throw new ShareError('the link is damaged (it does not decompress)');
  if (json.length > MAX_TEXT) throw new ShareError('the link holds too much text');
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
    camera: numbers(raw.camera, 'camera', 6),
    dt: positive(raw.dt, 'dt', 0.1),
    timeScale: positive(raw.timeScale, 'timeScale', 100),
  };
}
