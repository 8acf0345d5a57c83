/**
 * The attributes shown to the model for an element (browser-use's allow list, with href added: without
 * it a model cannot tell links apart; and download). Form controls show their live state (the typed
 * value, checked, the selected option), never a password's value.
 */
import { isToggle } from './semantics';

const SHOWN = [
  'id',
  'name',
  'type',
  'role',
  'href',
  // A link that downloads says so: the model knows what a click brings, and the click waits for the file.
  'download',
  'title',
  'alt',
  'placeholder',
  'aria-label',
  'aria-expanded',
  'aria-checked',
  'aria-selected',
  'aria-pressed',
  'aria-haspopup',
  'aria-valuenow',
  'aria-valuemin',
  'aria-valuemax',
  'aria-valuetext',
  'aria-current',
  'aria-autocomplete',
  'data-state',
  'pattern',
  'min',
  'max',
  'minlength',
  'maxlength',
  'step',
  'accept',
  'multiple',
  'inputmode',
  'autocomplete',
  'list',
  'contenteditable',
  'required',
  'readonly',
];

/** Present-or-absent attributes: `required=''` reads as true. */
const BOOLEAN = new Set(['required', 'readonly', 'multiple', 'contenteditable', 'download']);
const MAX_VALUE = 100;
const DATE_FORMATS: Record<string, string> = {
  date: 'YYYY-MM-DD',
  time: 'HH:MM',
  'datetime-local': 'YYYY-MM-DDTHH:MM',
  month: 'YYYY-MM',
  week: 'YYYY-W##',
};

function cap(value: string): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_VALUE ? `${flat.slice(0, MAX_VALUE)}...` : flat;
}

/** Links print their path when they stay on this origin, the full URL otherwise. */
function shortHref(element: Element): string | null {
  const raw = element.getAttribute('href');
  if (raw === null) {
    return null;
  }
  try {
    const url = new URL(raw, element.ownerDocument.baseURI);
    if (url.origin === element.ownerDocument.location?.origin) {
      return `${url.pathname}${url.search}${url.hash}`;
    }
    return url.href;
  } catch {
    // Not a URL (javascript:, a template placeholder): show what the page wrote.
    return raw;
  }
}

function selectSummary(select: HTMLSelectElement, out: Array<[string, string]>): void {
  const chosen = select.selectedOptions[0];
  if (chosen !== undefined) {
    out.push(['value', cap(chosen.text)]);
  }
  const options = Array.from(select.options);
  const first = options.slice(0, 4).map((option) => cap(option.text).slice(0, 30));
  const more = options.length > 4 ? ` (+${options.length - 4} more)` : '';
  out.push(['options', `${first.join('|')}${more}`]);
}

export function attributesFor(element: Element, tag: string, role: string | null): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  // Most elements carry a few attributes: asking for those names once is cheaper than 35 lookups.
  const present = element.getAttributeNames();
  for (const name of present.length === 0 ? [] : SHOWN) {
    if (!present.includes(name)) {
      continue;
    }
    const raw = name === 'href' ? shortHref(element) : element.getAttribute(name);
    if (raw === null) {
      continue;
    }
    if (
      (name === 'type' && (raw === tag || (tag === 'input' && raw === 'text'))) ||
      (name === 'role' && raw === role && tag !== 'div' && tag !== 'span')
    ) {
      continue;
    }
    if (name === 'autocomplete' && (raw === 'off' || raw === 'on')) {
      continue;
    }
    out.push([name, raw === '' && BOOLEAN.has(name) ? 'true' : cap(raw)]);
  }
  if (tag === 'input' || tag === 'textarea') {
    const input = element as HTMLInputElement;
    if (input.type === 'checkbox' || input.type === 'radio') {
      out.push(['checked', String(input.checked)]);
    } else if (input.type !== 'password' && input.type !== 'file' && input.value !== '') {
      out.push(['value', cap(input.value)]);
    }
    const format = DATE_FORMATS[input.type];
    if (format !== undefined) {
      out.push(['format', format]);
    }
    if (input.type === 'file' && input.files !== null && input.files.length > 0) {
      out.push(['files', cap(Array.from(input.files, (file) => file.name).join(', '))]);
    }
  } else if (tag === 'select') {
    selectSummary(element as HTMLSelectElement, out);
  } else if (tag === 'details') {
    out.push(['open', String((element as HTMLDetailsElement).open)]);
  } else if (tag === 'label') {
    // A label printed stands in for a hidden checkbox or radio: its state is the control's.
    const control = (element as HTMLLabelElement).control;
    if (isToggle(control)) {
      out.push(['checked', String(control.checked)]);
    }
  }
  return out;
}
