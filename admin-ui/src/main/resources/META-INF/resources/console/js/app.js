// The console's shell: who is signed in, the navigation, and a tiny hash router (#/page?query).
import { session } from './api.js';
import { route } from './router.js';
import { el, notice } from './ui.js';

const pages = {
  overview: () => import('./pages/overview.js'),
  namespaces: () => import('./pages/namespaces.js'),
  tokens: () => import('./pages/tokens.js'),
  explorer: () => import('./pages/explorer.js'),
  lifecycle: () => import('./pages/lifecycle.js'),
};
const titles = { overview: 'Overview', namespaces: 'Namespaces', tokens: 'Tokens', explorer: 'Data explorer', lifecycle: 'Rollups & lifecycle' };

const main = document.getElementById('main');
let current = 0;

async function render() {
  const { page, params } = route();
  const ticket = ++current;
  document.querySelectorAll('nav a').forEach((a) => {
    if (a.dataset.page === page) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  });
  document.title = titles[page] + ' · Chronix console';
  const root = el('div', { dataset: { page } });
  try {
    const module = await pages[page]();
    if (ticket !== current) return;
    main.replaceChildren(root);
    await module.render(root, params);
  } catch (e) {
    if (ticket !== current) return;
    main.replaceChildren(root);
    root.append(notice('error', 'This page could not be shown: ' + e.message));
  }
  if (ticket === current) {
    root.dataset.ready = 'true';
    main.focus({ preventScroll: true });
  }
}

const s = await session();
document.getElementById('tenant-name').textContent = s.tenant.name;
document.getElementById('user-email').textContent = s.email;
document.getElementById('logout-csrf').name = s.csrf.parameterName;
document.getElementById('logout-csrf').value = s.csrf.token;
window.addEventListener('hashchange', render);
render();
