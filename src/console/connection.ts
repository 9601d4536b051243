// The connection panel: the API key (a password field; kept in sessionStorage by session.ts) and,
// for a server started with --no-auth, the project. Saving re-renders the current page with them.
import { h, replace } from './dom.js';
import { field } from './field.js';
import { apiKey, project, remember } from './session.js';

const NAME = '^[a-z0-9_\\-]{1,64}$';

export function renderConnection(panel: HTMLElement, onSaved: () => void): void {
  const key = h('input', {
    id: 'api-key',
    name: 'api-key',
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    pattern: '[\\x21-\\x7e]+',
    value: apiKey() ?? '',
  });
  const proj = h('input', { id: 'project', name: 'project', pattern: NAME, value: project() ?? '' });
  const form = h(
    'form',
    {
      class: 'connection-form',
      onsubmit: (e: Event) => {
        e.preventDefault();
        remember(key.value.trim() || undefined, proj.value.trim() || undefined);
        onSaved();
      },
    },
    h('h2', { id: 'connection-title' }, 'Connection'),
    field(
      key,
      'API key',
      "The key 'svc keys create' printed. It is kept in this tab only (sessionStorage) and sent to this server alone. Leave it empty for a server started with --no-auth.",
    ),
    field(
      proj,
      'Project',
      "Only a server started with --no-auth reads it (with a key, the key's project is used). Empty: the server's default project.",
    ),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit' }, 'Save'),
      h(
        'button',
        {
          type: 'button',
          class: 'ghost',
          onclick: () => {
            remember(undefined, proj.value.trim() || undefined);
            onSaved();
          },
        },
        'Forget the key',
      ),
    ),
  );
  replace(panel, form);
}

/** A short description of the connection for the header button. */
export function connectionLabel(): string {
  const k = apiKey();
  if (k) return `Key …${k.slice(-4)}`;
  return `No key · project ${project() ?? 'default'}`;
}
