// Progressive enhancement of the server-rendered login form: without this script the form posts
// and the server redirects; with it, a wrong password or a lock-out (429) is shown in place.
const form = document.getElementById('login-form');
const message = document.getElementById('login-message');

function show(text, kind) {
  message.textContent = text;
  message.className = 'notice' + (kind ? ' ' + kind : '');
  message.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  message.hidden = false;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const button = form.querySelector('button[type=submit]');
  button.disabled = true;
  try {
    const r = await fetch(form.action, { method: 'POST', body: new URLSearchParams(new FormData(form)), credentials: 'same-origin' });
    if (r.status === 429) {
      const wait = Number(r.headers.get('Retry-After') || '0');
      const minutes = Math.max(1, Math.ceil(wait / 60));
      show(`Too many failed sign-ins for this account or address. Try again in about ${minutes} minute${minutes === 1 ? '' : 's'}.`, 'error');
    } else if (r.url.includes('/console/login')) {
      show('Wrong e-mail or password.', 'error');
      form.password.value = '';
      form.password.focus();
    } else {
      window.location.assign(r.url);
      return;
    }
  } catch (e) {
    show('The service did not answer: ' + e.message, 'error');
  }
  button.disabled = false;
});
