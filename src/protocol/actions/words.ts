import type { Phrase } from './declare-action';

/**
 * The pieces the declarations' words are made of: "Clicked [6] "Go"", "navigated to example.com". An
 * answer is said for people; a value a handler may leave out reads as a fallback, never as "undefined".
 */

export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Text in quotes, cut to `max` characters. */
export function quoted(value: unknown, max = 40): string {
  const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  return `"${text.length > max ? `${text.slice(0, max - 1)}…` : text}"`;
}

/** `example.com/path` from a URL, or the text as given when it is not one. */
export function hostAndPath(url: string | null | undefined): string {
  if (url === null || url === undefined) {
    return '';
  }
  try {
    const parsed = new URL(url);
    if (parsed.host === '') {
      return url;
    }
    const path = parsed.pathname === '/' ? '' : parsed.pathname;
    return `${parsed.host}${path}`;
  } catch {
    // Not a URL (a bare host the worker completes with https://): say it as given.
    return url;
  }
}

interface Indexed {
  readonly index?: number | null | undefined;
}
interface Named {
  readonly index?: number | null | undefined;
  readonly element?: string | null | undefined;
}

/** `[6] "Create account"` when the element is named, or `unknown` when no index is known. */
function labelled(index: number | null | undefined, element: string | null | undefined, unknown: string): string {
  const label = typeof element === 'string' && element !== '' ? ` ${quoted(element)}` : '';
  return `${typeof index === 'number' ? `[${index}]` : unknown}${label}`;
}

/** In an answer: the result's index first (the one acted on), or "the element". */
export function elementOf(params: Indexed, result: Named): string {
  return labelled(result.index ?? params.index, result.element, 'the element');
}

/** In the timeline: the asked index first (the result may not be in yet), or "an element". */
export function elementAt(payload: Indexed, result: Named): string {
  return labelled(payload.index ?? result.index, result.element, 'an element');
}

export function characters(text: string | undefined): string {
  return count(text === undefined ? 0 : [...text].length, 'character');
}

export function both(doing: string, did: string): Phrase {
  return { doing, did };
}
