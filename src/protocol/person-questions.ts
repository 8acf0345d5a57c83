import { z } from 'zod';

/**
 * A question the worker puts to the person in the side panel: a program (a native or MCP client) asks for
 * something only the person may do (export or import the profile's cookies, record the traffic). The
 * panel shows who asks and exactly what; the person allows it once or refuses.
 */
export const PersonQuestion = z.strictObject({
  id: z.string(),
  /** The client that asks, by its name (`mcp:alpha`, `tabpilot`). */
  client: z.string(),
  /** The protocol action it asked for. */
  action: z.string(),
  /** What it would do, counted for real: "save 12 cookies of 3 sites (a.com, b.com, c.com) ...". */
  what: z.string(),
  asked_at: z.number(),
  /** When an unanswered question is refused. */
  expires_at: z.number(),
});
export type PersonQuestion = z.infer<typeof PersonQuestion>;
