#!/usr/bin/env node
// import.mjs — MJCF or URDF to .mech (docs/import.md): the .mech text on
// stdout, the importer's warnings on stderr.  The files beside the model (its
// folder and below: included .xml, .obj and .stl meshes) are given to the
// importer, as a folder dropped on the page is.
//
//   node scripts/import.mjs models/robots/panda.xml > panda.mech
//   node scripts/import.mjs --format urdf robot.urdf

import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { importModel, ImportError } from '../wasm/import/index.mjs';

const args = process.argv.slice(2);
let format;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--format') format = args[++i];
  else if (args[i].startsWith('--format=')) format = args[i].slice('--format='.length);
  else if (args[i] === '-h' || args[i] === '--help') files.length = 0, files.push(null);
  else files.push(args[i]);
}
if (files.length !== 1 || files[0] === null) {
  process.stderr.write('usage: node scripts/import.mjs [--format mjcf|urdf] FILE\n'
    + '  prints the .mech text of an MJCF (.xml) or URDF (.urdf) file; warnings go to stderr\n');
  process.exit(files[0] === null ? 0 : 2);
}
const file = files[0];
if (format === undefined && /\.urdf$/i.test(file)) format = 'urdf';
let text;
try {
  text = readFileSync(file, 'utf8');
} catch (e) {
  process.stderr.write(`import: cannot read ${file}: ${e.code ?? e.message}\n`);
  process.exit(1);
}
/** The .xml, .obj and .stl files under `dir` (four levels deep) but `file`, keyed by their path relative to it. */
function filesBeside(dir, file) {
  const out = {};
  const walk = (d, depth) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, e.name);
      if (e.isDirectory() && depth < 4) walk(path, depth + 1);
      else if (e.isFile() && /\.(xml|obj|stl)$/i.test(e.name) && relative(path, file) !== '') out[relative(dir, path).split('\\').join('/')] = new Uint8Array(readFileSync(path));
    }
  };
  walk(dir, 0);
  return out;
}

try {
  const out = importModel(text, { format, name: basename(file), files: filesBeside(dirname(file), file) });
  for (const w of out.warnings) process.stderr.write(`${basename(file)}: warning: ${w}\n`);
  process.stdout.write(out.text);
} catch (e) {
  if (!(e instanceof ImportError)) throw e;
  process.stderr.write(`${e.message}\n`);
  process.exit(1);
}
