import { createServer, connect, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandResponse } from '../src/protocol/commands';
import { saveClientKey } from '../src/platform/node/native/client-keys';
import { SocketTable, identifyPeer } from '../src/platform/node/native/peer-identity';
import { NativeChain } from '../test/e2e/harness/native';
import { median, percentile, round } from './stats';

/**
 * What consent costs a client (issue 24): a new connection's first command (connect, hello, the
 * system's word on the caller, then `tabs`) with consent off and with consent on for a program allowed
 * until revoked (its key checked), every later command on each, and the peer lookup alone (ss + /proc).
 */

export interface ConsentFigures {
  rows: Array<{ path: string; samples: number; median_ms: number; p90_ms: number }>;
  first_command_added_median_ms: number;
  later_command_added_median_ms: number;
}

const FIRST = 15;
const LATER = 200;

function ok(response: CommandResponse): void {
  if (!response.ok) {
    throw new Error(`${response.error.code}: ${response.error.message}`);
  }
}

function row(path: string, samples: number[]): ConsentFigures['rows'][number] {
  return { path, samples: samples.length, median_ms: round(median(samples)), p90_ms: round(percentile(samples, 90)) };
}

async function peerLookups(count: number): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tabpilot-bench-peer-'));
  const path = join(dir, 's.sock');
  const accepted: Socket[] = [];
  let waiting: ((socket: Socket) => void) | undefined;
  const server = createServer((socket) => (waiting === undefined ? accepted.push(socket) : waiting(socket)));
  await new Promise<void>((resolve) => server.listen(path, resolve));
  const samples: number[] = [];
  // One lookup at a time, so each one reads the socket table itself (the broker shares reads between lookups).
  const table = new SocketTable();
  try {
    for (let i = 0; i < count; i++) {
      const socket = await new Promise<Socket>((resolve) => {
        waiting = resolve;
        connect(path);
      });
      const started = performance.now();
      if ((await identifyPeer(socket, table)) === null) {
        throw new Error('the system did not name the peer (no ss?)');
      }
      samples.push(performance.now() - started);
      socket.destroy();
    }
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return samples;
}

export async function benchConsent(): Promise<ConsentFigures> {
  const chain = await NativeChain.start();
  try {
    await chain.host();
    const timeFirst = async (client: string): Promise<number[]> => {
      const samples: number[] = [];
      for (let i = 0; i < FIRST; i++) {
        const started = performance.now();
        const connection = await chain.connect(client);
        ok(await connection.request('tabs'));
        samples.push(performance.now() - started);
        connection.close();
      }
      return samples;
    };
    const timeLater = async (client: string): Promise<number[]> => {
      const connection = await chain.connect(client);
      const samples: number[] = [];
      for (let i = 0; i < LATER + 20; i++) {
        const started = performance.now();
        ok(await connection.request('tabs'));
        samples.push(performance.now() - started);
      }
      connection.close();
      return samples.slice(20);
    };
    // Warm both roads before timing.
    await timeFirst('tabpilot:warm');
    const offFirst = await timeFirst('tabpilot:open');
    const offLater = await timeLater('tabpilot:open');

    const key = await chain.inWorker<string>(
      `globalThis.tabpilot.native.preallow('tabpilot:allowed', ${JSON.stringify(process.execPath)})`,
    );
    saveClientKey(chain.stateDir, 'tabpilot:allowed', process.execPath, key);
    await chain.inWorker(
      `globalThis.tabpilot.settings.save({ ...globalThis.tabpilot.settings.config, native_clients: { enabled: true, approve_new_clients: true } })`,
    );
    const onFirst = await timeFirst('tabpilot:allowed');
    const onLater = await timeLater('tabpilot:allowed');
    const lookups = await peerLookups(FIRST);
    const rows = [
      row('first command, consent off (connect + hello + tabs)', offFirst),
      row('first command, consent on, allowed until revoked (key checked)', onFirst),
      row('later command, consent off (tabs)', offLater),
      row('later command, consent on, allowed (tabs)', onLater),
      row('peer lookup alone (ss -xpn + /proc), in every first command', lookups),
    ];
    return {
      rows,
      first_command_added_median_ms: round(median(onFirst) - median(offFirst)),
      later_command_added_median_ms: round(median(onLater) - median(offLater)),
    };
  } finally {
    await chain.close();
  }
}
