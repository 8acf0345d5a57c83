import type { CommandResponse } from '../../protocol/commands';

/**
 * How the MCP server reaches a browser: one protocol request in, its response out. In-process over a
 * CommandServer (a browser of its own, or one at a cdp_url), or through the native host into the
 * person's browser; the tool handlers see no difference.
 */
export interface CommandChannel {
  request(action: string, params: Record<string, unknown>): Promise<CommandResponse>;
  close(): Promise<void>;
}
