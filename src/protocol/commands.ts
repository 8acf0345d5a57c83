import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../shared/errors';
import { ActionOutcome } from './outcome';

/**
 * The command protocol, spoken by the side panel, the native host, the Node CLI and the MCP
 * server alike. Field names are snake_case; a tab is named by `tab_id`.
 *
 *   request   {"id": 1, "action": "navigate", "params": {"url": "https://example.com"}}
 *             {"id": 2, "action": "click", "params": {"index": 4}, "outcome": true}
 *   response  {"id": 1, "ok": true, "result": {...}}
 *             {"id": 2, "ok": true, "result": {...}, "outcome": {"verdict": "changed", ...}}
 *             {"id": 1, "ok": false, "error": {"code": "TAB_NOT_FOUND", "message": "..."}}
 *   event     {"event": "TabCreatedEvent", "data": {...}}   (only to clients that subscribed)
 */
export const RequestId = z.union([z.number(), z.string().max(200)]);
export type RequestId = z.infer<typeof RequestId>;

export const CommandRequest = z.strictObject({
  id: RequestId,
  action: z.string().min(1).max(100),
  params: z.record(z.string(), z.unknown()).optional(),
  /** Ask for the action's verified outcome (protocol/outcome.ts): acting actions answer it beside their result. */
  outcome: z.boolean().optional(),
});
export type CommandRequest = z.infer<typeof CommandRequest>;
/** A request's own fields beside its id, action and params (`outcome`). */
export type RequestEnvelope = Omit<CommandRequest, 'id' | 'action' | 'params'>;

// Without zod, so the CLI's lean path can use it (see request-id.ts).
export { salvageRequestId } from './request-id';

export const ErrorCodeSchema = z.enum(ERROR_CODES);

export interface CommandError {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/** `outcome` comes with an acting action's answer when its request asked for it, a failure's too. */
export type CommandResponse =
  | { id: RequestId | null; ok: true; result: unknown; outcome?: ActionOutcome }
  | { id: RequestId | null; ok: false; error: CommandError; outcome?: ActionOutcome };

export interface EventMessage {
  event: string;
  data: unknown;
  id: string;
  parent_id: string | null;
  source: string | null;
}

export type ServerMessage = CommandResponse | EventMessage;

export const CommandResponseSchema = z.union([
  z.strictObject({
    id: RequestId.nullable(),
    ok: z.literal(true),
    result: z.unknown(),
    outcome: ActionOutcome.optional(),
  }),
  z.strictObject({
    id: RequestId.nullable(),
    ok: z.literal(false),
    error: z.strictObject({
      code: ErrorCodeSchema,
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
    outcome: ActionOutcome.optional(),
  }),
]);

export const EventMessageSchema = z.strictObject({
  event: z.string(),
  data: z.unknown(),
  id: z.string(),
  parent_id: z.string().nullable(),
  source: z.string().nullable(),
});

export function isEventMessage(message: ServerMessage): message is EventMessage {
  return 'event' in message;
}
