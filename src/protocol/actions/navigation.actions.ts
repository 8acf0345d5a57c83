import {
  GoBackEvent,
  GoForwardEvent,
  NavigateToUrlEvent,
  RefreshEvent,
  SearchEvent,
  WaitEvent,
} from '../events/navigation.events';
import { declareAction } from './declare-action';
import { NAVIGATES, READS } from './hints';
import { both, hostAndPath, quoted } from './words';

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
