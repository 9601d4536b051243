// The console's place in the history. Every change of URL goes through here, so the router knows
// which URL the page on screen shows: Back or Forward to another path or query renders that page; to
// the same one (a #hash only) it just scrolls.

let shown = '';

const key = (url: URL) => url.pathname + url.search;

/** Records that the page on screen is the one of `url`. */
export function showing(url: URL): void {
  shown = key(url);
}

export function isShown(url: URL): boolean {
  return key(url) === shown;
}

/** A new history entry for what the page on screen now shows (a search typed on the search page); the same URL again replaces its entry. */
export function pushUrl(url: URL): void {
  if (isShown(url)) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  showing(url);
}

/** The current history entry, changed to say what the page on screen now shows (a filter applied). */
export function replaceUrl(url: URL): void {
  history.replaceState(null, '', url);
  showing(url);
}
