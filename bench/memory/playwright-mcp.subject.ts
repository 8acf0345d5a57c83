import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { LaunchedBrowser } from '../../src/browser/launcher';
import { BrowserClient, launchTestBrowser } from '../../test/e2e/harness/browser';
import { pageHeap } from './page-heap';
import { answerById, NodeProcess } from './probe';
import { MIXED_KINDS, reading, type BenchUrls, type MemorySubject } from './sequence';

interface ToolAnswer {
  content?: Array<{ type: string; text?: string }>;
  isError?: boolean;
}

/**
 * Playwright MCP's server (`@playwright/mcp`, the npm package, pinned), spoken to over stdio as a coding
 * agent does, connected to a Chromium the bench started (the same flags as tabpilot's), so the same
 * pages and the same measuring client apply. Its whole-page perception is `browser_snapshot`.
 */
export class PlaywrightMcpSubject implements MemorySubject {
  readonly name = 'Playwright MCP (server)';
  readonly #browser: LaunchedBrowser;
  readonly #client: BrowserClient;
  readonly #process: NodeProcess;
  readonly #outputDir: string;
  readonly #waiting = new Map<number, (message: { result?: ToolAnswer; error?: { message: string } }) => void>();
  #nextId = 0;
  #hugeUrl = '';
  /** Tool calls that answered with an error (a snapshot past Playwright's 30 s on a loaded machine). */
  failures = 0;

  private constructor(browser: LaunchedBrowser, client: BrowserClient, process: NodeProcess, outputDir: string) {
    this.#browser = browser;
    this.#client = client;
    this.#process = process;
    this.#outputDir = outputDir;
    answerById(process.child.stdout as NodeJS.ReadableStream, this.#waiting);
  }

  static async start(): Promise<PlaywrightMcpSubject> {
    const browser = await launchTestBrowser();
    const client = await BrowserClient.connect(browser.cdpUrl);
    const outputDir = mkdtempSync(join(tmpdir(), 'tabpilot-bench-mcp-'));
    const cli = resolve(process.cwd(), 'node_modules/@playwright/mcp/cli.js');
    // Playwright gives a tool call its default 30 s; its snapshot of the huge page takes about that on a
    // loaded machine, so each page gets 5 minutes (an init page: the one hook MCP offers for it).
    const initPage = join(outputDir, 'timeout.cjs');
    writeFileSync(initPage, 'module.exports = { default: async ({ page }) => page.setDefaultTimeout(300000) };\n');
    // Responses carry no snapshot of their own (only browser_snapshot snapshots, as only tabpilot's state
    // does): navigate's snapshot on top of the huge page's load is past any fair per-call limit.
    const child = await NodeProcess.spawn(
      [
        cli,
        '--cdp-endpoint',
        browser.cdpUrl,
        '--output-dir',
        outputDir,
        '--snapshot-mode',
        'none',
        '--init-page',
        initPage,
      ],
      { cwd: outputDir },
    );
    const subject = new PlaywrightMcpSubject(browser, client, child, outputDir);
    await subject.#rpc('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'tabpilot-bench', version: '0' },
    });
    child.child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    return subject;
  }

  #rpc(method: string, params: Record<string, unknown>): Promise<ToolAnswer> {
    const id = ++this.#nextId;
    return new Promise((resolvePromise, reject) => {
      this.#waiting.set(id, (message) => {
        if (message.error !== undefined) {
          reject(new Error(`${method}: ${message.error.message}`));
        } else {
          resolvePromise(message.result ?? {});
        }
      });
      this.#process.child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  /** Calls a tool; its text length. A tool error is counted and reported, not fatal. */
  async #tool(name: string, args: Record<string, unknown> = {}): Promise<number> {
    const answer = await this.#rpc('tools/call', { name, arguments: args });
    const text = (answer.content ?? []).map((part) => part.text ?? '').join('\n');
    if (answer.isError === true) {
      this.failures++;
      process.stdout.write(`  Playwright MCP: ${name} failed: ${text.replace(/\s+/g, ' ').slice(0, 200)}\n`);
    }
    return text.length;
  }

  async openHuge(url: string): Promise<void> {
    this.#hugeUrl = url;
    await this.#tool('browser_navigate', { url });
  }

  wholePage(): Promise<number> {
    return this.#tool('browser_snapshot');
  }

  async mixed(step: number, urls: BenchUrls): Promise<void> {
    switch (step % MIXED_KINDS) {
      case 0:
        await this.#tool('browser_navigate', { url: urls.form });
        return;
      case 1:
        await this.#tool('browser_snapshot');
        return;
      case 2:
        await this.#tool('browser_click', { element: 'Bench click target', target: '#bench-btn' });
        return;
      case 3:
        await this.#tool('browser_type', { element: 'Bench input', target: '#bench-input', text: 'memory bench' });
        return;
      case 4:
        await this.#tool('browser_press_key', { key: 'PageDown' });
        return;
      case 5:
        await this.#tool('browser_find', { text: 'alpha' });
        return;
      case 6:
        await this.#tool('browser_evaluate', { function: "() => document.querySelectorAll('button').length" });
        return;
      case 7:
        await this.#tool('browser_tabs', { action: 'new', url: urls.listing });
        return;
      case 8:
        await this.#tool('browser_snapshot');
        return;
      default:
        await this.#tool('browser_tabs', { action: 'close' });
    }
  }

  async measure(collect = true): Promise<ReturnType<typeof reading>> {
    const page = await pageHeap(this.#client, this.#hugeUrl, collect);
    return reading(await this.#process.measure(collect), page);
  }

  async close(): Promise<void> {
    await this.#process.close();
    this.#client.close();
    await this.#browser.kill();
    rmSync(this.#outputDir, { recursive: true, force: true });
  }
}
