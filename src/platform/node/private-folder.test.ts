import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { utf8 } from '../../shared/bytes';
import { createNodeArtifactFiles } from './artifact-files';
import { createNodeFileSaver } from './file-saver';
import { OutputFolder } from './mcp/output-files';
import { ensurePrivateFolder } from './private-folder';

const modeOf = (path: string): number => statSync(path).mode & 0o777;

describe('private folders', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'tabpilot-private-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('artifacts and saved files: the folders tabpilot makes are 0700, its files 0600', async () => {
    const files = createNodeArtifactFiles(() => root);
    const written = await files.writeFile('states/deep/state.json', utf8('{}'), {
      field: 'path',
      atomic: true,
      mimeType: 'application/json',
    });
    expect(modeOf(join(root, 'states'))).toBe(0o700);
    expect(modeOf(join(root, 'states/deep'))).toBe(0o700);
    expect(modeOf(written)).toBe(0o600);
    const saved = await createNodeFileSaver(() => root).save('shots/a.png', 'AAAA', 'image/png');
    expect(modeOf(join(root, 'shots'))).toBe(0o700);
    expect(modeOf(saved)).toBe(0o600);
  });

  it('the MCP output folder is made private, even when it was there open to all', async () => {
    const dir = join(root, 'mcp');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    const link = await new OutputFolder(dir).write('page.md', { text: 'hello' }, 'text/markdown');
    expect(modeOf(dir)).toBe(0o700);
    expect(link.uri).toMatch(/page\.md$/);
  });

  it('refuses a symbolic link in the folder’s place, naming the field', () => {
    const target = join(root, 'elsewhere');
    mkdirSync(target);
    symlinkSync(target, join(root, 'link'));
    expect(() => ensurePrivateFolder(join(root, 'link'), '--output-dir')).toThrow(/--output-dir: .*not a folder/);
  });
});
