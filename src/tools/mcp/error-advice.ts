import type { CommandError } from '../../protocol/commands';
import type { ErrorCode } from '../../shared/errors';
import type { McpToolResult } from './mcp-shapes';

/** Where the server's browser is: the person's (through the extension), one it launched, or one it joined. */
export type BrowserMode = 'extension' | 'launch' | 'connect';

export interface FailureContext {
  action: string;
  tabId: string | undefined;
  mode: BrowserMode;
}

type Advice = (error: CommandError, ctx: FailureContext) => string;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const RECONNECT: Record<BrowserMode, string> = {
  extension:
    'Check that the browser with the tabpilot extension is open, then call the tool again; if it keeps failing, run `tabpilot doctor` in a terminal.',
  launch: 'Call attach to start the browser again (or call the tool again), then navigate back to where you were.',
  connect: 'Check that the browser at --cdp-url is still running, then call attach to connect again.',
};

/**
 * What to do next, for every error code a tool can answer: the model reads the protocol's message
 * (what happened) and this (the next step), so it neither retries blindly nor gives up on a fixable call.
 */
const ADVICE: Record<ErrorCode, Advice> = {
  INVALID_PARAMS: (error, ctx) => {
    const options = error.details?.['options'];
    if (Array.isArray(options)) {
      return `Pick one of these options, by its exact text: ${options.map((option) => JSON.stringify(option)).join(', ')}.`;
    }
    const field = str(error.details?.['field']);
    return field === undefined
      ? `Change the arguments as the message says and call ${ctx.action} again.`
      : `Fix the argument "${field}" (the tool's input schema says what it takes) and call ${ctx.action} again.`;
  },
  INVALID_JSON: () => 'This is a fault of the tabpilot MCP server, not of the call: report it.',
  INVALID_REQUEST: () => 'This is a fault of the tabpilot MCP server, not of the call: report it.',
  UNKNOWN_ACTION: (_error, ctx) =>
    ctx.mode === 'extension'
      ? 'The tabpilot extension in the browser does not know this tool: it is older than this server. Update the extension, or use another tool.'
      : 'This build of tabpilot has no such action: list the tools again.',
  NOT_ATTACHED: (_error, ctx) =>
    ctx.mode === 'extension'
      ? 'tabpilot controls no tab of yours right now: call navigate with a URL to open one, or attach to take the tab the person shows you.'
      : 'The browser is not connected: call attach, then try again.',
  TAB_NOT_FOUND: () =>
    'That tab is closed or not yours: call tabs for the tabs you can use and pass one of their tab_ids (or leave tab_id out for your focused tab).',
  TAB_CRASHED: () =>
    'Call refresh on that tab to load the page again (then state to see it), or close it and work in another tab.',
  ELEMENT_NOT_FOUND: () =>
    'The page changed since the state that gave this index: call state again and use the index it shows now.',
  ELEMENT_OCCLUDED: (error) => {
    const cover = str(error.details?.['cover']) ?? 'something else';
    return `Get ${cover} out of the way first: call state and click its close, accept or dismiss button (or send_keys "Escape"), then try again with the new index.`;
  },
  NAVIGATION_FAILED: () =>
    'The page did not load: check the address (a typo, a site that is down or needs a VPN), then navigate again or try another address.',
  URL_BLOCKED: () => 'tabpilot refuses this address on purpose: use an ordinary http(s) address instead.',
  TIMEOUT: (error, ctx) => {
    if (error.details?.['condition'] === 'unresponsive') {
      return 'The page itself is stuck (an endless script): call refresh on that tab to stop it, then state.';
    }
    if (ctx.action === 'state') {
      return 'The page is busy: call wait for a few seconds, then state again (a smaller viewport_expansion is quicker).';
    }
    if (ctx.action === 'navigate' || ctx.action === 'search') {
      return 'The page is slow: call state to see how far it got; for slow sites pass a larger timeout_ms or wait_until "domcontentloaded".';
    }
    return `It may still be running: call state to see the page before doing ${ctx.action} again.`;
  },
  DISCONNECTED: (error, ctx) =>
    error.details?.['reason'] === 'pool_full'
      ? 'The browser pool has no free browser: wait a minute and call attach again.'
      : RECONNECT[ctx.mode],
  CANCELLED: () =>
    'An emergency stop cancelled it (the person pressed Stop, or stop was called): call state to see where things are before doing it again, and ask the person if they stopped you.',
  FORBIDDEN: (error) => {
    const owner = str(error.details?.['owner']);
    if (owner !== undefined) {
      return `That tab belongs to another client (${owner}): work in your own tabs (tabs lists them) or open one with navigate.`;
    }
    if (error.details?.['secret'] !== undefined) {
      return 'Type the secret only on the site it is meant for.';
    }
    if (error.details?.['approval'] === 'denied') {
      return 'The person refused this client in the tabpilot side panel: tell them what you need the browser for; if they agree, they restart this MCP server and press Allow when it asks.';
    }
    return 'The person controls this setting: tell them what you need and why, and do something else meanwhile.';
  },
  PERSON_NEEDED: () =>
    'The page is waiting for a person (a captcha or challenge page): tell the person to solve it in that tab (the tabpilot panel has Show tab), and call the tool again once they say it is done.',
  UNSUPPORTED: () => 'This browser cannot do it this way: do what the message suggests, or use another tool.',
  INTERNAL: (_error, ctx) =>
    `An unexpected fault inside tabpilot: call state to check the page, then try ${ctx.action} once more; if it fails again, tell the person the message.`,
};

/** A failed call as an `isError` answer: what happened (with the tab), then what to do next. */
export function failureAnswer(error: CommandError, ctx: FailureContext): McpToolResult {
  const where = ctx.tabId === undefined ? '' : ` in tab ${ctx.tabId}`;
  const text = `${ctx.action} failed${where} (${error.code}): ${error.message}\nNext: ${ADVICE[error.code](error, ctx)}`;
  return { content: [{ type: 'text', text }], isError: true };
}
