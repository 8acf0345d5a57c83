import { CdpConnection } from '../../../cdp/connection';
import { CdpSession } from '../../../cdp/session';
import { EXTENSION_ID } from '../../../protocol/native-messages';
import { TabpilotError } from '../../../shared/errors';
import { pollUntil } from '../../../shared/time';
import { WebSocketTransport } from '../ws-transport';
import { saveClientKey } from './client-keys';

/**
 * Allows this program (its client name, on the Node running now) until revoked, in a browser we
 * launched ourselves and hold through DevTools: the worker issues a key bound to this executable and
 * we keep it where the client library looks. `npm start` does this for its own REPL and CLI in its
 * dedicated profile, since the person just ran the command; nothing else may, as nothing else holds
 * the browser's DevTools.
 */
export async function preallowOwnClient(options: { cdpUrl: string; stateDir: string; client: string }): Promise<void> {
  const connection = new CdpConnection(await WebSocketTransport.connect(options.cdpUrl), { timeoutMs: 30_000 });
  try {
    const root = new CdpSession(connection, '', 'browser');
    const targetId = await pollUntil(
      async () =>
        (await root.send('Target.getTargets')).targetInfos.find(
          (target) => target.type === 'service_worker' && target.url.startsWith(`chrome-extension://${EXTENSION_ID}/`),
        )?.targetId,
      { timeoutMs: 15_000, intervalMs: 100, onTimeout: () => new Error('the extension service worker did not start') },
    );
    const { sessionId } = await root.send('Target.attachToTarget', { targetId, flatten: true });
    const worker = new CdpSession(connection, sessionId, targetId);
    // The worker's composition root is exposed once its module has run.
    await pollUntil(
      async () =>
        (await worker.send('Runtime.evaluate', { expression: "typeof globalThis.tabpilot === 'object'" })).result
          .value === true
          ? true
          : undefined,
      {
        timeoutMs: 15_000,
        intervalMs: 100,
        onTimeout: () => new Error('the worker never exposed globalThis.tabpilot'),
      },
    );
    const expression = `(async () => { await globalThis.tabpilot.ready; return globalThis.tabpilot.native.preallow(${JSON.stringify(options.client)}, ${JSON.stringify(process.execPath)}); })()`;
    const answer = await worker.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    const key: unknown = answer.result.value;
    if (answer.exceptionDetails !== undefined || typeof key !== 'string') {
      throw new TabpilotError(
        'INTERNAL',
        `the extension did not pre-allow ${options.client}: ${answer.exceptionDetails?.exception?.description ?? 'no key'}`,
      );
    }
    saveClientKey(options.stateDir, options.client, process.execPath, key);
  } finally {
    connection.close('pre-allowed');
  }
}
