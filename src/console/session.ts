// The console's connection to the API: the API root next to the console (the document's base
// resolved to ../v1, so a proxy's path prefix is kept), the API key and the project. The key is kept
// in sessionStorage only (gone when the tab closes, never in localStorage, a cookie or a URL); the
// project, sent as X-Svc-Project, matters only to a server started with --no-auth, where it is the
// only way to choose one (with a key, the key decides the project).
import { Svc } from '../client/index.js';

const KEY = 'svc.apiKey';
const PROJECT = 'svc.project';

export const API_ROOT = new URL('../v1', document.baseURI).href;

export function apiKey(): string | undefined {
  return sessionStorage.getItem(KEY) ?? undefined;
}

export function project(): string | undefined {
  return sessionStorage.getItem(PROJECT) ?? undefined;
}

/** Keeps (or, with undefined or '', forgets) the key and the project for this tab. */
export function remember(key: string | undefined, proj: string | undefined): void {
  for (const [name, value] of [
    [KEY, key],
    [PROJECT, proj],
  ] as const) {
    if (value) sessionStorage.setItem(name, value);
    else sessionStorage.removeItem(name);
  }
}

/** A client with the current key and project; retries are few, so a page reports a failure quickly. */
export function client(): Svc {
  return new Svc({ baseUrl: API_ROOT, apiKey: apiKey(), project: project(), env: {}, timeoutMs: 60_000, retry: { maxAttempts: 3 } });
}
