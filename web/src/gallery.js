// gallery.js — the shipped models, one card each: name, one-line description, nq/nv (rods: their count); grouped
// by the manifests' `group`: kinematic trees, then closed loops and vehicles, then tracked vehicles (models.json: a
// generated module each, or the runtime engine for a model shipped as text), then the test rigs (the HMMWVs on
// shaker posts, for cross-checking accelerations), then the XPBD scenes of models/xpbd
// (scenes.json; xpbd-models.js). The entries come from the build.
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

export function createGallery(list, models, onPick) {
  const cards = new Map();
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
    const card = el('button', 'card');
    card.type = 'button';
    card.dataset.model = m.name;
    const head = el('div', 'card-head');
    const dims = m.nrod ? `${m.nrod} rod${m.nrod > 1 ? 's' : ''}${m.nb ? ` · nb ${m.nb}` : ''}` : `nq ${m.nq} · nv ${m.nv}`;
    head.append(el('span', 'card-name', m.name), el('span', 'card-dims', dims));
    card.append(head, el('div', 'card-desc', m.description || 'no description'));
    if (m.backend === 'runtime') card.dataset.backend = 'runtime';
    card.title = m.description || m.name;
    card.addEventListener('click', () => onPick(m.name));
    const item = el('li');
    item.append(card);
    list.append(item);
    cards.set(m.name, card);
  }
  return {
    select(name) {
      for (const [n, card] of cards) card.classList.toggle('active', n === name);
    },
    markEdited(name, edited) {
      cards.get(name)?.classList.toggle('edited', edited);
    },
  };
}
