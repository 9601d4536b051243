// Copying text: the Clipboard API where the page may use it (a secure context: https or localhost),
// else a selected off-screen textarea and the copy command, which plain-http pages still allow.
import { announce, h } from './dom.js';

/** Copies `text`; resolves with whether it worked, which is also announced. */
export async function copyText(text: string, what: string): Promise<boolean> {
  let done = false;
  if (window.isSecureContext && navigator.clipboard)
    done = await navigator.clipboard.writeText(text).then(
      () => true,
      () => false,
    );
  if (!done) {
    const area = h('textarea', { class: 'offscreen', readonly: true, 'aria-hidden': 'true' });
    area.value = text;
    document.body.append(area);
    area.select();
    done = document.execCommand('copy');
    area.remove();
  }
  announce(done ? `${what} copied` : `${what} could not be copied: select it and copy it by hand`);
  return done;
}

/** A button that copies what `text()` gives, and says so. */
export function copyButton(label: string, what: string, text: () => string): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'ghost' }, label);
  button.addEventListener('click', async () => {
    button.textContent = (await copyText(text(), what)) ? 'Copied' : 'Copy failed';
    setTimeout(() => {
      button.textContent = label;
    }, 1500);
  });
  return button;
}
