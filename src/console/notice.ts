// How a failure reads on a page: the API's `message` and `fix` as the server wrote them (the client
// turns every error response, and every failed connection, into a SvcError carrying both), with its
// type and request id for a bug report; a 401 offers to enter a key (the event CONNECT, which the
// shell answers by opening the connection panel). A call aborted because the user left the page
// shows nothing.
import { SvcError, UnauthorizedError } from '../client/index.js';
import { h } from './dom.js';

export const CONNECT = 'svc:connect';

export function isAbort(err: unknown, signal?: AbortSignal): boolean {
  return signal?.aborted === true || (err instanceof DOMException && err.name === 'AbortError');
}

/** An alert box for `err`, with `what` failed as its title. */
export function errorBox(what: string, err: unknown): HTMLElement {
  const svc = err instanceof SvcError ? err : undefined;
  const message = svc?.message ?? (err instanceof Error ? err.message : String(err));
  return h(
    'div',
    { class: 'alert', role: 'alert' },
    h('p', { class: 'alert-title' }, what),
    h('p', {}, message),
    svc?.fix ? h('p', { class: 'fix' }, h('strong', {}, 'Fix: '), svc.fix) : null,
    svc ? h('p', { class: 'muted small' }, svc.type, svc.requestId ? ` · request ${svc.requestId}` : '') : null,
    err instanceof UnauthorizedError
      ? h('button', { type: 'button', onclick: () => document.dispatchEvent(new Event(CONNECT)) }, 'Enter an API key')
      : null,
  );
}
