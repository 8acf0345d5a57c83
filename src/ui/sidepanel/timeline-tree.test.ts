import { describe, expect, it } from 'vitest';
import type { TimelineEntry } from '../../protocol/panel-messages';
import { buildTree, durationOf, filterTree, NO_FILTER, sourcesOf, toJsonLines } from './timeline-tree';

function event(id: string, type: string, parent: string | null, source: string, failed = false): TimelineEntry {
  return {
    kind: 'event',
    id,
    type,
    parent_id: parent,
    source,
    status: 'completed',
    created_at: 1000,
    completed_at: 1042,
    payload: { id },
    handlers: [
      failed
        ? { handler: `on_${type}`, status: 'error', error: { code: 'TIMEOUT', message: 'too slow' } }
        : { handler: `on_${type}`, status: 'completed', duration_ms: 3 },
    ],
  };
}

const entries: TimelineEntry[] = [
  event('a', 'NavigateToUrlEvent', null, 'panel:x1'),
  event('b', 'NavigationStartedEvent', 'a', 'panel:x1'),
  event('c', 'NavigationCompleteEvent', 'a', 'panel:x1', true),
  event('d', 'TabCreatedEvent', null, 'browser'),
  event('e', 'OrphanEvent', 'evicted', 'session'),
  {
    kind: 'note',
    id: 'n',
    created_at: 2000,
    level: 'warn',
    source: 'extension',
    text: 'Emergency stop (panel button)',
  },
];

describe('timeline tree', () => {
  it('puts each event under its parent; orphans and notes are roots', () => {
    const tree = buildTree(entries);
    expect(tree.map((node) => node.entry.id)).toEqual(['a', 'd', 'e', 'n']);
    expect(tree[0]?.children.map((node) => node.entry.id)).toEqual(['b', 'c']);
  });

  it('filters by text, source kind and errors, keeping the lineage of a match', () => {
    const tree = buildTree(entries);
    expect(filterTree(tree, NO_FILTER)).toHaveLength(4);
    const complete = filterTree(tree, { text: 'navigationcomplete', source: '', errorsOnly: false });
    expect(complete.map((node) => node.entry.id)).toEqual(['a']);
    expect(complete[0]?.children.map((node) => node.entry.id)).toEqual(['c']);
    expect(filterTree(tree, { text: '', source: 'browser', errorsOnly: false }).map((node) => node.entry.id)).toEqual([
      'd',
    ]);
    const errors = filterTree(tree, { text: '', source: '', errorsOnly: true });
    expect(errors.map((node) => node.entry.id)).toEqual(['a']);
    expect(errors[0]?.children.map((node) => node.entry.id)).toEqual(['c']);
    expect(filterTree(tree, { text: 'emergency', source: '', errorsOnly: false }).map((node) => node.entry.id)).toEqual(
      ['n'],
    );
  });

  it('lists source kinds, durations, and exports one JSON entry per line', () => {
    expect(sourcesOf(entries)).toEqual(['browser', 'extension', 'panel', 'session']);
    expect(durationOf(entries[0] as TimelineEntry)).toBe(42);
    const lines = toJsonLines(entries).trimEnd().split('\n');
    expect(lines).toHaveLength(entries.length);
    expect(lines.map((line) => (JSON.parse(line) as { id: string }).id)).toEqual(['a', 'b', 'c', 'd', 'e', 'n']);
    expect(toJsonLines([])).toBe('');
  });
});
