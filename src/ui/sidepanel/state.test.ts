import { describe, expect, it } from 'vitest';
import type { TimelineEntry } from '../../protocol/panel-messages';
import { INITIAL_STATE, reduce } from './state';

function note(id: string): TimelineEntry {
  return { kind: 'note', id, created_at: 0, level: 'info', source: null, text: id };
}

describe('panel state', () => {
  it('drops the timeline entries the worker let go of, so a long session does not grow the panel', () => {
    let state = reduce(INITIAL_STATE, {
      type: 'push',
      message: { type: 'timeline', reset: true, entries: [note('a'), note('b')] },
    });
    state = reduce(state, {
      type: 'push',
      message: { type: 'timeline', reset: false, entries: [note('c')], dropped: ['a'] },
    });
    expect([...state.timeline.keys()]).toEqual(['b', 'c']);
  });
});
