// storage.js — edited model text kept per model in localStorage, so a reload or a crash loses nothing; and the
// page's few remembered settings (quality, the first-visit hint).
const key = (model) => `mech.edit.${model}`;

function store() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: edits then live only as long as the page
  }
}

export function loadEdit(model) {
  return store()?.getItem(key(model)) ?? null;
}

/** Keeps `text` for `model`, or forgets the edit when the text is the shipped one again. */
export function saveEdit(model, text, shipped) {
  const s = store();
  if (!s) return;
  try {
    if (text === shipped) s.removeItem(key(model));
    else s.setItem(key(model), text);
  } catch {
    // quota exceeded: the edit stays in the editor, nothing else to do
  }
}

export function dropEdit(model) {
  store()?.removeItem(key(model));
}

/** A remembered page setting (a string), or null. */
export function loadSetting(name) {
  return store()?.getItem(`mech.setting.${name}`) ?? null;
}

export function saveSetting(name, value) {
  try {
    store()?.setItem(`mech.setting.${name}`, value);
  } catch {
    // quota exceeded: the setting lasts as long as the page
  }
}
