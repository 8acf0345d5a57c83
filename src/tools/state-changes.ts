import type { ElementSummary, StateChanges } from '../protocol/events/state.events';
import type { StateSummary } from './actions';

/** What a client's last state of a tab is remembered by: its page, and each element as it read. */
export interface StateSnapshot {
  /** The page's URL without its #hash: a hash change stays on the same document. */
  readonly page: string;
  readonly document: number;
  /** By index: the element's line as the text showed it, and what else a change shows in. */
  readonly elements: ReadonlyMap<number, ElementMark>;
}

export interface ElementMark {
  readonly line: string;
  readonly fields: string;
}

/** An element's line in the state text: `[12]<button /> Save`, its tabs and new-mark (`*`) left out. */
const INDEXED_LINE = /^\t*\*?(?:\|SHADOW\([^)]*\)\||\|IFRAME\||\|SCROLL[^|]*\|)*\[(\d+)\]</;

/**
 * The snapshot of a state to compare the next one with; null when there is nothing to compare (a
 * dialog, a failed or timed-out capture), so the next state is whole.
 */
export function snapshotOf(state: StateSummary): StateSnapshot | null {
  if (state.document === null || state.state_error !== null || state.open_dialog !== null) {
    return null;
  }
  const lines = linesByIndex(state.text);
  const elements = new Map<number, ElementMark>();
  for (const element of state.elements) {
    elements.set(element.index, {
      line: lines.get(element.index) ?? `[${element.index}]<${element.tag} /> ${element.name}`,
      fields: fieldsOf(element),
    });
  }
  return { page: withoutHash(state.url), document: state.document, elements };
}

/**
 * The changes from the client's last state of the tab to this one, or why there are none to give: no
 * earlier state, or another document (a navigation, a reload: its indexes start anew).
 */
export function changesBetween(before: StateSnapshot | undefined, now: StateSnapshot | null): StateChanges {
  const full = (reason: string): StateChanges => ({ full: true, reason, added: [], removed: [], changed: [] });
  if (now === null) {
    return full('this state has no page to compare');
  }
  if (before === undefined) {
    return full('no earlier state of this tab for this client');
  }
  if (before.page !== now.page || before.document !== now.document) {
    return full('the page was replaced: its indexes start anew');
  }
  const added: number[] = [];
  const changed: number[] = [];
  for (const [index, mark] of now.elements) {
    const was = before.elements.get(index);
    if (was === undefined) {
      added.push(index);
    } else if (was.line !== mark.line || was.fields !== mark.fields) {
      changed.push(index);
    }
  }
  const removed = [...before.elements.keys()].filter((index) => !now.elements.has(index));
  const ascending = (a: number, b: number): number => a - b;
  return {
    full: false,
    reason: null,
    added: added.sort(ascending),
    removed: removed.sort(ascending),
    changed: changed.sort(ascending),
  };
}

/** The changes as text: one line per added or changed element (as the state shows it), removed indexes on one line. */
export function changesText(changes: StateChanges, now: StateSnapshot): string {
  if (changes.added.length + changes.removed.length + changes.changed.length === 0) {
    return 'No change since your last state of this page.';
  }
  const lines = ['Changes since your last state of this page (the indexes stay valid):'];
  const lineOf = (index: number): string => now.elements.get(index)?.line ?? `[${index}]`;
  if (changes.added.length > 0) {
    lines.push('Added:', ...changes.added.map(lineOf));
  }
  if (changes.changed.length > 0) {
    lines.push('Changed:', ...changes.changed.map(lineOf));
  }
  if (changes.removed.length > 0) {
    lines.push(`Removed: ${changes.removed.join(' ')}`);
  }
  return lines.join('\n');
}

function linesByIndex(text: string): Map<number, string> {
  const lines = new Map<number, string>();
  for (const line of text.split('\n')) {
    const match = INDEXED_LINE.exec(line);
    if (match?.[1] !== undefined) {
      // The new-mark says "new since the previous state" of any client: not a change of the element.
      lines.set(Number(match[1]), line.replace(/^\t*\*?/, ''));
    }
  }
  return lines;
}

/** What a change shows in besides the line: the name and attributes (a value, checked), in a fixed order. */
function fieldsOf(element: ElementSummary): string {
  const attributes = Object.entries(element.attributes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([element.role, element.name, attributes]);
}

function withoutHash(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}
