// A modal confirmation (<dialog>: focus moves into it and Escape cancels) for what cannot be undone.
// With `typed`, the confirm button stays disabled until the user types that exact text.
import { h } from './dom.js';

export function confirmDialog(title: string, body: string, action: string, typed?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const input = typed ? h('input', { id: 'confirm-typed', autocomplete: 'off', spellcheck: 'false' }) : undefined;
    const ok = h('button', { type: 'submit', class: 'danger', value: 'ok', disabled: typed !== undefined }, action);
    input?.addEventListener('input', () => {
      ok.disabled = input.value !== typed;
    });
    const dialog = h(
      'dialog',
      { 'aria-labelledby': 'confirm-title' },
      h(
        'form',
        { method: 'dialog' },
        h('h2', { id: 'confirm-title' }, title),
        h('p', {}, body),
        input ? [h('label', { for: 'confirm-typed' }, 'Type ', h('code', {}, typed ?? ''), ' to confirm'), input] : null,
        h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'ghost', value: 'cancel', autofocus: true }, 'Cancel'), ok),
      ),
    );
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(dialog.returnValue === 'ok');
    });
    document.body.append(dialog);
    dialog.showModal();
    input?.focus();
  });
}
