import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { imageSize } from '../../test/e2e/harness/mcp';

/** A slow page (the huge one) on a loaded machine: no per-call limit of the client's should cut a figure. */
const CALL_TIMEOUT_MS = 300_000;

/** What one tool answer costs a model: its text, its images, and the whole answer as it crosses the wire. */
export interface AnswerSize {
  /** Characters of every text block (what the model reads as text). */
  text_chars: number;
  /** Base64 characters of every image block. */
  image_chars: number;
  /** The widest image's pixels, `1280x720`, or empty. */
  image_px: string;
  /** The whole `CallToolResult` as JSON (text, images, structuredContent, links). */
  wire_chars: number;
}

export interface TimedAnswer {
  ms: number;
  result: CallToolResult;
  text: string;
}

export function sizeOf(result: CallToolResult): AnswerSize {
  let text = 0;
  let image = 0;
  let px = '';
  for (const block of result.content) {
    if (block.type === 'text') {
      text += block.text.length;
    } else if (block.type === 'image') {
      image += block.data.length;
      const size = imageSize(block.data);
      px = `${size.width}x${size.height}`;
    }
  }
  return { text_chars: text, image_chars: image, image_px: px, wire_chars: JSON.stringify(result).length };
}

/**
 * The MCP SDK's own client over stdio, as a coding agent's app runs a server: spawns it, times each tool
 * call from request to answer, and fails loudly on an error answer (a figure of a failed call is no figure).
 */
export class TimedMcpClient {
  readonly name: string;
  readonly #client: Client;
  #stderr = '';

  private constructor(name: string, client: Client) {
    this.name = name;
    this.#client = client;
  }

  static async start(
    name: string,
    args: string[],
    options: { env?: Record<string, string>; cwd?: string } = {},
  ): Promise<TimedMcpClient> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args,
      stderr: 'pipe',
      env: { ...(process.env as Record<string, string>), ...options.env },
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
    const client = new Client({ name: 'tabpilot-bench', version: '1.0.0' });
    const timed = new TimedMcpClient(name, client);
    transport.stderr?.on('data', (chunk: Buffer) => {
      timed.#stderr = `${timed.#stderr}${chunk.toString()}`.slice(-4000);
    });
    await client.connect(transport, { timeout: CALL_TIMEOUT_MS });
    return timed;
  }

  async call(tool: string, args: Record<string, unknown>): Promise<TimedAnswer> {
    const started = performance.now();
    const result = (await this.#client.callTool({ name: tool, arguments: args }, undefined, {
      timeout: CALL_TIMEOUT_MS,
    })) as CallToolResult;
    const ms = performance.now() - started;
    const text = result.content
      .filter((block) => block.type === 'text')
      .map((block) => block.text)
      .join('\n');
    if (result.isError === true) {
      throw new Error(`${this.name}: ${tool} failed: ${text.slice(0, 500)}\n--- its stderr ---\n${this.#stderr}`);
    }
    return { ms, result, text };
  }

  /** The server's tools/list: how many tools, and the JSON of the tools array, as a client sends its model. */
  async toolList(): Promise<{ tools: number; chars: number }> {
    const { tools } = await this.#client.listTools(undefined, { timeout: CALL_TIMEOUT_MS });
    return { tools: tools.length, chars: JSON.stringify(tools).length };
  }

  close(): Promise<void> {
    return this.#client.close();
  }
}
