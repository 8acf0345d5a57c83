import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SocketTable, identifyPeer, parentPidFromStat, peerPidFromSs, socketInode } from './peer-identity';

// Captured from `ss -xpn` on Linux (iproute2 6.1): the host's accepted socket (inode 1079933, on the
// socket's path) and its client's end (inode 1079932), plus noise around them.
const SS_OUTPUT = `Netid State Recv-Q Send-Q Local Address:Port    Peer Address:Port   Process
u_str ESTAB 0      0                  * 1156               * 1157
u_str ESTAB 0      0      /run/user/1000/tabpilot/run/host 1.sock 1079933            * 1079932 users:(("node",pid=13152,fd=21))
u_str ESTAB 0      0                     * 1079932            * 1079933 users:(("python3",pid=24680,fd=3),("python3",pid=24681,fd=3))
u_dgr UNCONN 0     0                     * 2001               * 0 users:(("systemd",pid=1,fd=5))
`;

describe('peer identity from ss and /proc', () => {
  it('finds the process whose socket has our accepted socket as its peer, not our own line', () => {
    expect(peerPidFromSs(SS_OUTPUT, '1079933')).toBe(24680);
    // Our client's end, seen from the other side: its peer is the host (a path with a space in it).
    expect(peerPidFromSs(SS_OUTPUT, '1079932')).toBe(13152);
    expect(peerPidFromSs(SS_OUTPUT, '999')).toBeUndefined();
    expect(peerPidFromSs('', '1079933')).toBeUndefined();
  });

  it('reads the inode of a socket link and the parent pid of a stat line whose name holds parentheses', () => {
    expect(socketInode('socket:[1079933]')).toBe('1079933');
    expect(socketInode('/dev/null')).toBeUndefined();
    expect(parentPidFromStat('4242 (node (worker) x) S 4100 4242 4100 0 -1')).toBe(4100);
  });

  it.runIf(process.platform === 'linux')(
    'names this very process as the peer of a real Unix socket, with its executable and parent',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'tabpilot-peer-'));
      const path = join(dir, 's.sock');
      const accepted = new Promise<Socket>((resolve) => {
        const server = createServer(resolve);
        server.listen(path, () => connect(path));
        server.unref();
      });
      try {
        const peer = await identifyPeer(await accepted, new SocketTable());
        expect(peer).toMatchObject({ pid: process.pid, exe: process.execPath, parent: { pid: process.ppid } });
        expect(peer?.cmdline).toContain(process.argv[1] ?? '');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('reads the socket table once for the lookups that ask while a read is going, and again only after it', async () => {
    const runs: ((output: string) => void)[] = [];
    const table = new SocketTable(() => new Promise((resolve) => runs.push(resolve)));
    const first = table.read();
    // These ask while the first read walks the table: they may be newer than it, so they share the next.
    const second = table.read();
    const third = table.read();
    expect(runs).toHaveLength(1);
    runs[0]?.('first table');
    expect(await first).toBe('first table');
    await Promise.resolve();
    expect(runs).toHaveLength(2);
    runs[1]?.('second table');
    expect(await Promise.all([second, third])).toEqual(['second table', 'second table']);
    const later = table.read();
    expect(runs).toHaveLength(3);
    runs[2]?.('third table');
    expect(await later).toBe('third table');
  });
});
