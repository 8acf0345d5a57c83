import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeFileSaver } from './file-saver';

describe('the Node file saver', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps an existing file and numbers the new one, as Chrome names its downloads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tabpilot-saver-'));
    dirs.push(dir);
    const saver = createNodeFileSaver(() => dir);
    const first = await saver.save('shots/page.png', Buffer.from('one').toString('base64'), 'image/png');
    const second = await saver.save('shots/page.png', Buffer.from('two').toString('base64'), 'image/png');
    const third = await saver.save('shots/page.png', Buffer.from('three').toString('base64'), 'image/png');
    expect([first, second, third]).toEqual([
      join(dir, 'shots/page.png'),
      join(dir, 'shots/page (1).png'),
      join(dir, 'shots/page (2).png'),
    ]);
    expect(readFileSync(first, 'utf8')).toBe('one');
    expect(readFileSync(second, 'utf8')).toBe('two');
    expect(readFileSync(third, 'utf8')).toBe('three');
  });
});
