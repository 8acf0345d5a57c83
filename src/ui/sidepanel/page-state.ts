import type { ActionName } from '../../protocol/actions';
import { z } from 'zod';
import { ElementSummary } from '../../protocol/events/state.events';
import { fieldOf } from '../../shared/narrow';

/**
 * What the page view reads from the `state` action's result, and all it keeps of it: the declared
 * element's fields it shows, unknown fields stripped (the text alone can be megabytes the view never shows).
 */
const PageElement = z
  .object(ElementSummary.pick({ index: true, tag: true, role: true, name: true, attributes: true, box: true }).shape)
  .partial({ role: true, name: true, attributes: true, box: true });
export type PageElement = z.infer<typeof PageElement>;

const PageState = z.object({
  url: z.string(),
  title: z.string(),
  screenshot: z.string().nullable().optional(),
  elements: z.array(PageElement).optional(),
  page_info: z
    .object({
      viewport_width: z.number(),
      viewport_height: z.number(),
      pixels_above: z.number(),
      pixels_below: z.number(),
    })
    .optional(),
});
export type PageState = z.infer<typeof PageState>;

export function parsePageState(result: unknown): PageState | undefined {
  const parsed = PageState.safeParse(result);
  return parsed.success ? parsed.data : undefined;
}

/** The element actions the page view offers, each a protocol action. */
export type ElementActionName = Extract<ActionName, 'click' | 'input' | 'select_dropdown' | 'upload_file'>;

const TEXT_INPUT_TYPES = new Set(['', 'text', 'search', 'email', 'password', 'tel', 'url', 'number', 'date', 'time']);
const TEXT_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);

/** The actions that fit an element: every element can be clicked; fields typed in; selects chosen from. */
export function actionsFor(element: PageElement): ElementActionName[] {
  const tag = element.tag.toLowerCase();
  const type = (element.attributes?.['type'] ?? '').toLowerCase();
  const role = (element.role ?? '').toLowerCase();
  const actions: ElementActionName[] = ['click'];
  if (tag === 'input' && type === 'file') {
    actions.push('upload_file');
    return actions;
  }
  if (tag === 'select') {
    actions.push('select_dropdown');
    return actions;
  }
  const editable = element.attributes?.['contenteditable'];
  if (
    (tag === 'input' && TEXT_INPUT_TYPES.has(type)) ||
    tag === 'textarea' ||
    TEXT_ROLES.has(role) ||
    (editable !== undefined && editable !== 'false')
  ) {
    actions.push('input');
  }
  if (tag === 'select' || role === 'listbox' || role === 'combobox') {
    actions.push('select_dropdown');
  }
  return actions;
}

/** The element as one line: its tag, role and accessible name. */
export function describeElement(element: PageElement): string {
  const role =
    element.role !== null && element.role !== undefined && element.role !== element.tag ? ` ${element.role}` : '';
  const name = element.name !== undefined && element.name !== '' ? ` "${element.name}"` : '';
  return `<${element.tag}>${role}${name}`;
}

/** A data: URL for a base64 screenshot, JPEG or PNG. */
export function screenshotUrl(data: string): string {
  return `data:image/${data.startsWith('/9j/') ? 'jpeg' : 'png'};base64,${data}`;
}

/** The option texts in a `dropdown_options` result: `{options: [...]}` of strings or of `{text}`. */
export function optionTexts(result: unknown): string[] {
  const list = fieldOf(result, 'options');
  if (!Array.isArray(list)) {
    return [];
  }
  return list.flatMap((item: unknown) => {
    if (typeof item === 'string') {
      return [item];
    }
    const text = fieldOf(item, 'text') ?? fieldOf(item, 'label');
    return typeof text === 'string' ? [text] : [];
  });
}

/** An element's current value or checked state in words, as the page has it now; empty when it has none. */
export function elementState(element: PageElement): string {
  const attributes = element.attributes ?? {};
  const parts: string[] = [];
  if (attributes['checked'] !== undefined) {
    parts.push(attributes['checked'] === 'true' ? 'checked' : 'not checked');
  }
  if (attributes['value'] !== undefined) {
    parts.push(`value "${attributes['value']}"`);
  }
  if (attributes['files'] !== undefined) {
    parts.push(`files ${attributes['files']}`);
  }
  if (attributes['disabled'] === 'true') {
    parts.push('disabled');
  }
  return parts.join(', ');
}

/** Whether an element matches the filter text: its index, tag, role, name, state or attributes. */
export function matchesFilter(element: PageElement, filter: string): boolean {
  const wanted = filter.trim().toLowerCase();
  if (wanted === '') {
    return true;
  }
  const haystack = [
    `[${element.index}]`,
    describeElement(element),
    elementState(element),
    ...Object.entries(element.attributes ?? {}).map(([key, value]) => `${key}=${value}`),
  ]
    .join(' ')
    .toLowerCase();
  return haystack.includes(wanted);
}

/** How much of the page the elements cover, in words: what is shown and where the rest is. */
export function coverageLine(page: PageState, shown: number, wholePage: boolean): string {
  const total = page.elements?.length ?? 0;
  const count = shown === total ? `${total} elements shown` : `${shown} of ${total} elements shown`;
  if (wholePage) {
    return `${count}, from the whole page`;
  }
  const below = Math.round(page.page_info?.pixels_below ?? 0);
  const above = Math.round(page.page_info?.pixels_above ?? 0);
  const rest = [above > 0 ? `${above} px above` : '', below > 0 ? `${below} px below` : ''].filter(Boolean);
  return rest.length === 0
    ? `${count}: the whole page is in view`
    : `${count}, near the view; the page goes on ${rest.join(' and ')}: read the whole page or scroll for more`;
}
