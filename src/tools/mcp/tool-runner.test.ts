import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CommandResponse } from '../../protocol/commands';
import { ACTIONS } from '../../protocol/actions';
import { createDefaultRegistry } from '../actions';
import type { OutputFiles } from './answer-budget';
import type { CommandChannel } from './command-channel';
import type { McpProgress, McpResourceLink } from './mcp-shapes';
import { actionsOnFocusedTab, buildToolCatalog, toolAnswers } from './tool-catalog';
import { IMAGE_MAX_PIXELS, IMAGE_MAX_SIDE, McpToolRunner } from './tool-runner';

type Handler = (action: string, params: Record<string, unknown>) => Promise<CommandResponse> | CommandResponse;

const ok = (result: unknown): CommandResponse => ({ id: 1, ok: true, result });

function fakeChannel(
  handler: Handler,
): CommandChannel & { calls: Array<[string, Record<string, unknown>]>; signals: Array<AbortSignal | undefined> } {
  const calls: Array<[string, Record<string, unknown>]> = [];
  const signals: Array<AbortSignal | undefined> = [];
  return {
    calls,
    signals,
    request: (action, params, options) => {
      calls.push([action, params]);
      signals.push(options?.signal);
      return Promise.resolve(handler(action, params));
    },
    close: () => Promise.resolve(),
  };
}

function fakeFiles(): OutputFiles & { written: Array<{ name: string; text: string }> } {
  const written: Array<{ name: string; text: string }> = [];
  const link = (name: string, mimeType: string): McpResourceLink => ({
    type: 'resource_link',
    uri: `file:///out/${name}`,
    name,
    mimeType,
  });
  return {
    written,
    write: (name, content, mimeType) => {
      written.push({ name, text: 'text' in content ? content.text : content.base64 });
      return Promise.resolve(link(name, mimeType));
    },
    linkTo: (path, mimeType) => link(path.split('/').pop() ?? path, mimeType),
  };
}

function runner(channel: CommandChannel | (() => Promise<CommandChannel>), files = fakeFiles(), answerChars = 5000) {
  return new McpToolRunner({
    tools: buildToolCatalog(createDefaultRegistry().describe()),
    focusedTabActions: actionsOnFocusedTab(ACTIONS),
    answers: toolAnswers(createDefaultRegistry().describe()),
    openChannel: typeof channel === 'function' ? channel : () => Promise.resolve(channel),
    files,
    mode: 'launch',
    eventTimeoutMs: () => 10_000,
    answerChars,
  });
}

const tabs = ok({
  tabs: [{ tab_id: 'AB12', url: 'https://a.test/', title: 'A', focused: true, controlled: true }],
  focused_tab_id: 'AB12',
});

function state(text: string, extra: Record<string, unknown> = {}): unknown {
  return {
    tab_id: 'AB12',
    url: 'https://a.test/',
    title: 'A',
    tabs: [{ tab_id: 'AB12', url: 'https://a.test/', title: 'A' }],
    text,
    elements: [],
    truncated: false,
    closed_popup_messages: [],
    pending_network_requests: [],
    browser_errors: [],
    console_errors: 0,
    state_error: null,
    ...extra,
  };
}

const text = (result: { content: Array<{ type: string; text?: string }> }): string =>
  result.content.find((block) => block.type === 'text')?.text ?? '';

afterEach(() => {
  vi.useRealTimers();
});

