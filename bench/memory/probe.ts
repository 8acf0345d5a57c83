import { createInterface } from 'node:readline';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { CdpConnection } from '../../src/cdp/connection';
import { CdpSession } from '../../src/cdp/session';
import { WebSocketTransport } from '../../src/platform/node/ws-transport';

export const MB = 1024 * 1024;

/** Resident memory of one process (not its children), from /proc. */
export function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match?.[1] === undefined ? Number.NaN : Number(match[1]) * 1024;
}

/** A busy target (a page still computing a snapshot on a loaded machine) may take long to answer. */
const MEASURE_TIMEOUT_MS = 300_000;

/**
 * A CDP target's JS heap (a page, a worker, a Node process), after a forced full collection when `collect` (what is retained), or as it is
 * (what it holds now, garbage not yet collected included: what a person's machine sees).
 */
export async function heapOf(session: CdpSession, collect: boolean): Promise<number> {
  if (collect) {
    await session.call('HeapProfiler.collectGarbage', undefined, { timeoutMs: MEASURE_TIMEOUT_MS });
  }
  return (await session.call('Runtime.getHeapUsage', undefined, { timeoutMs: MEASURE_TIMEOUT_MS })).usedSize;
}

/**
 * A Node process started with `--inspect=127.0.0.1:0`, reached through its inspector (CDP), so the
 * figures come from the process itself: its heap after a forced collection, then its RSS.
 */
export class NodeProcess {
  readonly child: ChildProcess;
  readonly #inspector: CdpSession;
  readonly #connection: CdpConnection;

  private constructor(child: ChildProcess, connection: CdpConnection) {
    this.child = child;
    this.#connection = connection;
    this.#inspector = new CdpSession(connection, '', 'node');
  }

  /** Spawns `node --inspect=127.0.0.1:0 ...args` with stdin/stdout as pipes. */
  static async spawn(args: string[], options: { cwd?: string } = {}): Promise<NodeProcess> {
    const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
    const url = await new Promise<string>((resolve, reject) => {
      let text = '';
      const timer = setTimeout(() => reject(new Error(`no inspector URL from ${args.join(' ')}:\n${text}`)), 30_000);
      child.stderr?.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const match = /Debugger listening on (ws:\/\/\S+)/.exec(text);
        if (match?.[1] !== undefined) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}):\n${text}`)));
    });
    child.stderr?.resume();
    const connection = new CdpConnection(await WebSocketTransport.connect(url), { timeoutMs: 120_000 });
    return new NodeProcess(child, connection);
  }

  /** JS heap used (after a forced collection unless `collect` is false), then the resident memory, in bytes. */
  async measure(collect = true): Promise<{ rss: number; heap: number }> {
    const heap = await heapOf(this.#inspector, collect);
    const pid = this.child.pid;
    return { rss: pid === undefined ? Number.NaN : rssOf(pid), heap };
  }

  async close(): Promise<void> {
    this.#connection.close('bench done');
    if (this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.stdin?.end();
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
      this.child.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
    }
  }
}

/**
 * Hands each JSON line a child writes on stdout to the waiter registered for its `id` (and forgets the
 * waiter); lines without a waiter (notifications, logs) are skipped.
 */
export function answerById<T>(stdout: NodeJS.ReadableStream, waiting: Map<number, (message: T) => void>): void {
  createInterface({ input: stdout }).on('line', (line) => {
    const message = JSON.parse(line) as T & { id?: number };
    const waiter = message.id === undefined ? undefined : waiting.get(message.id);
    if (waiter !== undefined && message.id !== undefined) {
      waiting.delete(message.id);
      waiter(message);
    }
  });
}
