import { z } from 'zod';
import { defineEvent } from '../../bus/define-event';

export const SwitchTabEvent = defineEvent('SwitchTabEvent', {
  payload: {
    /** Null = the most recently opened tab. */
    target_id: z.string().nullable().default(null),
    /** Bring the tab to the front (default); false only moves the agent's focus. */
    activate: z.boolean().default(true),
  },
  result: z.string(),
  timeoutMs: 10_000,
});

export const CloseTabEvent = defineEvent('CloseTabEvent', {
  payload: { target_id: z.string() },
  result: z.void(),
  timeoutMs: 10_000,
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
