import { describe, expect, it } from 'vitest';
import type { PanelStatus, TimelineEvent } from '../../protocol/panel-messages';
import { activityOf, clientName, lastClientIn, runningActions, timelineLine } from './activity';

const STATUS: PanelStatus = {
  attached: true,
  user_cancelled: false,
  stopped: false,
  hold: null,
  focused_tab_id: 'ab12',
  tabs: [
    {
      tab_id: 'ab12',
      target_id: 'T1',
      url: 'https://shop.test/checkout',
      title: 'Checkout',
      focused: true,
      window_id: 1,
      status: 'ok',
      status_reason: null,
      owner: null,
    },
  ],
};

function event(overrides: Partial<TimelineEvent>): TimelineEvent {
  return {
    kind: 'event',
    id: 'e1',
    type: 'ClickElementEvent',
    parent_id: null,
    source: 'native:claude-code',
    status: 'started',
    created_at: 1,
    completed_at: null,
    payload: { target_id: 'T1', index: 6 },
    handlers: [],
    ...overrides,
  };
}

describe('activity words', () => {
  it('names clients: a native client by its name, any panel as the panel, others by kind and id', () => {
    expect(clientName('native:claude-code')).toBe('claude-code');
    expect(clientName('panel:x1y2z3')).toBe('the panel');
    expect(clientName('mcp:cursor')).toBe('mcp:cursor');
    expect(clientName('browser')).toBe('browser');
    expect(clientName(null)).toBe('tabpilot');
  });

  it('says who does what in which tab while an action runs', () => {
    expect(activityOf(event({}), STATUS)?.sentence).toBe('claude-code is clicking [6] in tab "Checkout"');
    expect(
      activityOf(event({ type: 'TypeTextEvent', payload: { target_id: 'T1', index: 3, text: 'hello world!' } }), STATUS)
        ?.sentence,
    ).toBe('claude-code is typing 12 characters into [3] in tab "Checkout"');
    expect(activityOf(event({ type: 'NavigationStartedEvent' }), STATUS)).toBeUndefined();
  });

  it('writes timeline rows in the past once done, names the element from the result, and marks failures', () => {
    const done = event({
      status: 'completed',
      completed_at: 9,
      handlers: [
        { handler: 'h', status: 'completed', result: { target_id: 'T1', clicked: true, element: 'Create account' } },
      ],
    });
    expect(timelineLine(done, STATUS)).toBe('Clicked [6] "Create account" in tab "Checkout"');
    const failed = event({
      status: 'completed',
      completed_at: 9,
      handlers: [{ handler: 'h', status: 'error', error: { code: 'ELEMENT_NOT_FOUND', message: 'gone' } }],
    });
    expect(timelineLine(failed, STATUS)).toBe('Clicking [6] in tab "Checkout": failed');
    expect(timelineLine(event({ type: 'TabCreatedEvent', status: 'completed' }), STATUS)).toBe('Tab created');
    expect(
      timelineLine(
        event({ type: 'ScrollEvent', status: 'completed', payload: { target_id: 'T9', down: false } }),
        STATUS,
      ),
    ).toBe('Scrolled up');
  });

  it('lists only running actions, newest first, and finds who last acted in a tab', () => {
    const entries = [
      event({ id: 'a', source: 'panel:p1', status: 'completed' }),
      event({ id: 'b', type: 'WaitEvent', payload: { seconds: 5 } }),
      event({ id: 'c', type: 'NavigationStartedEvent', payload: { target_id: 'T1', url: 'x' } }),
      event({ id: 'd' }),
    ];
    expect(runningActions(entries, STATUS).map((activity) => activity.id)).toEqual(['d', 'b']);
    expect(lastClientIn(entries, 'T1')).toBe('claude-code');
    expect(lastClientIn(entries.slice(0, 1), 'T1')).toBe('the panel');
    expect(lastClientIn(entries, 'T2')).toBeUndefined();
  });
});
