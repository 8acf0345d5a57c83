import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { TEST_FLAGS } from './browser';
import { html, page, type FixtureServer } from './fixture-server';

export const BIN = resolve(import.meta.dirname, '../../../bin/tabpilot.mjs');

/** A config file for the server under test: the test browser's flags, and anything else a test needs. */
export function mcpConfigFile(extra: Record<string, unknown> = {}): { path: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tabpilot-mcp-e2e-'));
  const path = join(dir, 'config.json');
  writeFileSync(path, JSON.stringify({ launch: { args: [...TEST_FLAGS] }, ...extra }));
  return { path, dir };
}

/** The official SDK's client, spawning `tabpilot mcp ...` over stdio as an MCP client app does. */
export class McpTestClient {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  stderr = '';

  /** `env` adds to the server's environment (TABPILOT_STATE_DIR: the test's own host folder). */
  constructor(args: string[], name = 'tabpilot-e2e', env: Record<string, string> = {}) {
    this.transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', ...args],
      stderr: 'pipe',
      env: { ...(process.env as Record<string, string>), TABPILOT_LOG_LEVEL: 'info', ...env },
    });
    this.transport.stderr?.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    this.client = new Client({ name, version: '1.0.0' });
  }

  async connect(): Promise<this> {
    await this.client.connect(this.transport);
    return this;
  }

  async call(
    name: string,
    args: Record<string, unknown> = {},
    options: { signal?: AbortSignal } = {},
  ): Promise<CallToolResult> {
    return (await this.client.callTool({ name, arguments: args }, undefined, options)) as CallToolResult;
  }

  /** A call that must succeed: its first text block. */
  async ok(name: string, args: Record<string, unknown> = {}): Promise<{ text: string; result: CallToolResult }> {
    const result = await this.call(name, args);
    const text = textOf(result);
    if (result.isError === true) {
      throw new Error(`${name} failed: ${text}\n--- server stderr ---\n${this.stderr}`);
    }
    return { text, result };
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

export function textOf(result: CallToolResult): string {
  return result.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

/** The element index the state text gives a line holding `marker`: `[12]<button /> Marker`. */
export function indexIn(stateText: string, marker: string): number {
  const line = stateText.split('\n').find((candidate) => candidate.includes(marker) && /\[\d+\]/.test(candidate));
  const index = line?.match(/\[(\d+)\]/)?.[1];
  if (index === undefined) {
    throw new Error(`no indexed line with ${marker} in:\n${stateText}`);
  }
  return Number(index);
}

/** Width and height from a PNG's header, or a baseline/progressive JPEG's frame header. */
export function imageSize(base64: string): { width: number; height: number; kind: 'png' | 'jpeg' } {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.subarray(1, 4).toString() === 'PNG') {
    return { kind: 'png', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    let offset = 2;
    while (offset < bytes.length) {
      const marker = bytes[offset + 1] ?? 0;
      const length = bytes.readUInt16BE(offset + 2);
      if (marker >= 0xc0 && marker <= 0xc2) {
        return { kind: 'jpeg', height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
      }
      offset += 2 + length;
    }
  }
  throw new Error('not a PNG or JPEG');
}

/**
 * The MCP test pages: a form whose page echoes what was typed and counts clicks (so a test reads the
 * effect from the page's own text), a button under a cookie banner, a tall page, a long list.
 */
export function addMcpPages(server: FixtureServer): void {
  server.route('/mcp/logs.html', (_req, res) =>
    html(
      res,
      page(
        'MCP logs',
        `<h1>MCP logs</h1>
         <script>
           console.warn('cache is cold');
           fetch('/mcp/missing.json');
           setTimeout(() => { throw new Error('boom at load'); }, 0);
         </script>`,
      ),
    ),
  );
  server.route('/mcp/form.html', (_req, res) =>
    html(
      res,
      page(
        'MCP form',
        `<h1>MCP form</h1>
         <label>Name <input id="name" oninput="document.getElementById('echo').textContent = 'echo:' + this.value"></label>
         <button id="go" onclick="document.getElementById('count').textContent = 'clicks:' + (++window.clicks)">Count me</button>
         <p id="echo">echo:</p><p id="count">clicks:0</p>
         <a href="/b.html" target="_blank">Open B</a>
         <script>window.clicks = 0;</script>`,
      ),
    ),
  );
  server.route('/mcp/covered.html', (_req, res) =>
    html(
      res,
      page(
        'MCP covered',
        `<button id="buy" style="position:fixed;top:20px;left:20px;width:200px;height:40px"
           onclick="document.getElementById('bought').textContent = 'bought:yes'">Buy now</button>
         <button id="offer" style="position:fixed;top:300px;left:20px"
           onclick="document.getElementById('cookie-banner').hidden = false">Show the banner</button>
         <p id="bought" style="position:fixed;top:400px">bought:no</p>
         <div id="cookie-banner" hidden style="position:fixed;inset:0 0 auto 0;height:200px;background:#eee;z-index:10">
           We use cookies <button onclick="this.parentElement.remove()">Accept cookies</button></div>`,
      ),
    ),
  );
  server.route('/mcp/tall.html', (_req, res) =>
    html(res, page('MCP tall', '<div style="height:6000px;background:linear-gradient(#fff,#36c)">tall page</div>')),
  );
  server.route('/mcp/long.html', (_req, res) => {
    const items = Array.from({ length: 2500 }, (_, n) => `<li>Item number ${n + 1} of the long list</li>`).join('');
    html(res, page('MCP long', `<ul>${items}</ul><p>the very last line</p>`));
  });
}

/**
 * A tool's hints as a client reads them: a hint left out is the MCP spec's default (read-only false,
 * destructive true, idempotent false, open world true), and a read-only tool neither destroys nor
 * differs when called twice (the spec reads those two only of a tool that writes).
 */
export function hintsRead(
  tool: Tool | undefined,
): Record<'readOnly' | 'destructive' | 'idempotent' | 'openWorld', boolean> {
  const hints = tool?.annotations ?? {};
  const readOnly = hints.readOnlyHint ?? false;
  return {
    readOnly,
    destructive: readOnly ? false : (hints.destructiveHint ?? true),
    idempotent: readOnly ? true : (hints.idempotentHint ?? false),
    openWorld: hints.openWorldHint ?? true,
  };
}
