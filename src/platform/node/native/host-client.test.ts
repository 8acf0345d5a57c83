import { createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostNotice } from '../../../protocol/native-socket';
import { writeRecord } from './discovery';
import { HostClient } from './host-client';
import { ensurePrivateDir, statePaths } from './state-dir';

const dirs: string[] = [];
const servers: Server[] = [];

afterEach(() => {
  for (const server of servers.splice(0)) {
    server.close();
  }
  for (const dir of dirs.splice(0)) {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A host that answers the hello with its welcome and a notice in one write, as a busy socket can deliver them. */
async function hostGreetingWith(notice: HostNotice['notice']): Promise<string> {
  const stateDir = mkdtempSync(join(tmpdir(), 'tabpilot-host-client-'));
  dirs.push(stateDir);
  const paths = statePaths(stateDir);
  ensurePrivateDir(paths.run);
  const socket = join(paths.run, 'host.sock');
  const host = { pid: process.pid, version: 'test', socket, user_data_dir: null, started_at: Date.now() };
  const server = createServer((conn) => {
    conn.once('data', () => {
      const welcome = { hello: { client: 'mcp:held', host, extension: null } };
      conn.write(`${JSON.stringify(welcome)}\n${JSON.stringify({ notice })}\n`);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  writeRecord(paths.run, {
    pid: process.pid,
    socket,
    extension_id: 'test',
    user_data_dir: null,
    profile_id: null,
    browser: null,
    version: 'test',
    started_at: host.started_at,
  });
  return stateDir;
}

describe('HostClient notices', () => {
  it('keeps a notice that shares a read with the welcome for the first listener, then hands each notice on once', async () => {
    const pending = { approval: 'pending' as const, message: 'Waiting for the person' };
    const stateDir = await hostGreetingWith(pending);
    const client = await HostClient.connect({ client: 'mcp:held', stateDir });
    try {
      const first: HostNotice['notice'][] = [];
      client.onNotice((notice) => first.push(notice));
      expect(first).toEqual([pending]);
      const second: HostNotice['notice'][] = [];
      client.onNotice((notice) => second.push(notice));
      expect(second).toEqual([]);
    } finally {
      client.close();
    }
  });
});
