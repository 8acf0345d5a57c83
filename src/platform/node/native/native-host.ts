import type { Readable, Writable } from 'node:stream';
import {
  EXTENSION_ORIGIN,
  NATIVE_PROTOCOL_VERSION,
  type ExtensionInfo,
  type HostInfo,
} from '../../../protocol/native-messages';
import type { HostRecord } from '../../../protocol/native-socket';
import { errorMessageOf } from '../../../shared/errors';
import type { Logger } from '../../../shared/logger';
import { Broker } from './broker';
import { ChromeLink } from './chrome-link';
import { removeRecord, removeStaleRecords, writeRecord } from './discovery';
import { ensurePrivateDir, socketPathFor, type StatePaths } from './state-dir';

export interface NativeHostOptions {
  /** argv[1] as Chrome passes it: the caller's origin. */
  origin: string | undefined;
  input: Readable;
  output: Writable;
  paths: StatePaths;
  log: Logger;
  version: string;
  pid: number;
  userDataDir: string | null;
  /** False for doctor's probe: a host that says hello but that no client can find. */
  publish: boolean;
  /** Smaller limits for tests (defaults: Chrome's 64 MiB frame cap, 64 MiB client lines). */
  limits?: { frameBytes?: number; lineBytes?: number };
  /** Aborted by the entry on SIGTERM and the like: the host stops as on stdin EOF. */
  signal?: AbortSignal;
}

/**
 * `tabpilot host`: the process Chrome starts for the extension's connectNative. It refuses any caller
 * but our extension, listens on a private Unix socket for local clients, publishes where it listens,
 * and relays between the clients and the worker until Chrome closes stdin; then it answers whatever is
 * still open with DISCONNECTED, removes its socket and record, and exits 0.
 */
export async function runNativeHost(options: NativeHostOptions): Promise<number> {
  const { log, paths } = options;
  if (options.origin !== EXTENSION_ORIGIN) {
    log.error('refused: started by an origin that is not the tabpilot extension', { origin: options.origin ?? null });
    return 1;
  }
  ensurePrivateDir(paths.root);
  ensurePrivateDir(paths.run);
  const cleaned = removeStaleRecords(paths.run);
  if (cleaned > 0) {
    log.info('removed the records of hosts that are gone', { count: cleaned });
  }
  const socket = socketPathFor(paths, options.pid);
  if (!socket.startsWith(paths.run)) {
    ensurePrivateDir(socket.slice(0, socket.lastIndexOf('/')));
  }
  const info: HostInfo = {
    pid: options.pid,
    version: options.version,
    socket,
    user_data_dir: options.userDataDir,
    started_at: Date.now(),
  };
  let extension: ExtensionInfo | null = null;
  const record = (): HostRecord => ({
    pid: info.pid,
    socket,
    extension_id: EXTENSION_ORIGIN.slice('chrome-extension://'.length, -1),
    user_data_dir: info.user_data_dir,
    profile_id: extension?.profile_id ?? null,
    browser: extension?.browser ?? null,
    version: info.version,
    started_at: info.started_at,
  });

  const publish = (): void => {
    if (options.publish) {
      writeRecord(paths.run, record());
    }
  };
  const link = new ChromeLink(options.input, options.output, log.child('chrome'), options.limits?.frameBytes);
  const broker = new Broker({
    link,
    log: log.child('broker'),
    host: () => info,
    extension: () => extension,
    ...(options.limits?.lineBytes === undefined ? {} : { lineLimitBytes: options.limits.lineBytes }),
  });
  let finish: (code: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => {
    finish = resolve;
  });
  let stopping = false;
  const stop = async (reason: string): Promise<void> => {
    if (stopping) {
      return;
    }
    stopping = true;
    log.info('stopping', { reason, open_requests: broker.openRequests, clients: broker.clientCount });
    removeRecord(paths.run, info.pid);
    await broker.shutdown(
      `The browser closed tabpilot's native host (${reason}): the extension stopped, reloaded or was turned off; retry once it is back.`,
    );
    finish(0);
  };
  try {
    await broker.listen(socket);
  } catch (error) {
    log.error('cannot listen on the socket', { socket, error: errorMessageOf(error) });
    return 1;
  }
  link.start({
    message: (message) => {
      switch (message.type) {
        case 'hello':
          extension = message.extension;
          log.info('extension said hello', { ...message.extension, protocol: message.protocol });
          publish();
          return;
        case 'protocol_error':
          log.warn('the extension could not read a frame of ours', message.error);
          return;
        case 'chunk':
          return;
        case 'response':
        case 'event':
        case 'pong':
        case 'client_status':
        case 'disconnect_client':
          broker.fromWorker(message);
          return;
      }
    },
    bad: () => undefined,
    end: (reason) => void stop(reason),
  });
  publish();
  link.send({ type: 'hello', protocol: NATIVE_PROTOCOL_VERSION, host: info });
  log.info('listening', { socket, pid: info.pid, user_data_dir: info.user_data_dir });
  options.signal?.addEventListener('abort', () => void stop(String(options.signal?.reason ?? 'stopped')), {
    once: true,
  });
  const code = await finished;
  await link.flushed();
  return code;
}
