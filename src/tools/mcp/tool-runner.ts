import type { McpAnswer } from '../../protocol/actions';
import type { CommandError, CommandResponse } from '../../protocol/commands';
import type { ActionOutcome } from '../../protocol/outcome';
import { outcomeText } from '../../protocol/outcome-text';
import { errorCodeOf, errorMessageOf } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { silentLogger } from '../../shared/logger';
import { fieldOf, isRecord } from '../../shared/narrow';
import { DEFAULT_ANSWER_CHARS, type OutputFiles } from './answer-budget';
import type { CommandChannel } from './command-channel';
import { failureAnswer, type BrowserMode } from './error-advice';
import type { McpProgress, McpTool, McpToolResult } from './mcp-shapes';
import { textResult } from './mcp-shapes';
import { answerOf } from './tool-answers';
import { PROGRESS_INTERVAL_MS, toolDeadlineMs } from './tool-deadlines';

/** The bounds an image answer is scaled to (what vision models take in without resampling it again). */
export const IMAGE_MAX_SIDE = 1568;
export const IMAGE_MAX_PIXELS = 1_150_000;

export interface McpToolRunnerOptions {
  /** The tools this server lists, in order; only these can be called. */
  tools: readonly McpTool[];
  /** The actions that act on the focused tab when no tab_id is given (see actionsOnFocusedTab). */
  focusedTabActions: ReadonlySet<string>;
  /** How each tool's answer is put (toolAnswers of the catalog's actions). */
  answers: ReadonlyMap<string, McpAnswer>;
  /** Opens the way to the browser; called at the first tool call, and again after it failed. */
  openChannel: () => Promise<CommandChannel>;
  files: OutputFiles;
  mode: BrowserMode;
  /** The action's own timeout (its event's, or the config's for it). */
  eventTimeoutMs: (action: string) => number;
  /** Characters an answer may have before it goes to a file. */
  answerChars?: number;
  /**
   * Set where the browser may run another build than this server (the extension): at each new channel
   * the runner asks `describe` and lists only the tools the browser knows, calling this when the list
   * changed (the server then sends tools/list_changed).
   */
  onToolsChanged?: () => void;
  log?: Logger;
}

export interface CallOptions {
  /** Aborts when the client cancels the call. */
  signal?: AbortSignal;
  /** Set when the client sent a progress token. */
  onProgress?: (progress: McpProgress) => void;
}

/**
 * The MCP tools over the command protocol, independent of any MCP SDK: lists the tools and answers a
 * call with small content (text that names the tab, images as images, big outputs as linked files) or
 * an `isError` answer that says what to do next. Never throws.
 */
export class McpToolRunner {
  readonly #options: McpToolRunnerOptions;
  readonly #allTools: readonly McpTool[];
  #tools: Map<string, McpTool>;
  readonly #log: Logger;
  #channel: Promise<CommandChannel> | undefined;

  constructor(options: McpToolRunnerOptions) {
    this.#options = options;
    this.#allTools = options.tools;
    this.#tools = new Map(options.tools.map((tool) => [tool.name, tool]));
    this.#log = options.log ?? silentLogger;
  }

