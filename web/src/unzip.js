// unzip.js — a dropped zip's files, read with fflate (its unzip alone; this module is loaded only when a zip is
// dropped, so neither is part of the page's first download). Only the files `wanted` (by path) are inflated, and
// only while the sizes their headers declare stay under a cap; an entry that inflates to another size than it
// declared is refused.
import { unzip } from 'fflate';

/**
 * The files of the zip `bytes` whose path `wanted(path)` accepts, as [{ path, bytes }] (folders skipped), or
 * { why } when they would inflate past `cap` bytes or the archive does not read.
 */
export function unzipFiles(bytes, wanted, cap) {
  let declared = 0;
  let over = null;
  const sizes = new Map();
  const filter = (f) => {
    if (f.name.endsWith('/') || !wanted(f.name) || over) return false;
    declared += f.originalSize;
    if (declared > cap) over = f.name;
    sizes.set(f.name, f.originalSize);
    return !over;
  };
  return new Promise((resolve) => {
    unzip(bytes, { filter }, (err, out) => {
      if (over) return resolve({ why: `its files inflate to more than ${cap >> 20} MB (at ${over})` });
      if (err) return resolve({ why: `it is not a zip archive that reads (${err.message})` });
      const files = Object.entries(out).map(([path, data]) => ({ path, bytes: data }));
      const liar = files.find((f) => f.bytes.length !== sizes.get(f.path));
      if (liar) return resolve({ why: `${liar.path} inflates to ${liar.bytes.length} bytes, not the ${sizes.get(liar.path)} its header declares` });
      return resolve({ files });
    });
  });
}
