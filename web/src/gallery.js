// gallery.js — the shipped models, one card each: name, one-line description, nq/nv (rods: their count); grouped
// by the manifests' `group`: kinematic trees, then closed loops and vehicles, then tracked vehicles (models.json: a
// generated module each, or the runtime engine for a model shipped as text), then the test rigs (the HMMWVs on
// shaker posts, for cross-checking accelerations), then the XPBD scenes of models/xpbd (scenes.json;
// xpbd-models.js). The entries come from the build. Above them, "My models": the user's own (my-models.js), each
// card with buttons to rename, download and delete it.
function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

const GROUPS = [
  ['trees', 'Trees'],
  ['loops', 'Closed loops & vehicles'],
  ['tracks', 'Tracked vehicles'],
  ['rigs', 'Test rigs'],
  ['xpbd', 'XPBD: rods & scenes'],
];

/** A card: name, size line, description; picking it calls onPick(name). */
function card(m, onPick) {
  const button = el('button', 'card');
  button.type = 'button';
  button.dataset.model = m.name;
  const head = el('div', 'card-head');
  head.append(el('span', 'card-name', m.name), el('span', 'card-dims', m.dims));
  button.append(head, el('div', 'card-desc', m.description || 'no description'));
  button.title = m.description || m.name;
  button.addEventListener('click', () => onPick(m.name));
  return button;
}

/** The first line of a model's text that says what it is: its description, else its first comment. */
function describeText(text) {
  const description = /^\s*description\s+(.+)$/m.exec(text)?.[1];
  return description ?? /^\s*#\s*(.+)$/m.exec(text)?.[1] ?? '';
}

/**
 * The gallery in `list`: the shipped `models`, picked with onPick(name). `mine` acts on the user's own models:
 * rename(name), download(name), remove(name); showMine(list) shows them.
 */
export function createGallery(list, models, onPick, mine) {
  const cards = new Map();
  const mineGroup = el('li', 'my-models');
  list.append(mineGroup);
  const groupOf = (m) => (GROUPS.some(([g]) => g === m.group) ? m.group : 'trees');
  const ordered = GROUPS.flatMap(([g, title]) => {
    const members = models.filter((m) => groupOf(m) === g);
    return members.length ? [{ heading: title, group: g }, ...members] : [];
  });
  const grouped = new Set(ordered.filter((x) => x.heading).map((x) => x.group)).size > 1;
  for (const m of ordered) {
    if (m.heading) {
      if (grouped) list.append(el('li', 'card-group', m.heading));
      continue;
    }
    const dims = m.nrod ? `${m.nrod} rod${m.nrod > 1 ? 's' : ''}${m.nb ? ` · nb ${m.nb}` : ''}` : `nq ${m.nq} · nv ${m.nv}`;
    const button = card({ ...m, dims }, onPick);
    if (m.backend === 'runtime') button.dataset.backend = 'runtime';
    const item = el('li');
    item.append(button);
    list.append(item);
    cards.set(m.name, button);
  }
  let selected = null;
  return {
    /** The user's models, [{ name, text }], as the "My models" group. */
    showMine(items) {
      for (const [name, button] of cards) if (button.dataset.mine) cards.delete(name);
      const heading = el('h3', 'card-group', 'My models');
      const group = el('ul', 'cards-mine');
      for (const m of items) {
        const button = card({ name: m.name, dims: 'mine', description: describeText(m.text) }, onPick);
        button.dataset.mine = 'true';
        button.classList.toggle('active', m.name === selected);
        const actions = el('div', 'card-actions');
        for (const [action, label, text] of [['rename', 'Rename', '✎'], ['download', 'Download', '⤓'], ['remove', 'Delete', '×']]) {
          const b = el('button', `card-action card-${action}`, text);
          Object.assign(b, { type: 'button', title: `${label} ${m.name}` });
          b.setAttribute('aria-label', `${label} ${m.name}`);
          b.addEventListener('click', () => mine[action](m.name));
          actions.append(b);
        }
        const item = el('li', 'card-mine');
        item.append(button, actions);
        group.append(item);
        cards.set(m.name, button);
      }
      if (!items.length) {
        group.append(el('li', 'mine-empty', 'Drop an .xml (MJCF), .urdf or .mech file on the page (or a folder or zip holding one with its meshes), paste one into the editor, or press New model: it is kept here.'));
      }
      mineGroup.replaceChildren(heading, group);
    },
    select(name) {
      selected = name;
      for (const [n, button] of cards) button.classList.toggle('active', n === name);
    },
    markEdited(name, edited) {
      cards.get(name)?.classList.toggle('edited', edited);
    },
  };
}
