import { z } from 'zod';
import { CommandRequest, CommandResponseSchema, EventMessageSchema } from './commands';
import { NativeStatus } from './native-panel';
import { PersonQuestion } from './person-questions';

/**
 * What the side panel and the service worker say to each other over their runtime port. Both directions are zod discriminated unions, validated on receipt: the panel sends protocol
 * commands plus a few panel-only requests; the worker answers, and pushes the panel's live state
 * (status, timeline, settings) without being asked.
 */

// ---- the timeline --------------------------------------------------------------------------------

export const TimelineHandler = z.strictObject({
  handler: z.string(),
  status: z.enum(['started', 'completed', 'error']),
  result: z.unknown().optional(),
  error: z.strictObject({ code: z.string(), message: z.string() }).optional(),
  duration_ms: z.number().optional(),
});
export type TimelineHandler = z.infer<typeof TimelineHandler>;

/** One bus event as the timeline keeps it: secrets redacted, large values cut. */
export const TimelineEvent = z.strictObject({
  kind: z.literal('event'),
  id: z.string(),
  type: z.string(),
  parent_id: z.string().nullable(),
  source: z.string().nullable(),
  /** `interrupted`: the worker stopped before the event completed. */
  status: z.enum(['queued', 'started', 'completed', 'interrupted']),
  created_at: z.number(),
  completed_at: z.number().nullable(),
  payload: z.unknown(),
  handlers: z.array(TimelineHandler),
});
export type TimelineEvent = z.infer<typeof TimelineEvent>;

/** Something the extension itself says in the timeline: a worker start, an emergency stop, a Cancel. */
export const TimelineNote = z.strictObject({
  kind: z.literal('note'),
  id: z.string(),
  created_at: z.number(),
  level: z.enum(['info', 'warn', 'error']),
  source: z.string().nullable(),
  text: z.string(),
});
export type TimelineNote = z.infer<typeof TimelineNote>;

export const TimelineEntry = z.discriminatedUnion('kind', [TimelineEvent, TimelineNote]);
export type TimelineEntry = z.infer<typeof TimelineEntry>;

// ---- the worker's state, as the panel shows it ----------------------------------------------------

export const PanelTab = z.strictObject({
  tab_id: z.string(),
  /** The bus's id for the tab, which the timeline's payloads name (so the panel can say which tab an event acts in). */
  target_id: z.string(),
  url: z.string(),
  title: z.string(),
  focused: z.boolean(),
  /** The browser window the tab is in (the side panel belongs to one window). */
  window_id: z.number().nullable(),
  /** What the guard watchdogs say of the tab: ok, crashed, unresponsive, needs_person (a challenge), solving. */
  status: z.enum(['ok', 'crashed', 'unresponsive', 'needs_person', 'solving']),
  status_reason: z.string().nullable(),
  /** The client that holds the tab (a native or MCP client's lease), or null: anyone may act in it. */
  owner: z.string().nullable(),
});
export type PanelTab = z.infer<typeof PanelTab>;

export const PanelStatus = z.strictObject({
  /** At least one tab has tabpilot's debugger attached. */
  attached: z.boolean(),
  /** The person pressed Cancel on the debugging bar; nothing re-attaches until they attach again. */
  user_cancelled: z.boolean(),
  /** Someone pressed Stop (the panel's, the keyboard's, a tab's in-page one) and nothing is attached since. */
  stopped: z.boolean(),
  /**
   * Why every program (native, MCP client) is held back from attaching, navigating and opening tabs (the
   * person's Stop, their Cancel on the debugging bar), until the person presses Resume; null: no hold.
   */
  hold: z.string().nullable(),
  tabs: z.array(PanelTab),
  focused_tab_id: z.string().nullable(),
});
export type PanelStatus = z.infer<typeof PanelStatus>;

export const SettingsError = z.strictObject({ field: z.string(), message: z.string() });
export type SettingsError = z.infer<typeof SettingsError>;

/** Which providers the agent has an API key for; the worker never sends a key back. */
export const AgentKeysPresent = z.strictObject({ openai: z.boolean(), anthropic: z.boolean() });
export type AgentKeysPresent = z.infer<typeof AgentKeysPresent>;

// ---- panel -> worker -------------------------------------------------------------------------------

