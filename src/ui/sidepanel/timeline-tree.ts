import type { TimelineEntry } from '../../protocol/panel-messages';

/** One timeline entry with the entries it caused (its children by lineage). */
export interface TimelineNode {
  readonly entry: TimelineEntry;
  readonly children: TimelineNode[];
}

export interface TimelineFilter {
  /** Case-insensitive text to find in the type, source, payload, results, errors or note. */
  readonly text: string;
  /** A source kind ("panel", "session", "browser", ...) or "" for all. */
  readonly source: string;
  readonly errorsOnly: boolean;
}

export const NO_FILTER: TimelineFilter = { text: '', source: '', errorsOnly: false };

/** Each event under its parent; entries whose parent is not (or no longer) recorded are roots. */
export function buildTree(entries: readonly TimelineEntry[]): TimelineNode[] {
  const nodes = new Map<string, TimelineNode>();
  for (const entry of entries) {
    nodes.set(entry.id, { entry, children: [] });
  }
  const roots: TimelineNode[] = [];
  for (const node of nodes.values()) {
    const parentId = node.entry.kind === 'event' ? node.entry.parent_id : null;
    const parent = parentId === null ? undefined : nodes.get(parentId);
    (parent === undefined ? roots : parent.children).push(node);
  }
  return roots;
}

/** "panel:x1y2" and "panel" are both the panel. */
export function sourceKind(source: string | null): string {
  return source === null ? 'unknown' : (source.split(':')[0] ?? source);
}

export function sourcesOf(entries: readonly TimelineEntry[]): string[] {
  return [...new Set(entries.map((entry) => sourceKind(entry.source)))].sort();
}

export function isFailure(entry: TimelineEntry): boolean {
  return entry.kind === 'event'
    ? entry.status === 'interrupted' || entry.handlers.some((handler) => handler.status === 'error')
    : entry.level === 'error';
}

export function matches(entry: TimelineEntry, filter: TimelineFilter): boolean {
  if (filter.source !== '' && sourceKind(entry.source) !== filter.source) {
    return false;
  }
  if (filter.errorsOnly && !isFailure(entry)) {
    return false;
  }
  const text = filter.text.trim().toLowerCase();
  return text === '' || JSON.stringify(entry).toLowerCase().includes(text);
}

/** Keeps a node when it or one of its descendants matches, so a match is shown with its lineage. */
export function filterTree(nodes: readonly TimelineNode[], filter: TimelineFilter): TimelineNode[] {
  if (filter.text.trim() === '' && filter.source === '' && !filter.errorsOnly) {
    return [...nodes];
  }
  const out: TimelineNode[] = [];
  for (const node of nodes) {
    const children = filterTree(node.children, filter);
    if (children.length > 0 || matches(node.entry, filter)) {
      out.push({ entry: node.entry, children });
    }
  }
  return out;
}

/** The whole time an event took, from creation to completion (its children included). */
export function durationOf(entry: TimelineEntry): number | null {
  return entry.kind === 'event' && entry.completed_at !== null ? entry.completed_at - entry.created_at : null;
}

/** The export format: one entry per line, oldest first. */
export function toJsonLines(entries: readonly TimelineEntry[]): string {
  return entries.map((entry) => JSON.stringify(entry)).join('\n') + (entries.length > 0 ? '\n' : '');
}
