import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, type TabpilotConfig } from '../../src/agent/tabpilot-config';
import type { BrowserSession } from '../../src/browser/session';
import { composeNodeSession } from '../../src/entries/node/compose';
import type { CommandServer } from '../../src/tools/command-server';
import { TEST_FLAGS } from './harness/browser';
import { FixtureServer, html, page } from './harness/fixture-server';

/**
 * Shared machines: `launch` talks to its Chromium over --remote-debugging-pipe, so the browser opens
 * no TCP port another user could reach; a port is still there when the config asks for one. Read from
 * /proc (Linux), as `ss -ltnp` does: the listening sockets whose inode one of the browser's processes holds.
 */
const pages = new FixtureServer();
let session: BrowserSession | undefined;

/** The processes of the browser: the main one and every helper in its process group. */
function browserProcesses(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((candidate) => {
      try {
        // Field 5 of stat, after the parenthesised name, is the process group.
        const stat = readFileSync(`/proc/${candidate}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pid;
      } catch {
        // A process that ended while listing is not the browser's any more.
        return false;
      }
    });
}

/** The Chromium main processes this test process started (children of it, with the DevTools pipe). */
function launchedChromium(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((candidate) => {
      try {
        const stat = readFileSync(`/proc/${candidate}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return (
          parent === process.pid &&
          readFileSync(`/proc/${candidate}/cmdline`, 'utf8').includes('--remote-debugging-pipe')
        );
      } catch {
        // A process that ended while listing is no browser of ours.
        return false;
      }
    });
}

function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    // The helper ended meanwhile: it holds no socket.
    return inodes;
  }
  for (const fd of fds) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match?.[1] !== undefined) {
        inodes.add(match[1]);
      }
    } catch {
      // The descriptor closed between listing and reading it.
    }
  }
  return inodes;
}

/** The TCP ports (v4 and v6) in LISTEN state whose socket one of the browser's processes holds. */
function listeningPorts(pid: number): number[] {
  const held = new Set(browserProcesses(pid).flatMap((process) => [...socketInodes(process)]));
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is field 1 (addr:port in hex), st field 3 (0A: LISTEN), inode field 9.
      if (fields[3] === '0A' && held.has(fields[9] ?? '')) {
        ports.push(parseInt(fields[1]?.split(':').at(-1) ?? '', 16));
      }
    }
  }
  return ports;
}

async function launch(launchConfig: Partial<TabpilotConfig['launch']>): Promise<{
  server: CommandServer;
  cdpUrl: string;
}> {
  const base = defaultConfig();
  const config: TabpilotConfig = {
    ...base,
    launch: { ...base.launch, headless: true, args: [...TEST_FLAGS], ...launchConfig },
  };
  const composed = composeNodeSession({ config });
  session = composed.session;
  const { cdp_url } = await composed.session.start();
  return { server: composed.server, cdpUrl: cdp_url };
}

const client = { id: 'e2e', kind: 'test' } as const;

beforeAll(async () => {
  pages.route('/pipe/hello', (_req, res) => html(res, page('Over the pipe', '<p>Hello over the pipe</p>')));
  await pages.start();
});

afterEach(async () => {
  await session?.stop();
  session = undefined;
});

afterAll(async () => {
  await pages.stop();
});

describe('Node launch on a shared machine', () => {
  it('by default drives Chromium over its pipe: no TCP port is listening in any of its processes, and everything works', async () => {
    const { server, cdpUrl } = await launch({});
    expect(cdpUrl).toMatch(/^pipe:\/\/chromium\/\d+$/);
    const pid = Number(cdpUrl.split('/').at(-1));
    expect(launchedChromium()).toEqual([pid]);
    expect(browserProcesses(pid).length).toBeGreaterThan(1);
    expect(listeningPorts(pid)).toEqual([]);

    const context = server.contextFor(client);
    await server.runAction('navigate', { url: pages.url('/pipe/hello') }, context);
    const state = (await server.runAction('state', {}, context)) as { url: string; text: string };
    expect(state.url).toBe(pages.url('/pipe/hello'));
    expect(state.text).toContain('Hello over the pipe');
    const shot = (await server.runAction('screenshot', {}, context)) as { data: string };
    expect(shot.data.length).toBeGreaterThan(100);
    // Still none after the browser has been busy (its network service, renderers and all).
    expect(listeningPorts(pid)).toEqual([]);
  });

  it('a release and an attach take the same browser over the same pipe again', async () => {
    const { server, cdpUrl } = await launch({});
    const context = server.contextFor(client);
    await server.runAction('navigate', { url: pages.url('/pipe/hello') }, context);
    await server.runAction('release', {}, context);
    await server.runAction('attach', {}, context);
    const state = (await server.runAction('state', {}, context)) as { text: string };
    expect(state.text).toContain('Hello over the pipe');
    expect(session?.endpoint).toBe(cdpUrl);
  });

  it('remote_debugging_port 0 asks for a port: the browser listens on it and the endpoint is its WebSocket', async () => {
    const { server, cdpUrl } = await launch({ remote_debugging_port: 0 });
    expect(cdpUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\//);
    const port = Number(new URL(cdpUrl).port);
    const context = server.contextFor(client);
    const state = (await server.runAction('state', {}, context)) as { url: string };
    expect(state.url).toBe('about:blank');
    const [pid] = launchedChromium();
    expect(pid).toBeDefined();
    // The same reading that finds no port over the pipe finds this one.
    expect(listeningPorts(pid ?? 0)).toContain(port);
  });
});
