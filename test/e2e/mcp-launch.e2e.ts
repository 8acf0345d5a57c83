import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImageContent, ResourceLink, Tool } from '@modelcontextprotocol/sdk/types.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { pollUntil } from '../../src/shared/time';
import { ACTIONS, personAlone } from '../../src/protocol/actions';
import { FixtureServer } from './harness/fixture-server';
import { TEST_FLAGS } from './harness/browser';
import { ChallengeServer, challengeFlags } from './harness/challenge-server';
import { addChallengePages } from './harness/guard-pages';
import { validateHar } from './harness/har-validator';
import { addMcpPages, BIN, hintsRead, imageSize, indexIn, mcpConfigFile, McpTestClient, textOf } from './harness/mcp';

/**
 * `tabpilot mcp --launch --headless` as an MCP client app runs it: the official SDK's own client over
 * stdio (not tabpilot's code on both ends), against fixture pages whose own text shows each effect.
 */
describe('tabpilot mcp --launch', () => {
  const server = new FixtureServer();
  const challenges = new ChallengeServer();
  // The captcha vendors' hosts resolve to the loopback challenge server; a captcha holds an action 1 s.
  const config = mcpConfigFile({
    launch: { args: [...TEST_FLAGS, ...challengeFlags()] },
    captcha: { enabled: true, wait_timeout_ms: 1000, poll_ms: 100 },
  });
  let mcp: McpTestClient;

  beforeAll(async () => {
    addMcpPages(server);
    await challenges.start();
    addChallengePages(server, challenges);
    await server.start();
    // Open to everyone, as a shared folder may be: the server makes its output folder private at start.
    chmodSync(config.dir, 0o755);
    mcp = await new McpTestClient([
      '--launch',
      '--headless',
      '--config',
      config.path,
      '--output-dir',
      config.dir,
    ]).connect();
  });

  afterAll(async () => {
    await mcp?.close();
    await server.stop();
    await challenges.stop();
    rmSync(config.dir, { recursive: true, force: true });
  });

  it('lists every action as a tool, in the actions’ order, with its schema, a title that says more than its name and honest annotations', async () => {
    const { tools } = await mcp.client.listTools();
    // evaluate is off in this config, so it is not offered (it would only ever answer FORBIDDEN).
    expect(tools.map((tool) => tool.name)).toEqual([
      ...ACTIONS.filter((action) => !personAlone(action.name))
        .map((action) => action.name)
        .filter((name) => name !== 'evaluate'),
      'batch',
      'replay',
    ]);
    const byName = new Map<string, Tool>(tools.map((tool) => [tool.name, tool]));
    for (const action of ACTIONS.filter((candidate) => candidate.name !== 'evaluate' && !personAlone(candidate.name))) {
      const tool = byName.get(action.name);
      expect(tool?.inputSchema.type, action.name).toBe('object');
      // Titled in the declaration's words, unless they only say the name (a client shows the name then).
      const onlyTheName = action.title.toLowerCase() === action.name.replaceAll('_', ' ');
      expect(tool?.title, action.name).toBe(onlyTheName ? undefined : action.title);
      expect(hintsRead(tool), action.name).toEqual(action.hints);
    }
    expect(byName.get('navigate')?.inputSchema.required).toEqual(['url']);
    expect(Object.keys(byName.get('click')?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['index', 'coordinate_x', 'coordinate_y', 'tab_id']),
    );
    // Only the hints that differ from the spec's defaults are written: state is read-only and stays in the
    // browser; click is the default (it may destroy, once is not twice, it reaches the web).
    expect(byName.get('state')?.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(byName.get('click')?.annotations).toBeUndefined();
    expect(hintsRead(byName.get('click'))).toMatchObject({ readOnly: false, destructive: true });
    expect(byName.get('state')?.outputSchema?.required).toEqual(expect.arrayContaining(['tab_id', 'text']));
    // No zod safe-integer noise in what every client sends its model on every turn.
    expect(JSON.stringify(tools)).not.toContain(String(Number.MAX_SAFE_INTEGER));
  });

  it('lists evaluate when the config allows it (the tool list is read before any browser starts)', async () => {
    const allowed = mcpConfigFile({ allow_evaluate: true });
    const other = await new McpTestClient(['--launch', '--headless', '--config', allowed.path]).connect();
    try {
      const { tools } = await other.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        ...ACTIONS.filter((action) => !personAlone(action.name)).map((action) => action.name),
        'batch',
        'replay',
      ]);
    } finally {
      await other.close();
      rmSync(allowed.dir, { recursive: true, force: true });
    }
  });

  it('--tools picks tool groups; an unknown group is refused at start, naming the groups', async () => {
    const picked = await new McpTestClient(['--launch', '--headless', '--tools', 'tabs,files']).connect();
    try {
      const { tools } = await picked.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(
        ACTIONS.filter((action) => action.category === 'tabs' || action.category === 'files').map(
          (action) => action.name,
        ),
      );
    } finally {
      await picked.close();
    }
    const refused = await new Promise<{ code: number | null; stderr: string }>((done) => {
      const child = spawn(process.execPath, [BIN, 'mcp', '--tools', 'tabs,nope'], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('exit', (code) => done({ code, stderr }));
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      '--tools: unknown group "nope" (the groups are page, tabs, content, files, session)',
    );
  });

  it('works in the browser’s own tab, in front: every screenshot of a page at rest is answered', async () => {
    await mcp.ok('navigate', { url: server.url('/mcp/form.html') });
    const tabs = await mcp.ok('tabs');
    // One tab, the browser's first, taken at start: not a hidden background tab beside a blank one
    // (a hidden tab renders no frames, and every second capture of it waited for one until its timeout).
    const listed = tabs.text.split('\n').filter((line) => line.startsWith('Tab '));
    expect(listed, tabs.text).toHaveLength(1);
    expect(listed[0]).toContain(server.url('/mcp/form.html'));
    for (let shot = 0; shot < 3; shot++) {
      const answer = await mcp.ok('screenshot');
      expect(answer.result.content.some((block) => block.type === 'image')).toBe(true);
    }
  });

  it('navigates, reads the state, clicks and types, each answer naming the tab', async () => {
    const navigated = await mcp.ok('navigate', { url: server.url('/mcp/form.html') });
    const tab = /^Tab (\w+) is at /.exec(navigated.text)?.[1];
    expect(tab, navigated.text).toBeDefined();
    expect(navigated.text).toContain(server.url('/mcp/form.html'));

    const state = await mcp.ok('state');
    expect(state.text.startsWith(`Tab ${tab}: MCP form - ${server.url('/mcp/form.html')}`)).toBe(true);
    // The SDK client has checked structuredContent against the tool's outputSchema already.
    expect(state.result.structuredContent).toMatchObject({ tab_id: tab, title: 'MCP form', saved_to: null });
    expect((state.result.structuredContent as { text: string }).text).toContain('Count me');

    const clicked = await mcp.ok('click', { index: indexIn(state.text, 'Count me') });
    expect(clicked.text).toMatch(new RegExp(`^Tab ${tab}: click done`));
    // The answer ends with what the click did, so the model need not take the page again.
    expect(clicked.text).toMatch(
      /\nOutcome: changed \(settled in \d+ ms\)\nText appeared: "clicks:1"\nText went: "clicks:0"$/,
    );
    const typed = await mcp.ok('input', { index: indexIn(state.text, 'id=name'), text: 'Ada Lovelace' });
    expect(typed.text).toContain(`Tab ${tab}`);
    expect(typed.text).toContain('value: Ada Lovelace');

    const after = await mcp.ok('state');
    expect(after.text).toContain('clicks:1');
    expect(after.text).toContain('echo:Ada Lovelace');
  });

  it('runs several actions in one call and stops at the step whose expectation does not hold', async () => {
    await mcp.ok('navigate', { url: server.url('/mcp/form.html') });
    const state = await mcp.ok('state');
    const result = await mcp.call('batch', {
      steps: [
        { action: 'click', params: { index: indexIn(state.text, 'Count me') }, expect: { text_appears: 'clicks:1' } },
        { action: 'input', params: { index: indexIn(state.text, 'id=name'), text: 'Grace' } },
        {
          action: 'click',
          params: { index: indexIn(state.text, 'Count me') },
          expect: { text_appears: 'clicks:9', timeout_ms: 300 },
        },
        { action: 'state' },
      ],
    });
    const answer = { result, text: textOf(result) };
    // Where it stopped and why come first, as an error the model cannot read past.
    expect(answer.result.isError).toBe(true);
    expect(answer.text).toMatch(
      /^batch stopped at step 3: after click, after 300 ms the page does not show "clicks:9"/,
    );
    expect(answer.text).toContain('\n1. click done: index: ');
    expect(answer.text).toContain('\n2. input done: index: ');
    expect(answer.text).not.toContain('4. state');
  });

  it('answers the console and the network one line per entry', async () => {
    await mcp.ok('navigate', { url: server.url('/mcp/logs.html') });
    const logged = await pollUntil(
      async () => {
        const answer = await mcp.ok('console_messages');
        return answer.text.includes('boom at load') ? answer.text : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('the page error never reached the console') },
    );
    expect(logged).toMatch(/^Tab \w+: \d+ console messages \(mark \d+: pass it as since_mark\)\./);
    expect(logged).toContain('\n[warning] cache is cold (logs.html:');
    expect(logged).toContain('\n[error exception] Uncaught Error: boom at load (logs.html:');
    // The page's fetch answers in its own time, maybe after its error was logged: asked until it did.
    const network = await pollUntil(
      async () => {
        const answer = await mcp.ok('network_requests', { only_failed: true });
        return / GET 404 /.test(answer.text) ? answer.text : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('the page fetch never answered 404') },
    );
    const failedLine = new RegExp(
      `\\n\\[([^\\]]+)\\] GET 404 fetch ${server.url('/mcp/missing.json').replace(/[.?]/g, '\\$&')}( [^\\n]*)? FAILED$`,
    );
    expect(network).toMatch(failedLine);
    // The id in brackets is what a model passes to network_request for the headers and the body.
    const detail = await mcp.ok('network_request', { request_id: failedLine.exec(network)?.[1] ?? '' });
    expect(detail.text).toMatch(/^Tab \w+: network_request done\.\n/);
    expect(detail.text).toContain('\nstatus: 404\n');
    expect(detail.text).toMatch(/\nresponse_headers: \[.*"content-type"/);
  });

  it('sends a screenshot as an image, scaled to 1568 px and 1.15 MP, and JPEG on request', async () => {
    await mcp.ok('navigate', { url: server.url('/mcp/form.html') });
    const shot = await mcp.ok('screenshot');
    const image = shot.result.content.find((block): block is ImageContent => block.type === 'image');
    expect(image?.mimeType).toBe('image/png');
    // The test browser's 1280 px wide viewport is within both bounds: sent as it is, at its own size.
    const size0 = imageSize(image?.data ?? '');
    expect(size0).toMatchObject({ kind: 'png', width: 1280 });
    expect(shot.text).toMatch(
      new RegExp(`^Tab \\w+: screenshot of 1280×${size0.height} CSS px, sent as a 1280×${size0.height} px png`),
    );

    await mcp.ok('navigate', { url: server.url('/mcp/tall.html') });
    const tall = await mcp.ok('screenshot', { full_page: true, format: 'jpeg', quality: 60, max_side: 5000 });
    const tallImage = tall.result.content.find((block): block is ImageContent => block.type === 'image');
    expect(tallImage?.mimeType).toBe('image/jpeg');
    const size = imageSize(tallImage?.data ?? '');
    expect(size.kind).toBe('jpeg');
    // A page 6000+ px tall: the long side comes down to 1568 at most (a larger max_side is not honoured).
    expect(size.height).toBeLessThanOrEqual(1568);
    expect(size.height).toBeGreaterThan(1500);
    expect(size.width * size.height).toBeLessThanOrEqual(1_150_000);
    // Scaled, not cropped: the page's shape is kept.
    expect(size.height / size.width).toBeGreaterThan(4);
  });

  it('answers a bad argument and a stale index as isError with what to do next', async () => {
    const bad = await mcp.call('click', { index: 'twelve' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(
      /^click failed in tab \w+ \(INVALID_PARAMS\): click: index: .+\nNext: Fix the argument "index"/,
    );

    const unknownTool = await mcp.call('no_such_tool', {});
    expect(unknownTool.isError).toBe(true);
    expect(textOf(unknownTool)).toContain('The tools are: navigate, go_back');

    await mcp.ok('navigate', { url: server.url('/mcp/form.html') });
    await mcp.ok('state');
    const stale = await mcp.call('click', { index: 999 });
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toMatch(/ELEMENT_NOT_FOUND.*\nNext: The page changed since the state .* call state again/s);
  });

  it('says what covers an element and how to get it out of the way', async () => {
    await mcp.ok('navigate', { url: server.url('/mcp/covered.html') });
    const state = await mcp.ok('state');
    const buy = indexIn(state.text, 'Buy now');
    // The banner comes up after the state was taken: the index still names the button, now under it.
    const shown = await mcp.ok('click', { index: indexIn(state.text, 'Show the banner') });
    const accept = /\nAppeared: \[(\d+)\] button "Accept cookies"\n/.exec(shown.text)?.[1];
    expect(accept, shown.text).toBeDefined();
    const covered = await mcp.call('click', { index: buy });
    expect(covered.isError).toBe(true);
    expect(textOf(covered)).toMatch(
      /^click failed in tab \w+ \(ELEMENT_OCCLUDED\): .*is covered by <div#cookie-banner> "We use cookies.*\nNext: Get <div#cookie-banner> .* out of the way first: call state and click its close, accept or dismiss button.*\nOutcome: failed: covered_by /s,
    );
    // The index the outcome gave takes the button without a new state.
    await mcp.ok('click', { index: Number(accept) });
    const clear = await mcp.ok('state');
    await mcp.ok('click', { index: indexIn(clear.text, 'Buy now') });
    expect((await mcp.ok('state')).text).toContain('bought:yes');
  });

  it('writes a state past the answer budget to a file and links it', async () => {
    await mcp.ok('navigate', { url: server.url('/mcp/long.html') });
    const state = await mcp.ok('state', { viewport_expansion: -1, max_chars: 0 });
    const link = state.result.content.find((block): block is ResourceLink => block.type === 'resource_link');
    expect(link?.uri).toMatch(/^file:\/\//);
    expect(state.text.length).toBeLessThan(41_000);
    expect(state.text).not.toContain('the very last line');
    expect(state.result.structuredContent).toMatchObject({ saved_to: link?.uri });
    const whole = readFileSync(fileURLToPath(link?.uri ?? ''), 'utf8');
    expect(whole).toContain('Item number 2500 of the long list');
    expect(whole).toContain('the very last line');
    // The client can read it through MCP too, and only files the server linked.
    const read = await mcp.client.readResource({ uri: link?.uri ?? '' });
    expect(JSON.stringify(read.contents[0])).toContain('the very last line');
    await expect(mcp.client.readResource({ uri: `file://${config.path}` })).rejects.toThrow(
      /Not a file this server wrote/,
    );
  });

  it('saves a PDF as a linked file', async () => {
    await mcp.ok('navigate', { url: server.url('/mcp/form.html') });
    const pdf = await mcp.ok('save_as_pdf', { file_name: 'form.pdf' });
    const link = pdf.result.content.find((block): block is ResourceLink => block.type === 'resource_link');
    expect(link?.mimeType).toBe('application/pdf');
    expect(
      readFileSync(fileURLToPath(link?.uri ?? ''))
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    expect(pdf.text).toMatch(/^Tab \w+: saved as PDF/);
  });

  it('records the network to a HAR on request and links the file, which passes the HAR 1.2 schema', async () => {
    await mcp.ok('start_har', { file_name: 'traffic.har' });
    await mcp.ok('navigate', { url: server.url('/mcp/form.html') });
    const stopped = await mcp.ok('stop_har', {});
    const link = stopped.result.content.find((block): block is ResourceLink => block.type === 'resource_link');
    expect(link?.mimeType).toBe('application/json');
    const har = JSON.parse(readFileSync(fileURLToPath(link?.uri ?? ''), 'utf8')) as {
      log: { entries: Array<{ request: { url: string } }> };
    };
    expect(validateHar(har)).toEqual([]);
    expect(har.log.entries.map((entry) => entry.request.url)).toContain(server.url('/mcp/form.html'));
    expect(stopped.text).toMatch(/^HAR recorded: \d+ entries in .*traffic\.har/);
    // The traffic is in the file, not in the answer.
    expect(stopped.text.length).toBeLessThan(500);
  });

  it('keeps what it writes private on a shared machine: its output folder and the folders it makes 0700, files 0600', async () => {
    expect(statSync(config.dir).mode & 0o777).toBe(0o700);
    await mcp.ok('start_har', { file_name: 'private/kept.har' });
    await mcp.ok('navigate', { url: server.url('/mcp/form.html') });
    const stopped = await mcp.ok('stop_har', {});
    const link = stopped.result.content.find((block): block is ResourceLink => block.type === 'resource_link');
    const file = fileURLToPath(link?.uri ?? '');
    expect(file).toBe(join(config.dir, 'private', 'kept.har'));
    expect(statSync(join(config.dir, 'private')).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('reports progress on a long call when the client sent a progress token', async () => {
    const reports: Array<{ progress: number; message?: string }> = [];
    const result = await mcp.client.callTool({ name: 'wait', arguments: { seconds: 2.5 } }, CallToolResultSchema, {
      onprogress: (progress) => reports.push(progress),
    });
    expect(result.isError).not.toBe(true);
    // A wait of 2.5 s runs past two 1 s ticks however loaded the machine is.
    expect(reports.length).toBeGreaterThanOrEqual(2);
    expect(reports[1]?.progress).toBeGreaterThan(reports[0]?.progress ?? Infinity);
    expect(reports[0]?.message).toMatch(/^wait: still running after \d+ s/);
  });

  // Last: the captcha stays, and the tab refuses every action until a person solves it.
  it('says a captcha waits for a person, and what to tell them', async () => {
    const navigated = await mcp.ok('navigate', { url: server.url('/g/hcaptcha.html') });
    const tab = /^Tab (\w+)/.exec(navigated.text)?.[1];
    const state = await pollUntil(
      async () => {
        const seen = await mcp.ok('state');
        const tabs = (seen.result.structuredContent as { tabs: Array<{ tab_id: string; status: string }> }).tabs;
        return tabs.find((one) => one.tab_id === tab)?.status === 'needs_person' ? seen : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 100, onTimeout: () => new Error('the hCaptcha was never detected') },
    );
    const held = await mcp.call('click', { index: indexIn(state.text, 'Continue') });
    expect(held.isError).toBe(true);
    expect(textOf(held)).toMatch(
      /^click failed in tab \w+ \(PERSON_NEEDED\): .*hCaptcha.*\nNext: The page is waiting for a person \(a captcha or challenge page\): tell the person to solve it/s,
    );
  });
});

describe('tabpilot mcp on stdout', () => {
  it('writes nothing but JSON-RPC to stdout, logs to stderr', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--launch', '--headless', '--slim'], { stdio: 'pipe' });
    const lines: string[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.once('exit', done));
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
    );
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    await pollUntil(() => (lines.length >= 2 ? true : undefined), {
      timeoutMs: 20_000,
      intervalMs: 20,
      onTimeout: () => new Error(`no answers on stdout; stderr:\n${stderr}`),
    });
    child.stdin.end();
    expect(await exited).toBe(0);
    for (const line of lines) {
      expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    }
    const listed = JSON.parse(lines[1] ?? '{}') as { result: { tools: Array<{ name: string }> } };
    expect(listed.result.tools.map((tool) => tool.name)).toEqual([
      'navigate',
      'state',
      'click',
      'input',
      'scroll',
      'send_keys',
    ]);
    expect(stderr).toContain('serving 6 tools over stdio');
  });
});
