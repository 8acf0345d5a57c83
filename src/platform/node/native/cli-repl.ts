import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { isEventMessage } from '../../../protocol/commands';
import { errorMessageOf } from '../../../shared/errors';
import { CliUsageError, splitWords } from './cli-params';
import { formatEvent } from './cli-format';
import { connectClient, EXIT, paramsFor, printResponse, type NativeCliContext } from './cli-action';
import { fieldOf, isRecord } from '../../../shared/narrow';

const HELP = `Type an action and its params, as on the command line:
  navigate --url example.com        state        click --index 3        tabs
  input --index 2 --text "hello"    navigate '{"url": "example.com", "new_tab": true}'
  {"id": 1, "action": "tabs"}       (a raw protocol request)
.json toggles JSON output, .help shows this, .exit (or Ctrl-D) quits. "describe" lists every action.`;

/** How long the REPL waits for the extension to start a new host when the one it used goes away. */
const RECONNECT_MS = 60_000;

/**
 * `tabpilot repl`: an interactive session through the host. One line, one command; its answer is
 * printed before the next prompt. Events it subscribed to are printed as they come. When the host goes
 * away it waits for the next one and goes on.
 */
export async function runRepl(
  context: NativeCliContext,
  io: { input: Readable; output: Writable; banner?: string } = { input: process.stdin, output: process.stdout },
): Promise<number> {
  const client = await connectClient(context, RECONNECT_MS);
  if (typeof client === 'number') {
    return client;
  }
  let json = context.json;
  const view = (): NativeCliContext => ({ ...context, json });
  const interactive = 'isTTY' in io.input && io.input.isTTY === true;
  const lines: Interface = createInterface({ input: io.input, output: io.output, terminal: interactive });
  const prompt = (): void => {
    if (interactive) {
      lines.prompt();
    }
  };
  lines.setPrompt(`${context.client}> `);
  client.onMessage((message) => {
    if (isEventMessage(message)) {
      context.out(json ? JSON.stringify(message) : formatEvent(message));
    }
  });
  client.onState((state) => {
    if (state === 'reconnecting') {
      context.err('tabpilot: the host went away; waiting for the extension to start a new one…');
    } else if (state === 'connected') {
      context.err('tabpilot: connected again.');
    }
  });
  context.err(
    io.banner ??
      `Connected to the tabpilot host ${client.record?.pid ?? ''} as ${context.client}${client.welcome?.extension === null ? '' : ` (${client.welcome?.extension?.browser ?? ''})`}. .help for help.`,
  );
  prompt();
  let nextId = 0;
  let lastCode: number = EXIT.ok;
  for await (const raw of lines) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) {
      prompt();
      continue;
    }
    if (line === '.exit' || line === '.quit') {
      break;
    }
    if (line === '.help') {
      context.out(HELP);
      prompt();
      continue;
    }
    if (line === '.json') {
      json = !json;
      context.out(`JSON output ${json ? 'on' : 'off'}`);
      prompt();
      continue;
    }
    try {
      if (line.startsWith('{')) {
        const request: unknown = JSON.parse(line);
        const named = fieldOf(request, 'action');
        const action = typeof named === 'string' ? named : '';
        const params = fieldOf(request, 'params');
        if (params !== undefined && !isRecord(params)) {
          throw new CliUsageError(`${action}: the params must be a JSON object`);
        }
        const response = await client.request(action, params);
        printResponse(view(), action, response);
        lastCode = response.ok ? EXIT.ok : EXIT.errorAnswer;
      } else {
        const [action, ...words] = splitWords(line);
        if (action === undefined) {
          prompt();
          continue;
        }
        const response = await client.request(action, paramsFor(context.catalog, action, words));
        printResponse(view(), action, response);
        lastCode = response.ok ? EXIT.ok : EXIT.errorAnswer;
      }
    } catch (error) {
      context.err(`tabpilot: ${error instanceof CliUsageError ? error.message : errorMessageOf(error)}`);
      lastCode = EXIT.usage;
    }
    nextId++;
    if (client.state === 'closed') {
      context.err('tabpilot: the host is gone and no new one came; run `tabpilot doctor`.');
      lines.close();
      return EXIT.noConnection;
    }
    prompt();
  }
  client.close();
  return nextId === 0 ? EXIT.ok : lastCode;
}
