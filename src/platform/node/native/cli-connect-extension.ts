import { createInterface } from 'node:readline';
import { salvageRequestId } from '../../../protocol/commands';
import { connectClient, EXIT, type NativeCliContext } from './cli-action';

/** How long `connect --extension` waits for a new host when the one it used goes away. */
const RECONNECT_MS = 30_000;

/**
 * `tabpilot connect --extension`: the same JSON lines on stdin and stdout as `connect --cdp-url`,
 * through the native host into the extension, so a script written for the Node path runs unchanged
 * against the person's own browser. Every line gets one answer; with no host, each is answered with
 * the reason (and stderr says so at once).
 */
export async function runConnectExtension(context: NativeCliContext): Promise<number> {
  const client = await connectClient(context, RECONNECT_MS);
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  if (typeof client === 'number') {
    for await (const line of lines) {
      if (line.trim() === '') {
        continue;
      }
      let id = null;
      try {
        id = salvageRequestId(JSON.parse(line));
      } catch {
        // Not JSON: answered with id null, as everywhere.
      }
      context.out(
        JSON.stringify({
          id,
          ok: false,
          error: { code: 'DISCONNECTED', message: 'No tabpilot host is running; run `tabpilot doctor`' },
        }),
      );
    }
    return client;
  }
  let open = 0;
  let settle: (() => void) | undefined;
  let disconnected = false;
  client.onMessage((message) => {
    context.out(JSON.stringify(message));
    if ('ok' in message) {
      open--;
      if (!message.ok && message.error.code === 'DISCONNECTED') {
        disconnected = true;
      }
      if (open <= 0) {
        settle?.();
      }
    }
  });
  for await (const line of lines) {
    if (line.trim() === '') {
      continue;
    }
    open++;
    client.sendLine(line);
  }
  if (open > 0) {
    await new Promise<void>((resolve) => {
      settle = resolve;
    });
  }
  client.close();
  return disconnected ? EXIT.noConnection : EXIT.ok;
}
