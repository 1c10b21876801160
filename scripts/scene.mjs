// scene.mjs — a terrain scene (models/tracks/scenes/<name>.scene) as the .mech text it ships as: its base
// model's text with the scene's `description` line and `ground` block in place of the base's, and the scene's
// leading comments on top (docs/mech-format.md, "Terrain scenes"). Run when the build is configured
// (cmake/sources.cmake); the scene runs on the base model's generated module (wasm/scene.c checks the text).
//
//   node scripts/scene.mjs models/tracks/scenes/m113_ramp.scene > m113_ramp.mech
//
// A scene file: comment lines, then `base <model>` (a model of models/tracks/, or a vehicle on tires of models/loops/), one `description` line and one
// `ground` … `end` block, nothing else. A bad file is refused naming its line and column.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const word = (line) => line.trim().split(/[\s#]/)[0] ?? '';
const blank = (line) => line.trim() === '' || line.trim().startsWith('#');

/** The scene file's parts: { comments, base, description, ground (lines) }; throws "file:line:col: what". */
export function parseScene(text, file) {
  const lines = text.split('\n');
  const fail = (i, what, col = 1) => {
    throw new Error(`${file}:${i + 1}:${col}: ${what}`);
  };
  const out = { comments: [], base: null, description: null, ground: null };
  let head = true;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\s+$/, '');
    const col = line.length - line.trimStart().length + 1;
    if (blank(line)) {
      if (head && line.trim()) out.comments.push(line);
      continue;
    }
    head = false;
    const key = word(line);
    if (key === 'base') {
      if (out.base) fail(i, "duplicate 'base'", col);
      const parts = line.split('#')[0].trim().split(/\s+/);
      if (parts.length !== 2 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(parts[1])) fail(i, "'base' takes one model name, a model of models/tracks/ or models/loops/", col);
      out.base = parts[1];
    } else if (key === 'description') {
      if (out.description) fail(i, "duplicate 'description'", col);
      out.description = line.trim();
    } else if (key === 'ground') {
      if (out.ground) fail(i, "duplicate 'ground'", col);
      const start = i;
      out.ground = [line];
      for (i++; i < lines.length && word(lines[i]) !== 'end'; i++) out.ground.push(lines[i].replace(/\s+$/, ''));
      if (i === lines.length) fail(start, "the ground block has no 'end' before the end of the file", col);
      out.ground.push(lines[i].replace(/\s+$/, ''));
    } else {
      fail(i, `'${key}' is not a scene key: a scene has 'base', 'description' and a 'ground' block`, col);
    }
  }
  for (const key of ['base', 'description', 'ground']) if (!out[key]) fail(0, `the scene has no '${key}'`);
  return out;
}

/** The scene's .mech text from its parts and the base model's text. */
export function composeScene(scene, baseText, file) {
  const lines = baseText.split('\n');
  const out = [...scene.comments, `# (${basename(file)}: ${scene.base}.mech with this description and ground)`];
  let description = false;
  let ground = false;
  for (let i = 0; i < lines.length; i++) {
    const key = blank(lines[i]) ? '' : word(lines[i]);
    if (key === 'description' && !description) {
      out.push(scene.description);
      description = true;
    } else if (key === 'ground' && !ground) {
      while (i < lines.length && word(lines[i]) !== 'end') i++;
      out.push(...scene.ground);
      ground = true;
    } else {
      out.push(lines[i]);
    }
  }
  if (!description) throw new Error(`${file}: the base model ${scene.base}.mech has no 'description' line to replace`);
  if (!ground) throw new Error(`${file}: the base model ${scene.base}.mech has no 'ground' block to replace`);
  return out.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: node scripts/scene.mjs SCENE_FILE\n');
    process.exit(2);
  }
  try {
    const scene = parseScene(readFileSync(file, 'utf8'), file);
    // the base: a tracked vehicle of models/tracks/, or a vehicle on tires of models/loops/
    const tracks = dirname(dirname(resolve(file)));
    const own = join(tracks, `${scene.base}.mech`);
    const base = existsSync(own) ? own : join(dirname(tracks), 'loops', `${scene.base}.mech`);
    process.stdout.write(composeScene(scene, readFileSync(base, 'utf8'), file));
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
}
