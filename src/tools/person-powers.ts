import { declarationOf } from '../protocol/actions';
import { requireArtifacts } from '../browser/host';
import type { BrowserSession } from '../browser/session';
import { cookiesFor, sitesOf } from '../browser/storage/cookie-scope';
import { parseStorageState, parseStorageStateBytes, type StorageState } from '../browser/storage/storage-state';
import { TabpilotError } from '../shared/errors';
import type { ClientLeases } from './client-leases';

/** What a program asks the person for, in words the panel shows as they are. */
export interface PersonQuestionText {
  /** The client that asks (its name). */
  readonly client: string;
  readonly action: string;
  /** Exactly what it would do, counted for real. */
  readonly what: string;
}

/**
 * The person, where there is one to ask (the extension's side panel). Resolves when they allow it once;
 * rejects FORBIDDEN, saying why, when they refuse, when no panel is open, or when nobody answers in time.
 */
export interface PersonAsker {
  ask(question: PersonQuestionText): Promise<void>;
}

/**
 * The person's powers: exporting or importing the profile's cookies and storage, and recording the
 * traffic. A program (native or MCP client) that asks for one is asked about in the panel each time, with
 * what it would do counted; without a person to ask (the Node transport, where the operator who launched
 * it is the person) it goes on. Wherever it runs, a program's export holds only the cookies and storage
 * of the hosts of its own tabs. Granting permissions and changing the URL policy are config, which no
 * protocol client can change at all (config-fields.ts). Which actions are powers, their declarations say.
 */

export class PersonPowers {
  readonly #session: BrowserSession;
  readonly #leases: ClientLeases;
  readonly #asker: PersonAsker | undefined;

  constructor(session: BrowserSession, leases: ClientLeases, asker: PersonAsker | undefined) {
    this.#session = session;
    this.#leases = leases;
    this.#asker = asker;
  }

  /** The params to run the action with (an export held to the client's hosts), once the person allowed it. */
  async vet(action: string, params: Record<string, unknown>, client: string): Promise<Record<string, unknown>> {
    switch (declarationOf(action)?.personPower) {
      case 'export_storage':
        return this.#vetSave(params, client);
      case 'import_storage':
        await this.#ask(client, action, await this.#describeLoad(params));
        return params;
      case 'record_traffic':
        await this.#ask(client, action, this.#describeHar(params));
        return params;
      case undefined:
        return params;
    }
  }

  async #vetSave(params: Record<string, unknown>, client: string): Promise<Record<string, unknown>> {
    const own = this.#hostsOf(client);
    const named: unknown = params['hosts'];
    const given = Array.isArray(named) ? named.map(String) : undefined;
    const hosts = given === undefined ? own : given.filter((host) => own.includes(host.toLowerCase()));
    if (hosts.length === 0) {
      throw new TabpilotError(
        'FORBIDDEN',
        `save_storage_state: ${client} may save only the cookies and storage of the sites open in its own tabs, and none of its tabs shows a site${given === undefined ? '' : ' it named'}; navigate one there first`,
        { details: { hosts: own } },
      );
    }
    const scoped = { ...params, hosts };
    if (this.#asker === undefined) {
      return scoped;
    }
    const cookies = cookiesFor(await this.#profileCookies(client), hosts);
    const file = typeof params['path'] === 'string' ? params['path'] : 'the configured storage_state file';
    await this.#ask(
      client,
      'save_storage_state',
      `save ${countOf(cookies.length, 'cookie')} of ${listOf(sitesOf(cookies), 'site')} and the storage of ${listOf(hosts, 'host')} (the sites of its tabs) to ${file}`,
    );
    return scoped;
  }

  async #describeLoad(params: Record<string, unknown>): Promise<string> {
    let state: StorageState;
    let from: string;
    if (params['state'] !== undefined) {
      state = parseStorageState(params['state'], 'the state given', 'state');
      from = 'the state it sent';
    } else {
      const path = typeof params['path'] === 'string' ? params['path'] : this.#session.config.storage_state;
      if (path === null) {
        // The watchdog refuses it, naming the field: nothing to ask about.
        return 'load a storage state';
      }
      const field = typeof params['path'] === 'string' ? 'path' : 'storage_state';
      const files = requireArtifacts(this.#session.host);
      state = parseStorageStateBytes(await files.readFile(path, field), path, field);
      from = path;
    }
    const origins = state.origins.map((origin) => origin.origin);
    return `load ${countOf(state.cookies.length, 'cookie')} for ${listOf(sitesOf(state.cookies), 'site')} into the browser, and the storage of ${listOf(origins, 'origin')}, from ${from}`;
  }

  #describeHar(params: Record<string, unknown>): string {
    const tabs = this.#session.targets.pages().length;
    const file = typeof params['file_name'] === 'string' ? params['file_name'] : 'network.har';
    return `record the network traffic of every controlled tab (${countOf(tabs, 'tab')} now, and those opened later): each request's address, headers, cookies and form bodies, with the sensitive_data secrets replaced by their placeholders, to ${file}`;
  }

  async #ask(client: string, action: string, what: string): Promise<void> {
    await this.#asker?.ask({ client, action, what });
  }

  /** The hosts of the http(s) pages in the client's tabs. */
  #hostsOf(client: string): string[] {
    const hosts = new Set<string>();
    for (const targetId of this.#leases.tabsOf(client)) {
      const url = this.#session.targets.target(targetId)?.url ?? '';
      if (url.startsWith('http:') || url.startsWith('https:')) {
        hosts.add(new URL(url).hostname.toLowerCase());
      }
    }
    return [...hosts];
  }

  async #profileCookies(client: string): Promise<Array<{ domain: string }>> {
    const [tab] = this.#leases.tabsOf(client);
    if (tab === undefined) {
      return [];
    }
    const { cookies } = await this.#session.targets.requireSession(tab).send('Storage.getCookies', {});
    return cookies;
  }
}

function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

const LISTED = 5;

/** "3 sites (a.com, b.com, c.com)", "143 sites (a.com, ... and 138 more)". */
function listOf(items: readonly string[], noun: string): string {
  if (items.length === 0) {
    return `no ${noun}`;
  }
  const shown = items.slice(0, LISTED).join(', ');
  const more = items.length > LISTED ? ` and ${items.length - LISTED} more` : '';
  return `${countOf(items.length, noun)} (${shown}${more})`;
}
