// zip.js — a zip archive of a few small files, stored without compression (method 0): local headers, the data,
// the central directory and its end record, as PKWARE's APPNOTE.TXT (sections 4.3 and 4.4) lays them out.

const encoder = new TextEncoder();

let table;

/** CRC-32 (the IEEE 802.3 polynomial, reflected: 0xEDB88320) of `bytes`, as zip stores it. */
export function crc32(bytes) {
  table ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c;
  });
  let crc = 0xffffffff;
  for (const b of bytes) crc = table[(crc ^ b) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * The zip of `files` ([{ name, data }], data a string (UTF-8) or bytes; names with '/' make folders), every
 * file dated `date` (local time, as zip's DOS fields hold it).
 * @returns {Uint8Array}
 */
export function zip(files, date = new Date()) {
  const dosTime = (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1);
  const dosDate = ((date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate();
  const parts = [];
  const central = [];
  let offset = 0;
  for (const file of files) {
    const name = encoder.encode(file.name);
    const data = typeof file.data === 'string' ? encoder.encode(file.data) : file.data;
    const crc = crc32(data);
    // Version 2.0, flag bit 11 (names are UTF-8), stored, time, date, CRC, sizes, name length, no extra field.
    const common = [[20, 2], [0x0800, 2], [0, 2], [dosTime, 2], [dosDate, 2], [crc, 4], [data.length, 4],
      [data.length, 4], [name.length, 2], [0, 2]];
    const local = record(0x04034b50, common);
    parts.push(local, name, data);
    // The central entry: made by version 2.0 (MS-DOS), no comment, disk 0, no attributes, the local header's offset.
    central.push(record(0x02014b50, [[20, 2], ...common, [0, 2], [0, 2], [0, 2], [0, 4], [offset, 4]]), name);
    offset += local.length + name.length + data.length;
  }
  const size = central.reduce((n, p) => n + p.length, 0);
  const end = record(0x06054b50, [[0, 2], [0, 2], [files.length, 2], [files.length, 2], [size, 4], [offset, 4], [0, 2]]);
  const out = new Uint8Array(offset + size + end.length);
  let at = 0;
  for (const p of [...parts, ...central, end]) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A little-endian record: the 4-byte signature, then each [value, bytes]. */
function record(signature, fields) {
  const out = new Uint8Array(4 + fields.reduce((n, [, size]) => n + size, 0));
  const view = new DataView(out.buffer);
  view.setUint32(0, signature, true);
  let at = 4;
  for (const [value, size] of fields) {
    if (size === 2) view.setUint16(at, value, true);
    else view.setUint32(at, value, true);
    at += size;
  }
  return out;
}