  listTools(): McpTool[] {
    return [...this.#tools.values()];
  }

  async callTool(name: string, rawArgs: unknown, options: CallOptions = {}): Promise<McpToolResult> {
    const tool = this.#tools.get(name);
    if (tool === undefined) {
      return textResult(`There is no tool "${name}" here. The tools are: ${[...this.#tools.keys()].join(', ')}.`, true);
    }
    if (rawArgs !== undefined && !isRecord(rawArgs)) {
      return this.#failure(name, undefined, {
        code: 'INVALID_PARAMS',
        message: `${name}: the arguments must be an object`,
      });
    }
    const args: Record<string, unknown> = { ...rawArgs };
    let channel: CommandChannel;
    try {
      channel = await this.#connect();
    } catch (error) {
      return this.#failure(name, undefined, { code: errorCodeOf(error), message: errorMessageOf(error) });
    }
    try {
      return await this.#call(channel, tool, args, options);
    } catch (error) {
      this.#log.error('tool call failed', { tool: name, error: errorMessageOf(error) });
      return this.#failure(name, undefined, { code: 'INTERNAL', message: errorMessageOf(error) });
    }
  }

  /** Opens the channel ahead of the first call (so the tool list matches the browser early); a failure waits for that call. */
  async warmUp(): Promise<void> {
    try {
      await this.#connect();
    } catch (error) {
      this.#log.info('no browser yet; the first tool call tries again', { error: errorMessageOf(error) });
    }
  }

  async close(): Promise<void> {
    const channel = this.#channel;
    this.#channel = undefined;
    if (channel !== undefined) {
      await channel
        .then((open) => open.close())
        .catch((error: unknown) => {
          this.#log.warn('closing the channel failed', { error: errorMessageOf(error) });
        });
    }
  }

  async #call(
    channel: CommandChannel,
    tool: McpTool,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<McpToolResult> {
    const name = tool.name;
    const wantsScreenshot = name === 'state' && args['include_screenshot'] === true;
    if (name === 'state') {
      // The image is taken by the screenshot action instead, which scales it to the image bounds.
      delete args['include_screenshot'];
    }
    if (name === 'screenshot') {
      args['max_side'] = Math.min(numberOr(args['max_side'], IMAGE_MAX_SIDE), IMAGE_MAX_SIDE);
      args['max_pixels'] = Math.min(numberOr(args['max_pixels'], IMAGE_MAX_PIXELS), IMAGE_MAX_PIXELS);
    }
    let tabId = typeof args['tab_id'] === 'string' ? args['tab_id'] : undefined;
    if (tabId === undefined && this.#options.focusedTabActions.has(name)) {
      // The focused tab made explicit: every answer, a failure's too, names the tab it acted on.
      tabId = await this.#focusedTab(channel);
      if (tabId !== undefined) {
        args['tab_id'] = tabId;
      }
    }
    const response = await this.#request(channel, tool, args, options);
    if (!response.ok) {
      return withOutcomeText(
        this.#failure(name, tabId ?? tabOfError(response.error), response.error),
        response.outcome,
      );
    }
    const budget = this.#options.answerChars ?? DEFAULT_ANSWER_CHARS;
    const answer = await answerOf(response.result, {
      action: name,
      answer: this.#options.answers.get(name) ?? 'fields',
      tabId,
      budget,
      files: this.#options.files,
    });
    withOutcomeText(answer, response.outcome);
    if (wantsScreenshot) {
      const stateTab = fieldOf(response.result, 'tab_id');
      answer.content.push(
        ...(await this.#stateScreenshot(channel, tool, typeof stateTab === 'string' ? stateTab : undefined, options)),
      );
    }
    return answer;
  }

  async #stateScreenshot(
    channel: CommandChannel,
    tool: McpTool,
    tabId: string | undefined,
    options: CallOptions,
  ): Promise<McpToolResult['content']> {
    const shot = await this.#request(
      channel,
      { ...tool, name: 'screenshot' },
      {
        ...(tabId === undefined ? {} : { tab_id: tabId }),
        format: 'jpeg',
        quality: 70,
        max_side: IMAGE_MAX_SIDE,
        max_pixels: IMAGE_MAX_PIXELS,
      },
      options,
    );
    if (!shot.ok) {
      return [{ type: 'text', text: `(no screenshot: ${shot.error.message})` }];
    }
    const data = fieldOf(shot.result, 'data');
    if (typeof data !== 'string') {
      return [{ type: 'text', text: '(no screenshot: the answer held no image)' }];
    }
    return [{ type: 'image', data, mimeType: 'image/jpeg' }];
  }

  async #focusedTab(channel: CommandChannel): Promise<string | undefined> {
    const tabs = await channel.request('tabs', {});
    if (!tabs.ok) {
      return undefined;
    }
    const focused = fieldOf(tabs.result, 'focused_tab_id');
    return typeof focused === 'string' ? focused : undefined;
  }

  /**
   * One request, bounded by the tool's deadline and the client's cancel, with progress while it runs.
   * Either bound answers the call at once and cancels the request on the bus, so the browser stops too.
   */
  #request(
    channel: CommandChannel,
    tool: McpTool,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<CommandResponse> {
    const deadlineMs = toolDeadlineMs(tool.name, args, this.#options.eventTimeoutMs(tool.name));
    const started = Date.now();
    const stop = new AbortController();
    const timers: { deadline?: ReturnType<typeof setTimeout>; progress?: ReturnType<typeof setInterval> } = {};
    let onAbort: (() => void) | undefined;
    const bounded = new Promise<CommandResponse>((resolve) => {
      timers.deadline = setTimeout(() => {
        stop.abort();
        resolve(answerless('TIMEOUT', `no answer within ${Math.round(deadlineMs / 1000)} s`));
      }, deadlineMs);
      onAbort = () => {
        stop.abort();
        resolve(answerless('CANCELLED', 'the client cancelled the call'));
      };
      if (options.signal?.aborted === true) {
        onAbort();
      }
      options.signal?.addEventListener('abort', onAbort, { once: true });
    });
    const onProgress = options.onProgress;
    if (onProgress !== undefined) {
      let ticks = 0;
      const total = Math.round(deadlineMs / 1000);
      timers.progress = setInterval(() => {
        ticks++;
        const seconds = Math.round((Date.now() - started) / 1000);
        onProgress({
          progress: ticks,
          total,
          message: `${tool.title ?? tool.name}: still running after ${seconds} s (at most ${total} s)`,
        });
      }, PROGRESS_INTERVAL_MS);
    }
    return Promise.race([channel.request(tool.name, args, { signal: stop.signal, outcome: true }), bounded]).finally(
      () => {
        clearTimeout(timers.deadline);
        clearInterval(timers.progress);
        if (onAbort !== undefined) {
          options.signal?.removeEventListener('abort', onAbort);
        }
      },
    );
  }

  #connect(): Promise<CommandChannel> {
    const opening = (this.#channel ??= this.#options
      .openChannel()
      .then(async (channel) => (this.#options.onToolsChanged === undefined ? channel : this.#matchBrowser(channel))));
    // A failed open is not kept: the next call tries again (the browser may have come up meanwhile).
    opening.catch(() => {
      if (this.#channel === opening) {
        this.#channel = undefined;
      }
    });
    return opening;
  }

  /** Lists only the tools the browser's build knows; a browser that cannot say keeps the whole list. */
  async #matchBrowser(channel: CommandChannel): Promise<CommandChannel> {
    const described = await channel.request('describe', {});
    const actions = described.ok ? fieldOf(described.result, 'actions') : undefined;
    if (!Array.isArray(actions)) {
      return channel;
    }
    const known = new Set(actions.map((action) => fieldOf(action, 'name')));
    const tools = this.#allTools.filter((tool) => known.has(tool.name));
    const changed =
      tools.length !== this.#tools.size || tools.some((tool, index) => [...this.#tools.keys()][index] !== tool.name);
    if (changed) {
      const missing = this.#allTools.filter((tool) => !known.has(tool.name)).map((tool) => tool.name);
      this.#log.warn('the browser’s tabpilot extension lacks some tools; they are not listed', { missing });
      this.#tools = new Map(tools.map((tool) => [tool.name, tool]));
      this.#options.onToolsChanged?.();
    }
    return channel;
  }

  #failure(action: string, tabId: string | undefined, error: CommandError): McpToolResult {
    return failureAnswer(error, { action, tabId, mode: this.#options.mode });
  }
}

/** An acting tool's answer ends with its verified outcome: what changed, or why it did not work. */
function withOutcomeText(answer: McpToolResult, outcome: ActionOutcome | undefined): McpToolResult {
  if (outcome !== undefined) {
    answer.content.push({ type: 'text', text: outcomeText(outcome) });
  }
  return answer;
}

function answerless(code: 'TIMEOUT' | 'CANCELLED', message: string): CommandResponse {
  return { id: null, ok: false, error: { code, message } };
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function tabOfError(error: CommandError): string | undefined {
  const tab = error.details?.['tab_id'];
  return typeof tab === 'string' ? tab : undefined;
}
