import { z } from 'zod';
import { defineEvent } from '../define-event';
import { TabStatusSchema } from './state.events';

/** A tab as `tabs` lists it. */
export const TabInfo = z.strictObject({
  target_id: z.string(),
  url: z.string(),
  title: z.string(),
  /** The tab the agent works in. */
  focused: z.boolean(),
  /** Under tabpilot's control (always true where tabpilot owns the browser). */
  controlled: z.boolean(),
  /** What the guard watchdogs say of the tab (ok, crashed, unresponsive, needs_person, solving), and why. */
  status: TabStatusSchema,
  status_reason: z.string().nullable(),
});
export type TabInfo = z.infer<typeof TabInfo>;

export const ListTabsEvent = defineEvent('ListTabsEvent', {
  payload: {
    all: z.boolean().default(false).meta({
      details: 'Also the tabs tabpilot does not control (extension), to attach one; native clients only when allowed',
    }),
  },
  result: z.strictObject({ tabs: z.array(TabInfo), focused_target_id: z.string().nullable() }),
  timeoutMs: 10_000,
  // Answers with nothing attached too: that is when a client looks for a tab to attach.
  lifecycle: true,
  description: 'List the controlled tabs; with all, also the other tabs of the browser (to attach one).',
});

export const SwitchTabEvent = defineEvent('SwitchTabEvent', {
  payload: {
    /** Null = the most recently opened tab. */
    target_id: z.string().nullable().default(null),
    activate: z.boolean().default(true).meta({ details: 'Also bring it to the front' }),
  },
  result: z.strictObject({ target_id: z.string(), url: z.string() }),
  timeoutMs: 10_000,
  description: 'Make a tab the one the agent works in.',
});

export const CloseTabEvent = defineEvent('CloseTabEvent', {
  payload: { target_id: z.string() },
  result: z.strictObject({ closed_target_id: z.string(), focused_target_id: z.string().nullable() }),
  timeoutMs: 10_000,
  description: 'Close a tab; focus moves to another controlled tab.',
});

/**
 * Takes control of a tab. It names the tab by its protocol `tab_id` (not a target id): the tab may be
 * one tabpilot does not control yet, listed by `tabs {all: true}`, perhaps before a worker restart.
 */
export const AttachTabEvent = defineEvent('AttachTabEvent', {
  payload: {
    tab_id: z.string().min(1).max(64).optional().describe('From tabs {all: true}').meta({
      details: 'A tab id from "tabs {all: true}"; default the active tab (extension) or the focused one (Node)',
    }),
  },
  result: TabInfo,
  timeoutMs: 30_000,
  // Connects first when nothing is attached (after a stop, before a start).
  lifecycle: true,
  description:
    'Take control of a tab (extension: the given or the active tab; Node: connect, and focus the given tab).',
});

export const ReleaseTabEvent = defineEvent('ReleaseTabEvent', {
  payload: { target_id: z.string().optional().describe('One tab to let go; default every tab') },
  result: z.strictObject({ released_target_ids: z.array(z.string()) }),
  timeoutMs: 15_000,
  description: 'Let go of a tab, or of every tab (Node: of the browser, which keeps running).',
});

/** A page target appeared: opened by tabpilot, by the page (window.open, target=_blank) or attached. */
export const TabCreatedEvent = defineEvent('TabCreatedEvent', {
  payload: {
    target_id: z.string(),
    url: z.string(),
    opener_target_id: z.string().nullable().default(null),
  },
  result: z.void(),
  timeoutMs: 30_000,
});

/**
 * A client let go of its tabs while tabpilot keeps them (a client's release where tabpilot owns the
 * browser, the person disconnecting a client): what the client set on them is undone. A release that
 * lets the tab go altogether is the ReleaseTabEvent.
 */
export const TabLeaseEndedEvent = defineEvent('TabLeaseEndedEvent', {
  payload: { target_ids: z.array(z.string()), client: z.string() },
  result: z.void(),
  timeoutMs: 10_000,
});

export const TabClosedEvent = defineEvent('TabClosedEvent', {
  payload: { target_id: z.string() },
  result: z.void(),
  timeoutMs: 3_000,
});

/** The page the agent works in changed; null when no tab is controlled any more (extension). */
export const AgentFocusChangedEvent = defineEvent('AgentFocusChangedEvent', {
  payload: { target_id: z.string().nullable(), url: z.string() },
  result: z.void(),
  timeoutMs: 10_000,
});

export const TargetCrashedEvent = defineEvent('TargetCrashedEvent', {
  payload: { target_id: z.string(), error: z.string() },
  result: z.void(),
  timeoutMs: 10_000,
});
