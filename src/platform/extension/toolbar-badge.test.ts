import { describe, expect, it } from 'vitest';
import type { PanelStatus, PanelTab } from '../../protocol/panel-messages';
import { badgeFor, showBadge, type ToolbarAction } from './toolbar-badge';

function tab(overrides: Partial<PanelTab> = {}): PanelTab {
  return {
    tab_id: 'ab12',
    target_id: 'T1',
    url: 'https://a.test/',
    title: 'A',
    focused: true,
    window_id: 1,
    status: 'ok',
    status_reason: null,
    owner: null,
    ...overrides,
  };
}

function status(tabs: PanelTab[], userCancelled = false, stopped = false): PanelStatus {
  return { attached: tabs.length > 0, user_cancelled: userCancelled, stopped, hold: null, tabs, focused_tab_id: null };
}

describe('toolbar badge', () => {
  it('shows idle, the number of controlled tabs, a tab that needs you first, and a Cancel on the debugging bar', () => {
    expect(badgeFor(status([]))).toMatchObject({ state: 'idle', text: '' });
    expect(badgeFor(status([tab(), tab({ tab_id: 'cd34' })]))).toMatchObject({
      state: 'controlling',
      text: '2',
      title: 'tabpilot: controlling 2 tabs',
    });
    expect(badgeFor(status([tab(), tab({ status: 'needs_person', title: 'Login' })]))).toMatchObject({
      state: 'needs_you',
      text: '!',
      title: 'tabpilot: a tab needs you (Login)',
    });
    expect(badgeFor(status([], true))).toMatchObject({ state: 'cancelled', text: 'off' });
    expect(badgeFor(status([], false, true))).toMatchObject({
      state: 'stopped',
      text: 'stop',
      title: 'tabpilot: stopped, every tab let go; attach a tab to start again',
    });
  });

  it('sets the text, colour and title on the action', async () => {
    const calls: string[] = [];
    const action: ToolbarAction = {
      setBadgeText: ({ text }) => Promise.resolve(void calls.push(`text ${text}`)),
      setBadgeBackgroundColor: ({ color }) => Promise.resolve(void calls.push(`color ${color}`)),
      setTitle: ({ title }) => Promise.resolve(void calls.push(`title ${title}`)),
    };
    await showBadge(action, status([tab()]));
    expect(calls.sort()).toEqual(['color #0b57d0', 'text 1', 'title tabpilot: controlling 1 tab']);
  });
});
