// A form field: its label, the control, and a line of help that describes the control (its id is
// the control's with `-help`, set as the control's aria-describedby here).
import { h } from './dom.js';

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

export function field(control: Control, label: string, help: string, cls = 'field'): HTMLElement {
  control.setAttribute('aria-describedby', `${control.id}-help`);
  return h(
    'div',
    { class: cls },
    h('label', { for: control.id }, label),
    control,
    h('p', { id: `${control.id}-help`, class: 'help' }, help),
  );
}
