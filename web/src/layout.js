// layout.js — the page on narrow screens (style.css lays it out by width): below 1280 px the model gallery is a
// drawer that the topbar's Models button opens and a picked card closes; below 760 px (a phone) the view comes
// first and the model text, the settings and the plot are tabs under it. The state is two attributes of <body>,
// data-drawer ('open' or absent) and data-tab (the tab shown), that style.css reads; on a wide screen neither
// changes anything.

const TABS = [
  { id: 'text', label: 'Model text', pane: '.editor-pane' },
  { id: 'settings', label: 'Settings', pane: '.controls-pane' },
  { id: 'plot', label: 'Plot', pane: '.plots-pane' },
];

export function installLayout() {
  const body = document.body;
  const gallery = document.querySelector('.gallery');
  const toggle = document.getElementById('models-button');
  const setDrawer = (open) => {
    if (open) body.dataset.drawer = 'open';
    else delete body.dataset.drawer;
    toggle.setAttribute('aria-expanded', String(open));
  };
  toggle.addEventListener('click', () => setDrawer(body.dataset.drawer !== 'open'));
  gallery.addEventListener('click', (e) => e.target.closest('.card') && setDrawer(false));
  document.addEventListener('keydown', (e) => e.key === 'Escape' && body.dataset.drawer === 'open' && setDrawer(false));
  setDrawer(false);

  const bar = document.getElementById('tabs');
  const buttons = TABS.map((tab) => {
    const button = document.createElement('button');
    Object.assign(button, { type: 'button', className: 'tab', id: `tab-${tab.id}`, textContent: tab.label });
    button.setAttribute('role', 'tab');
    const pane = document.querySelector(tab.pane);
    pane.id ||= `pane-${tab.id}`;
    pane.setAttribute('role', 'tabpanel');
    pane.setAttribute('aria-labelledby', button.id);
    button.setAttribute('aria-controls', pane.id);
    button.addEventListener('click', () => show(tab.id));
    bar.append(button);
    return button;
  });
  function show(id) {
    body.dataset.tab = id;
    TABS.forEach((tab, i) => buttons[i].setAttribute('aria-selected', String(tab.id === id)));
  }
  show('settings');
}
