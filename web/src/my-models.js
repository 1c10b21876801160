// my-models.js — the user's own models: every dropped or pasted (MJCF and URDF imported) model and every "New
// model" is kept with its text in localStorage under a name of its own, listed in the gallery's "My models"
// group (gallery.js), reopened after a reload, renamed, deleted and downloaded there; its edits are saved into it.
// A name never takes a shipped model's name nor another of the user's: a clash gets _2, _3, ….
const KEY = 'mech.mine';

function store() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: the models live as long as the page
  }
}

/** The kept list, [{ name, text }], or [] when there is none or it is not ours. */
function read() {
  try {
    const list = JSON.parse(store()?.getItem(KEY) ?? '[]');
    return Array.isArray(list) ? list.filter((m) => typeof m?.name === 'string' && typeof m.text === 'string') : [];
  } catch {
    return [];
  }
}

/** A name in .mech's name characters, at most 60 of them. */
export const modelName = (s) => String(s).replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 60) || 'model';

/** The user's models, beside the shipped ones named `shipped` (a Set); `onChange(list)` after every change. */
export function createMyModels(shipped, onChange) {
  let list = read();
  const find = (name) => list.find((m) => m.name === name);
  const taken = (name) => shipped.has(name) || Boolean(find(name));
  function save() {
    try {
      store()?.setItem(KEY, JSON.stringify(list));
    } catch {
      // quota exceeded: the change lasts as long as the page
    }
    onChange(list.map((m) => ({ ...m })));
  }
  function free(base) {
    const stem = modelName(base);
    if (!taken(stem)) return stem;
    let k = 2;
    while (taken(`${stem.slice(0, 56)}_${k}`)) k++;
    return `${stem.slice(0, 56)}_${k}`;
  }
  return {
    list: () => list.map((m) => ({ ...m })),
    has: (name) => Boolean(find(name)),
    text: (name) => find(name)?.text ?? null,
    /** Keeps `text` as a new model named after `base` (made free); returns its name. */
    add(base, text) {
      const name = free(base);
      list.push({ name, text });
      save();
      return name;
    },
    update(name, text) {
      const m = find(name);
      if (!m || m.text === text) return;
      m.text = text;
      save();
    },
    /** Renames `from` after `to` (made free); returns the new name, or null when there is no such model. */
    rename(from, to) {
      const m = find(from);
      if (!m) return null;
      if (modelName(to) === from) return from;
      m.name = free(to);
      save();
      return m.name;
    },
    remove(name) {
      list = list.filter((m) => m.name !== name);
      save();
    },
  };
}
