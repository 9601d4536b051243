// How a failure reads on a page: the API's `message` and `fix` as the server wrote them (the client
// turns every error response, and every failed connection, into a SvcError carrying both), with its
// type and request id for a bug report; a 401 offers to enter a key (the event CONNECT, which the
// shell answers by opening the connection panel). A failed connection gets a fix for a browser
// (the client's names SVC_BASE_URL, which a page does not read). A call aborted because the user
// left the page shows nothing.
import { ConnectionError, SvcError, UnauthorizedError } from '../client/index.js';
import { h } from './dom.js';

export const CONNECT = 'svc:connect';

export function isAbort(err: unknown, signal?: AbortSignal): boolean {
  return signal?.aborted === true || (err instanceof DOMException && err.name === 'AbortError');
}

/** An alert box for `err`, with `what` failed as its title. */
export function errorBox(what: string, err: unknown): HTMLElement {
  const svc = err instanceof SvcError ? err : undefined;
  const message = svc?.message ?? (err instanceof Error ? err.message : String(err));
  const fix =
    err instanceof ConnectionError
      ? 'Check that the svc server is running and that this browser can reach it (a proxy, a VPN or the network may be in the way), then try again.'
      : svc?.fix;
  return h(
    'div',
    { class: 'alert', role: 'alert' },
    h('p', { class: 'alert-title' }, what),
    h('p', {}, message),
    fix ? h('p', { class: 'fix' }, h('strong', {}, 'Fix: '), fix) : null,
    svc ? h('p', { class: 'muted small' }, svc.type, svc.requestId ? ` · request ${svc.requestId}` : '') : null,
    err instanceof UnauthorizedError
      ? h('button', { type: 'button', onclick: () => document.dispatchEvent(new Event(CONNECT)) }, 'Enter an API key')
      : null,
  );
}
