import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { extensionZip, packageRoot, transientInstallNote } from './extension-cli';

describe('tabpilot extension', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabpilot-extension-zip-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('zips the folder for the store: manifest.json at the root without its key, no source maps', () => {
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ manifest_version: 3, name: 'tabpilot', key: 'MIIB' }));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'assets', 'background.js'), 'console.log(1)');
    writeFileSync(join(dir, 'assets', 'background.js.map'), '{}');
    const files = unzipSync(extensionZip(dir));
    expect(Object.keys(files).sort()).toEqual(['assets/background.js', 'manifest.json']);
    expect(JSON.parse(new TextDecoder().decode(files['manifest.json']))).toEqual({
      manifest_version: 3,
      name: 'tabpilot',
    });
    expect(new TextDecoder().decode(files['assets/background.js'])).toBe('console.log(1)');
    // The same build gives the same bytes.
    expect(extensionZip(dir)).toEqual(extensionZip(dir));
  });

  it('finds the package root from its sources, and says when npx’s cache holds it', () => {
    expect(packageRoot()).toBe(join(import.meta.dirname, '..', '..', '..'));
    expect(transientInstallNote('/home/me/.npm/_npx/e4936/node_modules/tabpilot')).toMatch(/npx's cache/);
    expect(transientInstallNote('/usr/local/lib/node_modules/tabpilot')).toBeUndefined();
  });
});
