import type { PolicyConfig } from '../../../src/browser/security/url-policy';
import type { EventMessage } from '../../../src/protocol/commands';
import { pollUntil } from '../../../src/shared/time';
import type { Driver, ExtensionDriver } from './drivers';
import { FixtureServer } from './fixture-server';
import { HttpsWitness } from './https-witness';
import { addSecurityPages } from './security-pages';

/**
 * Every host name resolves to loopback, so real-looking names reach the test servers (and nothing else);
 * the https server's certificate is self-signed.
 */
export const SECURITY_BROWSER_ARGS = ['--host-resolver-rules=MAP * 127.0.0.1', '--ignore-certificate-errors'];

export interface SecurityHooks {
  /** Changes config fields the way the person does on this platform (the panel's settings, the config). */
  applyConfig(driver: Driver, fields: Record<string, unknown>): Promise<void>;
  /** Permission names (as the page queries them) the driver's start config granted when it connected. */
  grantedAtStart?: readonly string[];
  /** The in-process actor's Page.goto on a tab, where the platform has one (Node). */
  actorGoto?(driver: Driver, tabId: string, url: string): Promise<unknown>;
}

export interface Blocked {
  target_id: string;
  url: string;
  rule: string;
  pattern: string | null;
  stage: string;
  frame: string;
  tab_closed: boolean;
}

/**
 * What the security tests stand on: the loopback servers (http on every address, IPv6 included, and
 * https) as witnesses of what arrived, one controlled tab, the announced blocks, and the policy set the
 * way the person sets it.
 */
export class SecurityRig {
  readonly server = new FixtureServer({ listenHost: '::' });
  readonly https = new HttpsWitness();
  driver!: Driver;
  tab = '';
  events: EventMessage[] = [];
  readonly #hooks: SecurityHooks;
  #nextTag = 1;

  constructor(hooks: SecurityHooks) {
    this.#hooks = hooks;
    addSecurityPages(this.server);
  }

  async start(start: () => Promise<Driver>): Promise<void> {
    await Promise.all([this.server.start(), this.https.start()]);
    this.driver = await start();
    this.tab = await this.driver.openTab(this.at('good.example', '/sec/empty.html'));
    await this.driver.ok('subscribe', { events: ['NavigationBlockedEvent', 'TabCreatedEvent', 'TabClosedEvent'] });
  }

  async stop(): Promise<void> {
    await this.driver?.close();
    await Promise.all([this.server.stop(), this.https.stop()]);
  }

  at(host: string, path: string): string {
    return `http://${host}:${this.server.port}${path}`;
  }

  /** Whether a request for `path` reached the http server under `host`. */
  sawPath(host: string, path: string): boolean {
    return this.server.requests.some((record) => record.path === path && record.host.startsWith(host));
  }

  /** A fresh number for a `c=<n>` query tag. */
  tag(): number {
    return this.#nextTag++;
  }

  /** Whether a request tagged `c=<n>` reached either server. */
  arrived(n: number): boolean {
    const tagged = (search: string): boolean => new URLSearchParams(search).get('c') === String(n);
    return this.server.requests.some((r) => tagged(r.query)) || this.https.requests.some((r) => tagged(r.query));
  }

  async blocks(): Promise<Blocked[]> {
    this.events.push(...(await this.driver.takeEvents()));
    return this.events
      .filter((event) => event.event === 'NavigationBlockedEvent')
      .map((event) => event.data as Blocked);
  }

  async nextBlock(predicate: (block: Blocked) => boolean, what: string): Promise<Blocked> {
    return pollUntil(async () => (await this.blocks()).find(predicate), {
      timeoutMs: 10_000,
      intervalMs: 25,
      onTimeout: () => new Error(`no NavigationBlockedEvent for ${what}`),
    });
  }

  async tabUrl(tab = this.tab): Promise<string> {
    return this.driver.evaluateInTab<string>(tab, 'location.href');
  }

  /** Sets the whole URL policy (fields not given are cleared). */
  async policy(fields: Partial<PolicyConfig>): Promise<void> {
    await this.#hooks.applyConfig(this.driver, {
      allowed_domains: [],
      prohibited_domains: [],
      block_ip_addresses: false,
      allowed_schemes: [],
      ...fields,
    });
  }

  async applyConfig(fields: Record<string, unknown>): Promise<void> {
    await this.#hooks.applyConfig(this.driver, fields);
  }
}

/**
 * Saves config fields through the extension's settings store, the very call the panel's Save makes:
 * validated, stored in chrome.storage.local, applied to every controlled tab before it answers.
 */
export async function saveSettingsInWorker(driver: ExtensionDriver, fields: Record<string, unknown>): Promise<void> {
  const outcome = await driver.inWorker<{ ok: boolean; error?: { field: string; message: string } }>(
    `globalThis.tabpilot.settings.save({ ...globalThis.tabpilot.settings.config, ...${JSON.stringify(fields)} })`,
  );
  if (!outcome.ok) {
    throw new Error(`settings refused: ${outcome.error?.field ?? ''}: ${outcome.error?.message ?? ''}`);
  }
}
