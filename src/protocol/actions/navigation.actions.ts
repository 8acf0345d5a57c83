import { z } from 'zod';
import { defineEvent } from '../define-event';
import {
  GoBackEvent,
  GoForwardEvent,
  MAX_WAIT_SECONDS,
  NavigateToUrlEvent,
  RefreshEvent,
  SearchEvent,
  TargetId,
  WaitEvent,
} from '../events/navigation.events';
import { declareAction } from './declare-action';
import { NAVIGATES, READS } from './hints';
import { both, hostAndPath, quoted } from './words';

export const WaitForTextEvent = defineEvent('WaitForTextEvent', {
  payload: {
    target_id: TargetId,
    text: z.string().min(1),
    gone: z.boolean().default(false),
    timeout: z.number().min(0).max(MAX_WAIT_SECONDS).default(10).describe('s'),
  },
  result: z.strictObject({ target_id: z.string(), waited_ms: z.number() }),
  // The longest wait, and a second for the last look.
  timeoutMs: (MAX_WAIT_SECONDS + 1) * 1000,
  description: `Wait until a text is shown on the tab's page (its frames included), or with gone until it is shown no more, looking every 100 ms for at most timeout seconds (at most ${MAX_WAIT_SECONDS}); a text that does not come (or go) in time fails TIMEOUT. A new document while waiting is looked at too.`,
});

/** Moving a tab through the web: each loads a page, so the person's hold refuses them to programs. */
export const NAVIGATION_ACTIONS = [
  declareAction(NavigateToUrlEvent, {
    name: 'navigate',
    title: 'Open a URL',
    summary: 'Open a URL; then call state.',
    category: 'page',
    flowStep: 'navigate',
    hints: NAVIGATES,
    outcome: true,
    tabGate: 'act',
    loadsPage: true,
    changesPage: true,
    opensTab: true,
    risk: 'goes_to_url',
    panel: {
      label: 'Go to a URL',
      success: (_p, r) => `navigated to ${hostAndPath(r.url)}`,
      activity: (p) => {
        const where = hostAndPath(p.url === '' ? 'a page' : p.url);
        const tab = p.new_tab ? ' in a new tab' : '';
        return both(`navigating to ${where}${tab}`, `navigated to ${where}${tab}`);
      },
    },
    mcp: { slim: true, answer: 'navigation' },
  }),
  declareAction(GoBackEvent, {
    name: 'go_back',
    title: 'Go back',
    summary: "Go back in the tab's history.",
    category: 'page',
    flowStep: 'arrival',
    hints: NAVIGATES,
    outcome: true,
    tabGate: 'act',
    loadsPage: true,
    changesPage: true,
    risk: 'history_entry',
    panel: {
      label: 'Go back',
      success: (_p, r) => `went back to ${hostAndPath(r.url)}`,
      activity: () => both('going back', 'went back'),
    },
    mcp: { answer: 'navigation' },
  }),
  declareAction(GoForwardEvent, {
    name: 'go_forward',
    title: 'Go forward',
    summary: "Go forward in the tab's history.",
    category: 'page',
    // Rarely an agent's move (browser-use offers none); navigate does it, and every step pays for a tool.
    notForAgent: true,
    flowStep: 'arrival',
    hints: NAVIGATES,
    outcome: true,
    tabGate: 'act',
    loadsPage: true,
    changesPage: true,
    risk: 'history_entry',
    panel: {
      label: 'Go forward',
      success: (_p, r) => `went forward to ${hostAndPath(r.url)}`,
      activity: () => both('going forward', 'went forward'),
    },
    mcp: { answer: 'navigation' },
  }),
  declareAction(RefreshEvent, {
    name: 'refresh',
    title: 'Reload',
    summary: 'Reload the tab.',
    category: 'page',
    hints: { ...NAVIGATES, idempotent: true },
    outcome: true,
    tabGate: 'recover',
    loadsPage: true,
    changesPage: true,
    panel: {
      label: 'Reload the page',
      success: (_p, r) => `reloaded ${hostAndPath(r.url)}`,
      activity: () => both('reloading the page', 'reloaded the page'),
    },
    mcp: { answer: 'navigation' },
  }),
  declareAction(SearchEvent, {
    name: 'search',
    title: 'Web search',
    summary: 'Search the web.',
    category: 'page',
    hints: { ...NAVIGATES, idempotent: true },
    outcome: true,
    tabGate: 'act',
    loadsPage: true,
    changesPage: true,
    opensTab: true,
    risk: 'search_results',
    panel: {
      label: 'Search the web',
      success: (p) => `searched the web for ${quoted(p.query)}`,
      activity: (p) => both(`searching the web for ${quoted(p.query)}`, `searched the web for ${quoted(p.query)}`),
    },
    mcp: { answer: 'navigation' },
  }),
  declareAction(WaitForTextEvent, {
    name: 'wait_for_text',
    title: 'Wait for text',
    summary: 'Wait until a text shows (or, gone, leaves).',
    category: 'page',
    hints: READS,
    onlyReads: true,
    tabGate: 'read',
    // It has the whole page every step and wait; a program between its own calls needs this.
    notForAgent: true,
    panel: {
      label: 'Wait for a text',
      success: (p, r) => `${quoted(p.text)} ${p.gone ? 'went' : 'showed'} after ${(r.waited_ms / 1000).toFixed(1)} s`,
      activity: (p) =>
        p.gone
          ? both(`waiting for ${quoted(p.text)} to go`, `saw ${quoted(p.text)} go`)
          : both(`waiting for ${quoted(p.text)}`, `saw ${quoted(p.text)}`),
    },
  }),
  declareAction(WaitEvent, {
    name: 'wait',
    title: 'Wait',
    summary: 'Wait some seconds.',
    category: 'page',
    hints: READS,
    onlyReads: true,
    panel: {
      label: 'Wait',
      success: (_p, r) => `waited ${r.waited_seconds} s`,
      activity: (p) => both(`waiting ${p.seconds} s`, `waited ${p.seconds} s`),
    },
  }),
] as const;