describe('McpToolRunner', () => {
  it('makes the focused tab explicit, so the answer names it', async () => {
    const channel = fakeChannel((action) => (action === 'tabs' ? tabs : ok({ matches: [], total: 0 })));
    const answer = await runner(channel).callTool('search_page', { pattern: 'x' });
    expect(channel.calls).toEqual([
      ['tabs', {}],
      ['search_page', { pattern: 'x', tab_id: 'AB12' }],
    ]);
    expect(text(answer)).toMatch(/^Tab AB12: search_page done\./);
  });

  it('passes a tab_id it was given and does not ask for the focused one', async () => {
    const channel = fakeChannel(() => ok({ tab_id: 'CD34', index: 3, clicked: true }));
    const answer = await runner(channel).callTool('click', { index: 3, tab_id: 'CD34' });
    expect(channel.calls).toEqual([['click', { index: 3, tab_id: 'CD34' }]]);
    expect(text(answer)).toBe('Tab CD34: click done.\nindex: 3\nclicked: true');
  });

  it('answers TIMEOUT with advice when the browser gives no answer within the tool’s deadline', async () => {
    vi.useFakeTimers();
    const channel = fakeChannel((action) => (action === 'tabs' ? tabs : new Promise<CommandResponse>(() => undefined)));
    const call = runner(channel).callTool('click', { index: 1 });
    // 10 s for the action and 5 s of grace.
    await vi.advanceTimersByTimeAsync(14_900);
    let settled = false;
    void call.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(50);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    const answer = await call;
    expect(answer.isError).toBe(true);
    expect(text(answer)).toMatch(
      /^click failed in tab AB12 \(TIMEOUT\): no answer within 15 s\nNext: It may still be running/,
    );
  });

  it('stops waiting when the client cancels', async () => {
    const channel = fakeChannel((action) => (action === 'tabs' ? tabs : new Promise<CommandResponse>(() => undefined)));
    const abort = new AbortController();
    const call = runner(channel).callTool('click', { index: 1 }, { signal: abort.signal });
    await vi.waitFor(() => expect(channel.calls.map(([action]) => action)).toEqual(['tabs', 'click']));
    abort.abort();
    expect(text(await call)).toMatch(/\(CANCELLED\): the client cancelled the call/);
    // The channel was told too: it sends the protocol's cancel, so the browser stops the click.
    expect(channel.signals[1]?.aborted).toBe(true);
  });

  it('cancels the request in the browser when its deadline passes', async () => {
    vi.useFakeTimers();
    const channel = fakeChannel((action) => (action === 'tabs' ? tabs : new Promise<CommandResponse>(() => undefined)));
    const call = runner(channel).callTool('click', { index: 1 });
    await vi.advanceTimersByTimeAsync(15_100);
    expect(text(await call)).toContain('(TIMEOUT)');
    expect(channel.signals[1]?.aborted).toBe(true);
  });

  it('lists only the tools the browser knows when asked to follow it, and says the list changed', async () => {
    const known = createDefaultRegistry()
      .describe()
      .filter((action) => action.name !== 'drag' && action.name !== 'save_as_pdf');
    const channel = fakeChannel((action) => (action === 'describe' ? ok({ actions: known }) : tabs));
    let changes = 0;
    const follower = new McpToolRunner({
      tools: buildToolCatalog(createDefaultRegistry().describe()),
      focusedTabActions: actionsOnFocusedTab(ACTIONS),
      answers: toolAnswers(createDefaultRegistry().describe()),
      openChannel: () => Promise.resolve(channel),
      files: fakeFiles(),
      mode: 'extension',
      eventTimeoutMs: () => 10_000,
      onToolsChanged: () => changes++,
    });
    expect(follower.listTools().map((tool) => tool.name)).toContain('drag');
    await follower.warmUp();
    const names = follower.listTools().map((tool) => tool.name);
    expect(names).toEqual(
      ACTIONS.filter((action) => action.personOnly !== 'always')
        .map((action) => action.name)
        .filter((name) => name !== 'drag' && name !== 'save_as_pdf'),
    );
    expect(changes).toBe(1);
    expect(text(await follower.callTool('drag', {}))).toMatch(/^There is no tool "drag" here/);
    // The same browser again: no change to announce.
    await follower.callTool('tabs', {});
    expect(changes).toBe(1);
  });

  it('reports increasing progress while a call runs, only when asked', async () => {
    vi.useFakeTimers();
    const channel = fakeChannel(
      () => new Promise<CommandResponse>((resolve) => setTimeout(() => resolve(ok({ waited_seconds: 3.5 })), 3500)),
    );
    const reports: McpProgress[] = [];
    const call = runner(channel).callTool('wait', { seconds: 3.5 }, { onProgress: (report) => reports.push(report) });
    await vi.advanceTimersByTimeAsync(3600);
    expect(text(await call)).toBe('wait done.\nwaited_seconds: 3.5');
    expect(reports.map((report) => report.progress)).toEqual([1, 2, 3]);
    expect(reports[0]).toMatchObject({ total: 15, message: 'wait: still running after 1 s (at most 15 s)' });
    await vi.advanceTimersByTimeAsync(5000);
    expect(reports).toHaveLength(3);
  });

  it('says why it could not reach the browser, and tries again on the next call', async () => {
    let opens = 0;
    const channel = fakeChannel(() => tabs);
    const open = (): Promise<CommandChannel> =>
      ++opens === 1 ? Promise.reject(new Error('Chromium would not start')) : Promise.resolve(channel);
    const server = runner(open);
    const first = await server.callTool('tabs', {});
    expect(first.isError).toBe(true);
    expect(text(first)).toContain('tabs failed (INTERNAL): Chromium would not start');
    expect(text(await server.callTool('tabs', {}))).toContain('Tab AB12: A - https://a.test/ (focused)');
    expect(opens).toBe(2);
  });

  it('refuses a tool it does not list, naming the ones it does', async () => {
    const answer = await runner(fakeChannel(() => tabs)).callTool('teleport', {});
    expect(answer.isError).toBe(true);
    expect(text(answer)).toMatch(/^There is no tool "teleport" here\. The tools are: navigate, go_back/);
  });

  it('bounds every screenshot to the image limits, whatever the call asks', async () => {
    const channel = fakeChannel((action) =>
      action === 'tabs'
        ? tabs
        : ok({ data: 'AAAA', format: 'png', width: 100, height: 50, image_width: 100, image_height: 50, path: null }),
    );
    const answer = await runner(channel).callTool('screenshot', { max_side: 99_999 });
    expect(channel.calls[1]).toEqual([
      'screenshot',
      { max_side: IMAGE_MAX_SIDE, max_pixels: IMAGE_MAX_PIXELS, tab_id: 'AB12' },
    ]);
    expect(answer.content[1]).toEqual({ type: 'image', data: 'AAAA', mimeType: 'image/png' });
    expect(text(answer)).toBe('Tab AB12: screenshot of 100×50 CSS px, sent as a 100×50 px png');
  });

  it('writes a state past the answer budget to a file, keeping its start and the link', async () => {
    const lines = Array.from({ length: 400 }, (_, n) => `[${n + 1}]<button /> Button number ${n + 1}`).join('\n');
    const files = fakeFiles();
    const channel = fakeChannel((action) => (action === 'tabs' ? tabs : ok(state(lines))));
    const answer = await runner(channel, files, 2000).callTool('state', {});
    expect(files.written).toEqual([{ name: 'state-AB12.txt', text: lines }]);
    expect(text(answer).length).toBeLessThanOrEqual(2000);
    expect(text(answer)).toMatch(/^Tab AB12: A - https:\/\/a\.test\/\n\n\[1\]<button \/> Button number 1\n/);
    expect(text(answer)).toMatch(
      /\n\.\.\. \d+ more characters: the whole page text is in file:\/\/\/out\/state-AB12\.txt$/,
    );
    expect(answer.content[1]).toMatchObject({ type: 'resource_link', uri: 'file:///out/state-AB12.txt' });
    expect(answer.structuredContent).toMatchObject({ tab_id: 'AB12', saved_to: 'file:///out/state-AB12.txt' });
  });

  it('says how many console errors came since the last state, and only when there were some', async () => {
    const noisy = fakeChannel((action) =>
      action === 'tabs' ? tabs : ok(state('[1]<button /> Go', { console_errors: 3 })),
    );
    const answer = await runner(noisy).callTool('state', {});
    expect(text(answer)).toContain(
      '\nConsole: 3 errors since the last state (console_messages with levels ["error"] lists them)\n',
    );
    expect(answer.structuredContent).toMatchObject({ console_errors: 3 });
    const quiet = fakeChannel((action) => (action === 'tabs' ? tabs : ok(state('[1]<button /> Go'))));
    expect(text(await runner(quiet).callTool('state', {}))).not.toContain('Console:');
  });

  it('answers changes_only with the changes under the header, and says why a state is whole', async () => {
    const diff =
      'Changes since your last state of this page (the indexes stay valid):\nAdded:\n[4]<button /> Alpha item';
    const changes = { full: false, reason: null, added: [4], removed: [], changed: [] };
    const changed = fakeChannel((action) => (action === 'tabs' ? tabs : ok(state(diff, { changes }))));
    expect(text(await runner(changed).callTool('state', { changes_only: true }))).toBe(
      `Tab AB12: A - https://a.test/\n\n${diff}`,
    );
    const whole = {
      full: true,
      reason: 'the page was replaced: its indexes start anew',
      added: [],
      removed: [],
      changed: [],
    };
    const replaced = fakeChannel((action) =>
      action === 'tabs' ? tabs : ok(state('[1]<button /> Go', { changes: whole })),
    );
    expect(text(await runner(replaced).callTool('state', { changes_only: true }))).toBe(
      'Tab AB12: A - https://a.test/\nThe whole page, not changes: the page was replaced: its indexes start anew.\n\n[1]<button /> Go',
    );
  });

  it('adds a bounded screenshot to a state that asks for one', async () => {
    const channel = fakeChannel((action) =>
      action === 'tabs'
        ? tabs
        : action === 'state'
          ? ok(state('[1]<button /> Go'))
          : ok({ data: 'BBBB', format: 'jpeg', width: 1, height: 1, image_width: 1, image_height: 1, path: null }),
    );
    const answer = await runner(channel).callTool('state', { include_screenshot: true });
    expect(channel.calls.slice(1)).toEqual([
      ['state', { tab_id: 'AB12' }],
      [
        'screenshot',
        { tab_id: 'AB12', format: 'jpeg', quality: 70, max_side: IMAGE_MAX_SIDE, max_pixels: IMAGE_MAX_PIXELS },
      ],
    ]);
    expect(answer.content.at(-1)).toEqual({ type: 'image', data: 'BBBB', mimeType: 'image/jpeg' });
  });
});
