// gallery.js — the shipped models, one card each: name, one-line description, nq/nv.
function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

export function createGallery(list, models, onPick) {
  const cards = new Map();
  for (const m of models) {
    const card = el('button', 'card');
    card.type = 'button';
    card.dataset.model = m.name;
    const head = el('div', 'card-head');
    head.append(el('span', 'card-name', m.name), el('span', 'card-dims', `nq ${m.nq} · nv ${m.nv}`));
    card.append(head, el('div', 'card-desc', m.description || 'no description'));
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
