import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { FakeModelServer, indexOf, type ModelRequestView, type ScriptedReply } from './harness/fake-model-server';
import { FixtureServer } from './harness/fixture-server';
import { addMcpPages, hintsRead, mcpConfigFile, McpTestClient, textOf } from './harness/mcp';

/**
 * The `run` tool of `tabpilot mcp --launch`: a coding agent hands a whole task to tabpilot's own agent,
 * which does it with the model of the server's config (a scripted one here) and answers the done text.
 */
describe('tabpilot mcp --launch: the run tool', () => {
  const pages = new FixtureServer();
  const model = new FakeModelServer(() => ({ kind: 'hang' }));
  let config: { path: string; dir: string };
  let mcp: McpTestClient;

  /** Open the form, type a name, press the button, report what the page says. */
  const script = (request: ModelRequestView): ScriptedReply => {
    const page = request.user;
    if (!page.includes('/mcp/form.html')) {
      return { kind: 'tools', calls: [{ name: 'navigate', input: { url: pages.url('/mcp/form.html') } }] };
    }
    if (!page.includes('echo:Ada')) {
      return {
        kind: 'tools',
        calls: [
          { name: 'input', input: { index: indexOf(page, 'id=name'), text: 'Ada' } },
          { name: 'click', input: { index: indexOf(page, 'Count me') } },
        ],
      };
    }
    const count = /clicks:\d+/.exec(page)?.[0] ?? 'no count';
    return {
      kind: 'tools',
      calls: [{ name: 'done', input: { text: `The page says echo:Ada and ${count}`, success: true } }],
    };
  };

  beforeAll(async () => {
    addMcpPages(pages);
    await Promise.all([pages.start(), model.start()]);
    model.useScript(script);
    config = mcpConfigFile({ agent: { provider: 'openai', model: 'fake-model', base_url: model.baseUrl } });
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
    await Promise.all([pages.stop(), model.stop()]);
    rmSync(config.dir, { recursive: true, force: true });
  });

  it('is listed, with its schema and annotations, once the config names a model', async () => {
    const { tools } = await mcp.client.listTools();
    const run = tools.find((tool) => tool.name === 'run');
    expect(run?.inputSchema.required).toEqual(['task']);
    expect(hintsRead(run)).toMatchObject({ readOnly: false, destructive: true, openWorld: true });
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['pause_run', 'resume_run', 'stop_run', 'approve', 'runs', 'run_history', 'rerun']),
    );
  });

  it('does the task in the browser and answers the done text', async () => {
    const result = CallToolResultSchema.parse(
      await mcp.client.callTool({ name: 'run', arguments: { task: 'Type Ada into the form and press the button.' } }),
    );
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toContain('The page says echo:Ada and clicks:1');
    expect(model.requests).toHaveLength(3);
    expect(model.scriptErrors).toEqual([]);
  });
});
