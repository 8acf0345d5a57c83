import type { CommandResponse, RequestEnvelope } from '../../protocol/commands';

export interface ChannelRequestOptions {
  /**
   * Aborting it sends the protocol's `cancel` for this request, so its event is cancelled on the bus
   * (the browser work stops); the request's own answer still comes, CANCELLED.
   */
  signal?: AbortSignal;
  /** Ask for the action's verified outcome (an acting action answers it beside its result). */
  outcome?: boolean;
}

/** A request as a channel sends it. */
export interface ChannelRequest extends RequestEnvelope {
  id: string;
  action: string;
  params: Record<string, unknown>;
}

/**
 * How the MCP server reaches a browser: one protocol request in, its response out. In-process over a
 * CommandServer (a browser of its own, or one at a cdp_url), or through the native host into the
 * person's browser; the tool handlers see no difference.
 */
export interface CommandChannel {
  request(action: string, params: Record<string, unknown>, options?: ChannelRequestOptions): Promise<CommandResponse>;
  close(): Promise<void>;
}

/**
 * Sends a request through `send` under a fresh id, and its `cancel` when the signal aborts. Shared by
 * the channels, which differ only in how a line reaches the CommandServer.
 */
export function requestWithCancel(
  send: (request: ChannelRequest) => Promise<CommandResponse>,
  nextId: () => string,
  action: string,
  params: Record<string, unknown>,
  options: ChannelRequestOptions = {},
): Promise<CommandResponse> {
  const id = nextId();
  const answer = send({ id, action, params, ...(options.outcome === true ? { outcome: true } : {}) });
  const signal = options.signal;
  if (signal === undefined) {
    return answer;
  }
  const cancel = (): void => {
    void send({ id: nextId(), action: 'cancel', params: { request_id: id } });
  };
  if (signal.aborted) {
    cancel();
    return answer;
  }
  signal.addEventListener('abort', cancel, { once: true });
  return answer.finally(() => signal.removeEventListener('abort', cancel));
}
