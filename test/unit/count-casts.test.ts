import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { countCasts, countEdges, isCounted } from '../../scripts/count-casts.mjs';

const SCRIPT = fileURLToPath(new URL('../../scripts/count-casts.mjs', import.meta.url));
const REPO = fileURLToPath(new URL('../..', import.meta.url));

describe('countCasts', () => {
  it('counts `as` and angle-bracket assertions, nested ones each', () => {
    expect(countCasts('const a = b as string;')).toBe(1);
    expect(countCasts('const a = <string>b;')).toBe(1);
    expect(countCasts('const a = (b as unknown) as string;')).toBe(2);
    expect(countCasts('f((x as { y: number }).y, z as number);')).toBe(2);
  });

  it('leaves out `as const`, `satisfies` and non-null assertions', () => {
    expect(countCasts("const a = ['x', 'y'] as const;")).toBe(0);
    expect(countCasts('const a = { b: 1 } satisfies Record<string, number>;')).toBe(0);
    expect(countCasts('const a = b!.c;')).toBe(0);
    expect(countCasts('// a as string\nconst s = "b as c";')).toBe(0);
  });
});

describe('isCounted', () => {
  it('takes TypeScript sources, not tests or declarations', () => {
    expect(isCounted('src/tools/registry.ts')).toBe(true);
    expect(isCounted('src/tools/registry.test.ts')).toBe(false);
    expect(isCounted('src/tools/registry.test-d.ts')).toBe(false);
    expect(isCounted('src/shared/platform-globals.d.ts')).toBe(false);
    expect(isCounted('scripts/count-casts.mjs')).toBe(false);
  });
});

describe('countEdges', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root !== undefined) {
      rmSync(root, { recursive: true, force: true });
    }
  });

  function write(path: string, text: string): void {
    if (root === undefined) {
      throw new Error('no root');
    }
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }

  it('counts the edge folders only, most casts first, and skips tests and files without casts', () => {
    root = mkdtempSync(join(tmpdir(), 'count-casts-'));
    write('src/tools/one.ts', 'export const a = b as string;');
    write('src/platform/node/deep/two.ts', 'export const a = b as string;\nexport const c = <number>d;');
    write('src/tools/one.test.ts', 'const a = b as string;');
    write('src/ui/types.d.ts', 'declare const a: string;');
    write('src/agent/clean.ts', "export const a = ['x'] as const;");
    write('src/dom/core.ts', 'export const a = b as string;');
    expect(countEdges(root)).toEqual([
      { file: join('src', 'platform', 'node', 'deep', 'two.ts'), casts: 2 },
      { file: join('src', 'tools', 'one.ts'), casts: 1 },
    ]);
  });
});

describe('the command', () => {
  function exitCode(max: number): number | null {
    return spawnSync(process.execPath, [SCRIPT, '--max', String(max), '--top', '3'], { stdio: 'ignore' }).status;
  }

  it('fails past the budget and passes within it', { timeout: 30_000 }, () => {
    const total = countEdges(REPO).reduce((sum, entry) => sum + entry.casts, 0);
    expect(total).toBeGreaterThan(0);
    expect(exitCode(total)).toBe(0);
    expect(exitCode(total - 1)).toBe(1);
  });
});
