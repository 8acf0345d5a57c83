import { ExtensionDriver } from '../../test/e2e/harness/drivers';
import { pageHeap } from './page-heap';
import { heapOf } from './probe';
import { reading, reduceResponse, tabpilotMixed, type BenchUrls, type MemorySubject, type Reduced } from './sequence';

/**
 * tabpilot in the built extension: the same commands through the worker's own CommandServer (as the
 * panel or a native client would send them), answers reduced inside the worker so a whole-page state
 * never crosses to the bench. The worker's figure is its JS heap (a service worker has no process of its
 * own to read RSS from).
 */
export class ExtensionSubject implements MemorySubject {
  readonly name = 'tabpilot (extension worker)';
  readonly #driver: ExtensionDriver;
  readonly #memo: { button?: number; input?: number; tab?: string } = {};
  #nextId = 0;
  #hugeUrl = '';

  private constructor(driver: ExtensionDriver) {
    this.#driver = driver;
  }

  static async start(): Promise<ExtensionSubject> {
    return new ExtensionSubject(await ExtensionDriver.start());
  }

  #send(action: string, params: Record<string, unknown> = {}): Promise<Reduced> {
    const request = JSON.stringify({ id: ++this.#nextId, action, params });
    return this.#driver.inWorker<Reduced>(
      `(async () => (${reduceResponse.toString()})(await globalThis.__e2e.client.handle(${request})))()`,
    );
  }

  async openHuge(url: string): Promise<void> {
    this.#hugeUrl = url;
    await this.#driver.openTab(url);
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
    const page = await pageHeap(this.#driver.client, this.#hugeUrl, collect);
    return reading({ heap: await heapOf(this.#driver.worker, collect) }, page);
  }

  async close(): Promise<void> {
    await this.#driver.close();
  }
}
