import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { errorMessageOf } from '../../../shared/errors';

export interface McpPathCheck {
  ok: boolean;
  detail: string;
  fix?: string;
}

export interface McpPathOptions {
  /** The command an MCP client app runs: this Node and this CLI, as the snippet of --print-config says. */
  node: string;
  cli: string;
  stateDir: string;
  userDataDir: string | undefined;
  timeoutMs?: number;
}

/**
 * The MCP path as a coding agent takes it: starts `tabpilot mcp --extension` over stdio with the MCP
 * SDK's own client, lists its tools and calls `tabs`, which goes through the host into the extension.
 */
export async function checkMcpPath(options: McpPathOptions): Promise<McpPathCheck> {
  let stderr = '';
  const transport = new StdioClientTransport({
    command: options.node,
    args: [
      options.cli,
      'mcp',
      '--extension',
      ...(options.userDataDir === undefined ? [] : ['--user-data-dir', options.userDataDir]),
    ],
    env: { ...definedEnv(process.env), TABPILOT_STATE_DIR: options.stateDir },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr = `${stderr}${chunk.toString()}`.slice(-2000);
  });
  const client = new Client({ name: 'tabpilot-doctor', version: '1' });
  const timeout = { timeout: options.timeoutMs ?? 20_000 };
  try {
    await client.connect(transport, timeout);
    const { tools } = await client.listTools(undefined, timeout);
    // The client checked the answer against the full result already; the parse keeps its type, not the compat one.
    const result = CallToolResultSchema.parse(
      await client.callTool({ name: 'tabs', arguments: {} }, undefined, timeout),
    );
    const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join(' ');
    if (result.isError === true) {
      return {
        ok: false,
        detail: `tabpilot mcp started (${tools.length} tools) but its tabs call failed: ${text}`,
        fix: 'Fix the links above first; if they all work, run the MCP server by hand (tabpilot mcp) and read its stderr',
      };
    }
    return {
      ok: true,
      detail: `tabpilot mcp --extension lists ${tools.length} tools and its tabs call reached the extension`,
    };
  } catch (error) {
    return {
      ok: false,
      detail: `tabpilot mcp did not answer over stdio: ${errorMessageOf(error)}${stderr === '' ? '' : `; its stderr: ${stderr.trim()}`}`,
      fix: `Run "${options.node}" "${options.cli}" mcp --help to see it start; reinstall tabpilot if it does not`,
    };
  } finally {
    await client.close();
  }
}

/** The variables of `env` that are set: a child's environment takes strings only. */
function definedEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const defined: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined) {
      defined[name] = value;
    }
  }
  return defined;
}
