import { z } from 'zod';
import { defineEvent } from '../define-event';
import { TargetId } from '../events/navigation.events';
import {
  BLOCK_REASON_NAMES,
  HEADER_NAME,
  MAX_ROUTE_BODY_BYTES,
  MAX_ROUTES_PER_TAB,
  ROUTE_RESOURCE_TYPES,
} from '../routes';
import { declareAction } from './declare-action';
import { MOVES } from './hints';
import { both, count } from './words';

const Fulfill = z.strictObject({
  status: z.number().int().min(200).max(599).default(200),
  headers: z.record(z.string(), z.string()).optional(),
  content_type: z
    .string()
    .min(1)
    .optional()
    .meta({ details: 'The Content-Type header (default text/plain with a body)' }),
  body: z.string().optional().meta({ details: 'The body as text (UTF-8)' }),
  body_base64: z.string().optional(),
  body_file: z.string().min(1).optional().meta({
    details: 'A file read once when the route is added: Node, under the output folder; the extension refuses it',
  }),
});

/** One route of the tab, in the order they are tried. */
const RouteOut = z.strictObject({
  id: z.string(),
  url_pattern: z.string(),
  resource_type: z.string().nullable(),
  action: z.enum(['block', 'fulfill']),
  error_reason: z.string().nullable(),
  status: z.number().int().nullable(),
  /** The requests it answered so far. */
  hits: z.number().int(),
});

/** The fields each operation takes besides `op`; any other is refused, naming it. */
const FIELDS_OF_OP = {
  add: ['url_pattern', 'resource_type', 'block', 'error_reason', 'fulfill'],
  remove: ['route_id'],
  list: [],
  clear: [],
} as const;
const OP_FIELDS = ['url_pattern', 'resource_type', 'block', 'error_reason', 'fulfill', 'route_id'] as const;

export const RouteEvent = defineEvent('RouteEvent', {
  payload: {
    target_id: TargetId,
    op: z.enum(['add', 'remove', 'list', 'clear']),
    url_pattern: z.string().min(1).max(2048).optional().describe('add: a URL glob (* any run, ? one character)'),
    resource_type: z.enum(ROUTE_RESOURCE_TYPES).optional(),
    block: z.boolean().optional().describe('add: fail the request'),
    error_reason: z
      .enum(BLOCK_REASON_NAMES)
      .optional()
      .meta({ details: 'add with block: the error (default blocked_by_client, net::ERR_BLOCKED_BY_CLIENT)' }),
    fulfill: Fulfill.optional().describe('add: answer with this response'),
    route_id: z.string().min(1).optional().meta({ details: 'remove: the route to remove' }),
  },
  refine: (payload, ctx) => {
    const allowed: readonly string[] = FIELDS_OF_OP[payload.op];
    for (const field of OP_FIELDS) {
      if (payload[field] !== undefined && !allowed.includes(field)) {
        ctx.addIssue({ code: 'custom', path: [field], message: `${field} is not taken by op ${payload.op}` });
      }
    }
    if (payload.op === 'add') {
      refineAdd(payload, ctx);
    }
    if (payload.op === 'remove' && payload.route_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['route_id'], message: 'op remove needs the route_id to remove' });
    }
  },
  result: z.strictObject({
    routes: z.array(RouteOut),
    /** The route this call added or removed; null for list and clear. */
    route_id: z.string().nullable(),
    max_routes: z.number().int(),
  }),
  timeoutMs: 10_000,
  description: `Blocks or mocks the tab's requests whose URL matches a glob: block fails them as a network error, fulfill answers them (status, headers, body) without the server. The first matching route wins; the URL policy is judged first. At most ${MAX_ROUTES_PER_TAB} per tab, kept across navigations until removed, cleared, or the tab is released or closed. Answers the routes with their hit counts.`,
});

type AddPayload = Pick<z.output<typeof RouteEvent.payloadShape>, 'url_pattern' | 'block' | 'error_reason' | 'fulfill'>;

function refineAdd(payload: AddPayload, ctx: z.RefinementCtx): void {
  const issue = (path: Array<string | number>, message: string): void =>
    ctx.addIssue({ code: 'custom', path, message });
  if (payload.url_pattern === undefined) {
    issue(['url_pattern'], 'op add needs the url_pattern of the requests to answer');
  }
  const blocks = payload.block === true;
  if (blocks === (payload.fulfill !== undefined)) {
    issue(['fulfill'], 'op add takes either block: true or fulfill');
  }
  if (payload.error_reason !== undefined && !blocks) {
    issue(['error_reason'], 'error_reason goes with block: true');
  }
  const fulfill = payload.fulfill;
  if (fulfill === undefined) {
    return;
  }
  const bodies = (['body', 'body_base64', 'body_file'] as const).filter((field) => fulfill[field] !== undefined);
  if (bodies.length > 1) {
    issue(['fulfill', bodies[1] ?? 'body'], 'give one of body, body_base64 and body_file');
  }
  if (fulfill.body !== undefined && new TextEncoder().encode(fulfill.body).length > MAX_ROUTE_BODY_BYTES) {
    issue(['fulfill', 'body'], `the body is larger than ${MAX_ROUTE_BODY_BYTES} bytes`);
  }
  if (fulfill.body_base64 !== undefined && !/^[A-Za-z0-9+/]*={0,2}$/.test(fulfill.body_base64)) {
    issue(['fulfill', 'body_base64'], 'not base64');
  } else if (fulfill.body_base64 !== undefined && (fulfill.body_base64.length * 3) / 4 > MAX_ROUTE_BODY_BYTES + 2) {
    issue(['fulfill', 'body_base64'], `the body is larger than ${MAX_ROUTE_BODY_BYTES} bytes`);
  }
  for (const [name, value] of Object.entries(fulfill.headers ?? {})) {
    if (!HEADER_NAME.test(name) || /[\r\n\0]/.test(value)) {
      issue(['fulfill', 'headers', name], 'not a valid HTTP header name or value');
    }
  }
}

/** The panel's line: how many routes the tab has now. */
function routesLine(r: { routes: readonly unknown[] }): string {
  return r.routes.length === 0 ? 'no routes' : count(r.routes.length, 'route');
}

/** Network routes in the client's own tab. */
export const ROUTE_ACTIONS = [
  declareAction(RouteEvent, {
    name: 'route',
    notForAgent: true,
    title: 'Block or mock requests',
    summary: 'Block or mock (fulfill) requests whose URL matches a glob; cleared on release.',
    category: 'page',
    hints: MOVES,
    tabGate: 'act',
    panel: {
      label: 'Route requests',
      success: (_p, r) => routesLine(r),
      activity: () => both('routing requests', 'routed requests'),
    },
  }),
] as const;
