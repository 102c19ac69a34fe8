// The hash router's two halves: where we are (#/page?query) and going somewhere.

export const PAGES = ['overview', 'namespaces', 'tokens', 'explorer', 'lifecycle'];

/** The route of the location's fragment: page name and its query parameters. */
export function route() {
  const [path, query] = window.location.hash.replace(/^#\/?/, '').split('?');
  return { page: PAGES.includes(path) ? path : 'overview', params: new URLSearchParams(query || '') };
}

export function go(page, params) {
  const q = params ? '?' + new URLSearchParams(params) : '';
  window.location.hash = '#/' + page + q;
}