export const PanelToWorker = z.discriminatedUnion('type', [
  /**
   * Any protocol command; answered by a `response` with the same id. `lane: "run"` sends it on the panel's
   * second connection, for an agent run (or a rerun) that lasts minutes: a connection runs its requests in
   * order, so on the first one it would hold back every other request of the panel, Pause and Stop included.
   */
  z.strictObject({ type: z.literal('command'), request: CommandRequest, lane: z.literal('run').optional() }),
  /** Attach the active tab of the panel's own window; answered by a `response`. */
  z.strictObject({ type: z.literal('attach_window'), id: z.number(), window_id: z.number() }),
  /** The emergency stop button; answered by a `response`. */
  z.strictObject({ type: z.literal('emergency_stop'), id: z.number() }),
  /** The person's Resume after their Stop or Cancel: programs may attach and open tabs again; answered by a `response`. */
  z.strictObject({ type: z.literal('resume_clients'), id: z.number() }),
  /** Validated and applied by the worker; answered by `settings_result`. */
  z.strictObject({ type: z.literal('save_settings'), id: z.number(), config: z.unknown() }),
  z.strictObject({ type: z.literal('clear_timeline') }),
  /** Disconnect a native client: its connections close, its leases end, its approval is taken back. */
  z.strictObject({ type: z.literal('native_disconnect'), client: z.string() }),
  /**
   * The person's answer to a client waiting for approval: `remember` allows the program until revoked
   * (a key bound to its executable), `conn` answers one connection only (else every waiting one).
   */
  z.strictObject({
    type: z.literal('native_approval'),
    client: z.string(),
    allow: z.boolean(),
    remember: z.boolean().optional(),
    conn: z.string().optional(),
  }),
  /** The person's answer to a question a program put to them (person-questions.ts): allow once, or refuse. */
  z.strictObject({ type: z.literal('person_answer'), question_id: z.string(), allow: z.boolean() }),
  /** Bring a controlled tab (and its window) to the front for the person; not a bus command, so it works while actions wait. */
  z.strictObject({ type: z.literal('show_tab'), tab_id: z.string() }),
  /**
   * Save a flow the panel keeps as a file in the output folder: the flow JSON, or a Playwright Test file
   * (what `tabpilot flow export` writes); answered by a `response` with `{path}`, or INVALID_PARAMS when it
   * is not a flow.
   */
  z.strictObject({
    type: z.literal('export_flow'),
    id: z.number(),
    flow: z.unknown(),
    as: z.enum(['json', 'playwright']),
  }),
  /**
   * The agent's API key for a provider, kept in chrome.storage.local outside the config (null: forget it);
   * answered by a `response` with the same id.
   */
  z.strictObject({
    type: z.literal('save_agent_key'),
    id: z.number(),
    provider: z.enum(['openai', 'anthropic']),
    key: z.string().max(4096).nullable(),
  }),
]);
export type PanelToWorker = z.infer<typeof PanelToWorker>;

// ---- worker -> panel -------------------------------------------------------------------------------

export const WorkerToPanel = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('response'), response: CommandResponseSchema }),
  /** A bus event for a `subscribe` the panel made through the protocol. */
  z.strictObject({ type: z.literal('event'), message: EventMessageSchema }),
  z.strictObject({ type: z.literal('status'), status: PanelStatus }),
  z.strictObject({ type: z.literal('native'), native: NativeStatus }),
  z.strictObject({ type: z.literal('agent_keys'), keys: AgentKeysPresent }),
  /** Every question waiting for the person's answer (all of them, each time one comes or goes). */
  z.strictObject({ type: z.literal('person_questions'), questions: z.array(PersonQuestion) }),
  /**
   * `reset`: replace everything the panel has (on connect, after a clear); else add or update by id.
   * `dropped`: ids the worker let go of (its timeline is bounded), which the panel drops too.
   */
  z.strictObject({
    type: z.literal('timeline'),
    reset: z.boolean(),
    entries: z.array(TimelineEntry),
    dropped: z.array(z.string()).optional(),
  }),
  /** The config in force (secrets included: the form masks them). */
  z.strictObject({ type: z.literal('settings'), config: z.record(z.string(), z.unknown()) }),
  z.strictObject({
    type: z.literal('settings_result'),
    id: z.number(),
    ok: z.boolean(),
    error: SettingsError.optional(),
  }),
]);
export type WorkerToPanel = z.infer<typeof WorkerToPanel>;
