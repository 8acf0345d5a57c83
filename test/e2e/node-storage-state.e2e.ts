import { pollUntil } from '../../src/shared/time';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { defineStorageStateContract } from './contract/storage-state-contract';
import { NodeDriver } from './harness/drivers';
import { FixtureServer } from './harness/fixture-server';

const output = mkdtempSync(join(tmpdir(), 'tabpilot-node-state-'));
afterAll(() => rmSync(output, { recursive: true, force: true }));

defineStorageStateContract('the Node WebSocket transport', () => NodeDriver.start({ config: { output_dir: output } }), {
  fileOf: (name) => join(output, name),
  load: async (driver, file) => {
    copyFileSync(file, join(output, 'states/copied.json'));
    return driver.ok('load_storage_state', { path: join(output, 'states/copied.json') });
  },
  loadInvalidJson: async (driver) => {
    writeFileSync(join(output, 'broken.json'), '{"cookies": [');
    return driver.send('load_storage_state', { path: 'broken.json' });
  },
});

it('loads the configured storage_state on connect and saves it back on stop', async () => {
  const server = new FixtureServer();
  server.route('/echo', (req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<title>${req.headers.cookie ?? ''}</title>`);
  });
  await server.start();
  const host = new URL(server.url('/')).hostname;
  writeFileSync(
    join(output, 'configured.json'),
    JSON.stringify({
      cookies: [
        {
          name: 'configured',
          value: 'yes',
          domain: host,
          path: '/',
          expires: -1,
          httpOnly: false,
          secure: false,
          sameSite: 'Lax',
        },
      ],
      origins: [],
    }),
  );
  const driver = await NodeDriver.start({ config: { output_dir: output, storage_state: 'configured.json' } });
  try {
    await driver.ok('navigate', { url: server.url('/echo') });
    expect(await driver.evaluateInTab(await driver.openTab(server.url('/echo')), 'document.title')).toBe(
      'configured=yes',
    );
    const tab = driver.session.tabIdOf(driver.session.targets.focusedTargetId ?? '');
    await driver.evaluateInTab(tab, "document.cookie = 'added=later; path=/'");
    // The page's cookie reaches the browser's store a moment later: the save on stop is asked once it has.
    await pollUntil(
      async () => {
        const listed = await driver.ok<{ cookies: Array<{ name: string }> }>('cookies', {
          op: 'list',
          name: 'added',
          tab_id: tab,
        });
        return listed.cookies.length === 1 ? true : undefined;
      },
      { timeoutMs: 5_000, intervalMs: 50, onTimeout: () => new Error('the page cookie never reached the store') },
    );
  } finally {
    await driver.close();
    await server.stop();
  }
  const saved = JSON.parse(readFileSync(join(output, 'configured.json'), 'utf8')) as {
    cookies: Array<{ name: string }>;
  };
  expect(saved.cookies.map((cookie) => cookie.name).sort()).toEqual(['added', 'configured']);
});
