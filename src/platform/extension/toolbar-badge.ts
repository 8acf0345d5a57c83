import type { PanelStatus } from '../../protocol/panel-messages';

/** chrome.action, reduced to what the badge uses. */
export interface ToolbarAction {
  setBadgeText(details: { text: string }): Promise<void>;
  setBadgeBackgroundColor(details: { color: string }): Promise<void>;
  setTitle(details: { title: string }): Promise<void>;
}

export interface BadgeLook {
  /** idle, controlling (N tabs), needs_you (a tab waits for the person or is broken), cancelled, stopped. */
  state: 'idle' | 'controlling' | 'needs_you' | 'cancelled' | 'stopped';
  text: string;
  color: string;
  title: string;
}

const BLUE = '#0b57d0';
const AMBER = '#b35900';
const GREY = '#5f6368';
const RED = '#b3261e';

/** What the toolbar button shows for a status: the state at a glance, without opening the panel. */
export function badgeFor(status: PanelStatus): BadgeLook {
  const flagged = status.tabs.filter((tab) => tab.status !== 'ok');
  if (flagged.length > 0) {
    const names = flagged.map((tab) => tab.title || tab.url).join(', ');
    return { state: 'needs_you', text: '!', color: AMBER, title: `tabpilot: a tab needs you (${names})` };
  }
  if (status.user_cancelled && status.tabs.length === 0) {
    return {
      state: 'cancelled',
      text: 'off',
      color: GREY,
      title: "tabpilot: stopped from Chrome's debugging bar; attach a tab to start again",
    };
  }
  if (status.stopped && status.tabs.length === 0) {
    return {
      state: 'stopped',
      text: 'stop',
      color: RED,
      title: 'tabpilot: stopped, every tab let go; attach a tab to start again',
    };
  }
  const count = status.tabs.length;
  if (count === 0) {
    return { state: 'idle', text: '', color: GREY, title: 'tabpilot: idle, no tab controlled' };
  }
  return {
    state: 'controlling',
    text: String(count),
    color: BLUE,
    title: `tabpilot: controlling ${count} tab${count === 1 ? '' : 's'}`,
  };
}

/** Shows the status on the toolbar button. */
export async function showBadge(action: ToolbarAction, status: PanelStatus): Promise<void> {
  const look = badgeFor(status);
  await Promise.all([
    action.setBadgeText({ text: look.text }),
    action.setBadgeBackgroundColor({ color: look.color }),
    action.setTitle({ title: look.title }),
  ]);
}
