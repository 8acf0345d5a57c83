import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { pollUntil } from '../../src/shared/time';
import { defineStorageStateContract } from './contract/storage-state-contract';
import { ExtensionDriver } from './harness/drivers';
import { PanelPage } from './harness/panel';

const downloads = mkdtempSync(join(tmpdir(), 'tabpilot-downloads-'));
const picked = mkdtempSync(join(tmpdir(), 'tabpilot-picked-'));
afterAll(() => {
  rmSync(downloads, { recursive: true, force: true });
  rmSync(picked, { recursive: true, force: true });
});

interface SavedState {
  cookies: Array<{ name: string; value: string; httpOnly: boolean }>;
  origins: Array<{ origin: string; localStorage: Array<{ name: string; value: string }> }>;
}

// The extension cannot read files from disk: a client that holds a file sends its content (as the side
// panel's import does); files the extension saved itself it reads back by name. So there is no way to
// hand it a file that is not JSON through the protocol: the panel refuses one itself (tested below).
defineStorageStateContract(
  'the extension chrome.debugger transport',
  () => ExtensionDriver.start({ downloadsDir: downloads }),
  {
    fileOf: (name) => join(downloads, 'tabpilot', name),
    load: async (driver, file) =>
      driver.ok('load_storage_state', { state: JSON.parse(readFileSync(file, 'utf8')) as unknown }),
    loadInvalidJson: async () => undefined,
    more: (env) => {
      it('exports from the side panel into Downloads/tabpilot and imports a file the person picks', async () => {
        const driver = env.driver() as ExtensionDriver;
        const panel = await PanelPage.open(driver.client);
        await env.set('panel');
        await panel.click('#view-settings');
        const before = await panel.shown('storage-state-output');
        await panel.click('#export-storage-state');
        const exported = await panel.response('storage-state-output', before);
        expect(exported).toMatchObject({ ok: true, result: { origins_count: 1, skipped_tab_ids: [] } });
        const path = exported.ok ? String((exported.result as { path: string }).path) : '';
        expect(path).toMatch(/tabpilot\/storage-state-[\dT-]+Z\.json$/);
        const file = join(downloads, 'tabpilot', path.slice(path.lastIndexOf('/') + 1));
        const saved = await pollUntil(
          () => {
            try {
              return JSON.parse(readFileSync(file, 'utf8')) as SavedState;
            } catch {
              // chrome.downloads finishes writing a moment after the answer.
              return undefined;
            }
          },
          { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error(`${file} was not written`) },
        );
        expect(saved.cookies.find((cookie) => cookie.name === 'sid')).toMatchObject({ httpOnly: true });
        expect(saved.origins.find((origin) => origin.origin === new URL(env.server.url('/')).origin)).toEqual({
          origin: new URL(env.server.url('/')).origin,
          localStorage: [{ name: 'greeting', value: 'hello from panel' }],
        });

        // A file from elsewhere on disk, picked in the panel's file input.
        const crossOrigin = new URL(env.server.crossUrl('/')).origin;
        const importFile = join(picked, 'picked-state.json');
        writeFileSync(
          importFile,
          JSON.stringify({
            cookies: [
              {
                name: 'imported',
                value: 'by-panel',
                domain: '127.0.0.1',
                path: '/',
                expires: -1,
                httpOnly: false,
                secure: false,
                sameSite: 'Lax',
              },
            ],
            origins: [{ origin: crossOrigin, localStorage: [{ name: 'greeting', value: 'picked in the panel' }] }],
          }),
        );
        const beforeImport = await panel.shown('storage-state-output');
        await panel.chooseFiles('#import-storage-state', [importFile]);
        expect(await panel.response('storage-state-output', beforeImport)).toMatchObject({
          ok: true,
          result: { path: '(given)', cookies_count: 1, origins_count: 1 },
        });
        const report = await env.seen(env.server.crossUrl('/state/check.html'));
        expect(report.page).toContain('imported=by-panel');
        expect(report.greeting).toBe('picked in the panel');

        // A file that is not JSON is refused in the panel, naming it; nothing is sent.
        const broken = join(picked, 'broken-state.json');
        writeFileSync(broken, '{"cookies": [');
        await panel.chooseFiles('#import-storage-state', [broken]);
        await panel.waitForText('#storage-state-file-error', 'broken-state.json is not JSON');
      });
    },
  },
);
