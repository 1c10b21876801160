// lz-bomb.mjs — a hostile share link for the tests: lz-string data that expands quadratically.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$';

/**
 * A decompression bomb in lz-string's encoded-URI-component format, written code by code: the literal 'x',
 * then `codes` codes that each name the entry being defined (the "KwKwK" case of LZW), so the k-th code expands
 * to k + 1 characters and the whole to about codes²/2. Bits are least significant first, 6 per character.
 */
export function bomb(codes) {
  const bits = [];
  const put = (value, width) => {
    for (let k = 0; k < width; k++) bits.push((value >> k) & 1);
  };
  put(0, 2); // an 8-bit literal follows
  put('x'.charCodeAt(0), 8);
  let size = 4;
  let width = 3;
  let enlargeIn = 4;
  for (let i = 0; i < codes; i++) {
    put(size++, width);
    if (--enlargeIn === 0) enlargeIn = 1 << width++;
  }
  put(2, width); // end of stream
  while (bits.length % 6) bits.push(0);
  let out = '';
  for (let i = 0; i < bits.length; i += 6) out += ALPHABET[bits.slice(i, i + 6).reduce((v, b) => 2 * v + b, 0)];
  return out + 'A';
}
