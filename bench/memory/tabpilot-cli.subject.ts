import { resolve } from 'node:path';
import type { LaunchedBrowser } from '../../src/browser/launcher';
import { BrowserClient, launchTestBrowser } from '../../test/e2e/harness/browser';
import { pageHeap } from './page-heap';
import { answerById, NodeProcess } from './probe';
import { reading, reduceResponse, tabpilotMixed, type BenchUrls, type MemorySubject, type Reduced } from './sequence';

/**
 * tabpilot as a program runs it: `tabpilot connect` (the Node CLI, one JSON request per line on stdin)
 * to a Chromium the bench started, so the measuring client can read the page's heap too.
 */
export class TabpilotCliSubject implements MemorySubject {
  readonly name = 'tabpilot (Node CLI)';
  readonly #browser: LaunchedBrowser;
  readonly #client: BrowserClient;
  readonly #process: NodeProcess;
  readonly #waiting = new Map<number, (response: Parameters<typeof reduceResponse>[0]) => void>();
  readonly #memo: { button?: number; input?: number; tab?: string } = {};
  #nextId = 0;
  #hugeUrl = '';

  private constructor(browser: LaunchedBrowser, client: BrowserClient, process: NodeProcess) {
    this.#browser = browser;
    this.#client = client;
    this.#process = process;
    answerById(process.child.stdout as NodeJS.ReadableStream, this.#waiting);
  }

  static async start(): Promise<TabpilotCliSubject> {
    const browser = await launchTestBrowser();
    const client = await BrowserClient.connect(browser.cdpUrl);
    const cli = resolve(process.cwd(), 'bin/tabpilot.mjs');
    const child = await NodeProcess.spawn([cli, 'connect', '--cdp-url', browser.cdpUrl]);
    const subject = new TabpilotCliSubject(browser, client, child);
    // The first answer means the session is up.
    await subject.#send('tabs');
    return subject;
  }

  #send(action: string, params: Record<string, unknown> = {}): Promise<Reduced> {
    const id = ++this.#nextId;
    return new Promise((resolvePromise) => {
      this.#waiting.set(id, (response) => resolvePromise(reduceResponse(response)));
      this.#process.child.stdin?.write(`${JSON.stringify({ id, action, params })}\n`);
    });
  }

  async openHuge(url: string): Promise<void> {
    this.#hugeUrl = url;
    const answer = await this.#send('navigate', { url, timeout_ms: 60_000 });
    if (!answer.ok) {
      throw new Error(`navigate: ${answer.error ?? ''}`);
    }
  }

  async wholePage(): Promise<number> {
    const answer = await this.#send('state', { viewport_expansion: -1, max_chars: 0 });
    if (!answer.ok) {
      throw new Error(`state: ${answer.error ?? ''}`);
    }
    return answer.chars;
  }

  mixed(step: number, urls: BenchUrls): Promise<void> {
    return tabpilotMixed((action, params) => this.#send(action, params), step, urls, this.#memo);
  }

  async measure(collect = true): Promise<ReturnType<typeof reading>> {
    const page = await pageHeap(this.#client, this.#hugeUrl, collect);
    return reading(await this.#process.measure(collect), page);
  }

  async close(): Promise<void> {
    await this.#process.close();
    this.#client.close();
    await this.#browser.kill();
  }
}
