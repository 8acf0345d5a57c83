import { LoadStorageStateEvent, SaveStorageStateEvent } from '../events/artifacts.events';
import { BrowserStopEvent } from '../events/lifecycle.events';
import { AttachTabEvent, CloseTabEvent, ListTabsEvent, ReleaseTabEvent, SwitchTabEvent } from '../events/tabs.events';
import { declareAction } from './declare-action';
import { MOVES, READS, SETS } from './hints';
import { both, count, quoted } from './words';

/** The tabs a client works in, the emergency stop, and the browser's cookies and storage. */
export const TAB_ACTIONS = [
  declareAction(ListTabsEvent, {
    name: 'tabs',
    title: 'List tabs',
    summary: 'List the controlled tabs (all: every tab, to attach one).',
    category: 'tabs',
    hints: READS,
    onlyReads: true,
    lease: 'list',
    panel: {
      label: 'List the tabs',
      success: (_p, r) => `${count(r.tabs.length, 'tab')} controlled`,
      activity: () => both('listing the tabs', 'listed the tabs'),
    },
    mcp: { answer: 'tab_list' },
  }),
  declareAction(SwitchTabEvent, {
    name: 'switch',
    title: 'Switch tab',
    summary: 'Focus a tab: the one tools act on when not given tab_id.',
    category: 'tabs',
    flowStep: 'switch_tab',
    hints: SETS,
    tabRequired: true,
    loadsPage: true,
    changesPage: true,
    lease: 'take',
    panel: {
      label: 'Switch to a tab',
      success: (_p, r) => `switched to ${quoted(r.url)}`,
      activity: () => both('switching tabs', 'switched tabs'),
    },
  }),
  declareAction(CloseTabEvent, {
    name: 'close',
    title: 'Close tab',
    summary: 'Close a tab.',
    category: 'tabs',
    hints: { ...MOVES, destructive: true },
    tabRequired: true,
    changesPage: true,
    panel: {
      label: 'Close a tab',
      success: () => 'closed the tab',
      activity: () => both('closing a tab', 'closed a tab'),
    },
  }),
  declareAction(AttachTabEvent, {
    name: 'attach',
    notForAgent: true,
    title: 'Attach a tab',
    summary: 'Take control of a tab.',
    category: 'tabs',
    hints: SETS,
    loadsPage: true,
    lease: 'attach',
    panel: {
      label: 'Take control of a tab',
      success: (_p, r) => `attached ${quoted(r.title)}`,
      activity: () => both('attaching a tab', 'attached a tab'),
    },
  }),
  // Releasing what is released already changes nothing.
  declareAction(ReleaseTabEvent, {
    name: 'release',
    notForAgent: true,
    title: 'Release tabs',
    summary: 'Let go of a tab, or of every tab.',
    category: 'tabs',
    hints: SETS,
    lease: 'release',
    panel: {
      label: 'Let go of a tab',
      success: (_p, r) => `released ${count(r.released_tab_ids.length, 'tab')}`,
      activity: (p) =>
        p.target_id === undefined
          ? both('releasing every tab', 'released every tab')
          : both('releasing a tab', 'released a tab'),
    },
  }),
  declareAction(BrowserStopEvent, {
    name: 'stop',
    notForAgent: true,
    title: 'Emergency stop',
    summary: 'Cancel all work, detach everything.',
    category: 'session',
    hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
    preempt: true,
    personOnly: 'extension',
    panel: {
      label: 'Stop everything',
      success: () => 'stopped',
      activity: () => both('stopping', 'stopped'),
    },
  }),
  // The browser's cookies and every controlled tab's localStorage, not one tab: past the tab gate (the
  // watchdog leaves crashed and stuck pages alone itself).
  declareAction(SaveStorageStateEvent, {
    name: 'save_storage_state',
    title: 'Save session',
    summary: 'As a Playwright storageState file.',
    category: 'session',
    hints: SETS,
    notForAgent: true,
    personPower: 'export_storage',
    panel: {
      label: 'Save cookies and storage',
      success: (_p, r) =>
        `saved ${count(r.cookies_count, 'cookie')} and the storage of ${count(r.origins_count, 'origin')} to ${r.path}`,
      activity: () => both('saving cookies and storage', 'saved cookies and storage'),
    },
  }),
  declareAction(LoadStorageStateEvent, {
    name: 'load_storage_state',
    title: 'Load session',
    summary: 'From a Playwright storageState.',
    category: 'session',
    hints: { ...SETS, destructive: true },
    notForAgent: true,
    personPower: 'import_storage',
    panel: {
      label: 'Load cookies and storage',
      success: (_p, r) =>
        `loaded ${count(r.cookies_count, 'cookie')} and the storage of ${count(r.origins_count, 'origin')} from ${r.path}`,
      activity: () => both('loading cookies and storage', 'loaded cookies and storage'),
    },
  }),
] as const;
