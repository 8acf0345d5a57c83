import { replayParams } from './cli-replay';
import type { CommandResponse } from '../../../protocol/commands';
import type { ClientName } from '../../../protocol/native-messages';
import { errorMessageOf, isTabpilotError } from '../../../shared/errors';
import { catalogSchemas, type ActionCatalog } from './cli-catalog';
import { CliUsageError, parseParams } from './cli-params';
import { formatError, formatResult } from './cli-format';
import { outcomeText } from '../../../protocol/outcome-text';
import { HostClient } from './host-client';

/**
 * Exit codes of the commands that go through the host: an error answer is not a broken connection,
 * so a script can tell "the click found no element" from "the browser is not there".
 */
export const EXIT = { ok: 0, errorAnswer: 1, usage: 2, noConnection: 3 } as const;

export interface NativeCliContext {
  client: ClientName;
  stateDir: string;
  userDataDir: string | undefined;
  json: boolean;
  /** Ask an acting action for its verified outcome, printed after its answer. */
  outcome: boolean;
  /** Every action's params, from the build (no `describe` round trip). */
  catalog: ActionCatalog;
  out: (text: string) => void;
  err: (text: string) => void;
}

export function exitCodeOf(response: CommandResponse): number {
  if (response.ok) {
    return EXIT.ok;
  }
  return response.error.code === 'DISCONNECTED' ? EXIT.noConnection : EXIT.errorAnswer;
}

export async function connectClient(
  context: Omit<NativeCliContext, 'catalog'>,
  reconnectMs = 0,
): Promise<HostClient | number> {
  try {
    const client = await HostClient.connect({
      client: context.client,
      stateDir: context.stateDir,
      reconnectMs,
      ...(context.userDataDir === undefined ? {} : { userDataDir: context.userDataDir }),
    });
    client.onNotice((notice) => context.err(`tabpilot: ${notice.message}`));
    return client;
  } catch (error) {
    context.err(`tabpilot: ${errorMessageOf(error)}`);
    return isTabpilotError(error) && error.code !== 'DISCONNECTED' ? EXIT.errorAnswer : EXIT.noConnection;
  }
}

/** Params from the words after the action, read by the types the catalog gives them. */
export function paramsFor(catalog: ActionCatalog, action: string, words: readonly string[]): Record<string, unknown> {
  // replay reads its flow from a file named first: `tabpilot replay FLOW --param name=value`.
  if (action === 'replay' && !(words.length === 1 && (words[0] ?? '').trim().startsWith('{'))) {
    return replayParams(words);
  }
  return parseParams(action, words, catalogSchemas(catalog));
}

export function printResponse(context: NativeCliContext, action: string, response: CommandResponse): void {
  if (context.json) {
    context.out(JSON.stringify(response));
    return;
  }
  if (response.ok) {
    context.out(formatResult(action, response.result));
  } else {
    context.err(formatError(response));
  }
  if (response.outcome !== undefined) {
    (response.ok ? context.out : context.err)(outcomeText(response.outcome));
  }
}

/** `tabpilot <action> [--param value ...]` or `tabpilot <action> '<json>'`: one command, one answer. */
export async function runAction(context: NativeCliContext, action: string, words: readonly string[]): Promise<number> {
  // Bad usage is answered before looking for a host: it is wrong whether or not one runs.
  let params: Record<string, unknown>;
  try {
    params = paramsFor(context.catalog, action, words);
  } catch (error) {
    if (error instanceof CliUsageError) {
      context.err(`tabpilot: ${error.message}`);
      return EXIT.usage;
    }
    throw error;
  }
  const client = await connectClient(context);
  if (typeof client === 'number') {
    return client;
  }
  try {
    const response = await client.request(action, params, context.outcome ? { outcome: true } : {});
    printResponse(context, action, response);
    return exitCodeOf(response);
  } finally {
    client.close();
  }
}
