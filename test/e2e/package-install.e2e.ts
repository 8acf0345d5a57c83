import { execFile, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaunchedBrowser } from '../../src/browser/launcher';
import type { DoctorReport } from '../../src/platform/node/native/doctor';
import { ChromiumLauncher } from '../../src/platform/node/chromium-launcher';
import { listRecords } from '../../src/platform/node/native/discovery';
import { statePaths } from '../../src/platform/node/native/state-dir';
import { pollUntil } from '../../src/shared/time';
import { BrowserClient, EXTENSION_ID, extensionFlags, repositoryRoot, TEST_FLAGS } from './harness/browser';
import { FakeModelServer } from './harness/fake-model-server';
import { FixtureServer, html, page } from './harness/fixture-server';
import { textOf } from './harness/mcp';
import { allowEveryProgram } from './harness/native';

/**
 * The package as a person gets it: `npm pack`, `npm install -g` into a fresh prefix, and every command run
 * by its bare name from a folder outside the repository, with only that prefix and the system on PATH. A
 * file the package leaves out that the CLI needs fails here, as it would for them.
 */

const run = promisify(execFile);
const root = repositoryRoot();
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

interface Installed {
  /** The prefix npm installed into; the package lives in lib/node_modules/tabpilot below it. */
  prefix: string;
  /** A folder outside the repository, the commands' working directory. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The packed tarball, as `npm pack` wrote it. */
  tarball: string;
}

async function packAndInstall(work: string): Promise<Installed> {
  const packDir = join(work, 'pack');
  const prefix = join(work, 'prefix');
  const cwd = join(work, 'elsewhere');
  for (const dir of [packDir, prefix, cwd]) {
    mkdirSync(dir, { recursive: true });
  }
  const packed = await run('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: root });
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  // The CI machine has npm ci's cache; the package needs nothing from it (its bundles carry their code).
  await run(
    'npm',
    ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', join(packDir, filename)],
    { cwd },
  );
  const env: NodeJS.ProcessEnv = {
    HOME: join(work, 'home'),
    // The prefix's bin, Node's folder (the bin script is `#!/usr/bin/env node`) and the system's.
    PATH: [join(prefix, 'bin'), dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(delimiter),
    TABPILOT_STATE_DIR: join(work, 'state'),
    TABPILOT_LOG_LEVEL: 'info',
  };
  for (const name of ['TABPILOT_CHROME', 'CHROME_PATH', 'DISPLAY', 'XDG_RUNTIME_DIR'] as const) {
    if (process.env[name] !== undefined) {
      env[name] = process.env[name];
    }
  }
  mkdirSync(env['HOME'] as string);
  return { prefix: realpathSync(prefix), cwd, env, tarball: join(packDir, filename) };
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `tabpilot ARGS` by its bare name, found on the installed PATH. */
function tabpilot(installed: Installed, args: readonly string[]): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn('tabpilot', args, {
      cwd: installed.cwd,
      env: installed.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', fail);
    child.once('exit', (code) => done({ code, stdout, stderr }));
  });
}

/** `tabpilot ARGS` fed JSON lines on stdin, read until it answers `answers` lines; then stdin closes and it exits. */
function tabpilotLines(installed: Installed, args: readonly string[], requests: readonly object[]): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn('tabpilot', args, { cwd: installed.cwd, env: installed.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.split('\n').filter(Boolean).length >= requests.length) {
        child.stdin.end();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', fail);
    child.once('exit', (code) => done({ code, stdout, stderr }));
    // One request at a time would be the same: the session answers each in order for one client.
    child.stdin.write(requests.map((request) => `${JSON.stringify(request)}\n`).join(''));
  });
}

/** Runs an ES module script, written into the outside folder, with the installed package importable as 'tabpilot'. */
async function nodeScript(
  installed: Installed,
  name: string,
  code: string,
  args: readonly string[] = [],
): Promise<string> {
  const file = join(installed.cwd, name);
  writeFileSync(file, code);
  return (await run(process.execPath, [file, ...args], { cwd: installed.cwd, env: installed.env })).stdout;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

describe('the packed tarball, installed into a fresh prefix', () => {
  const server = new FixtureServer();
  const model = new FakeModelServer(() => ({ kind: 'hang' }));
  const work = mkdtempSync(join(tmpdir(), 'tabpilot-package-'));
  let installed: Installed;
  let packageDir: string;

  beforeAll(async () => {
    server.route('/installed.html', (_req, res) => html(res, page('Installed Package Page', '<h1>installed</h1>')));
    await Promise.all([server.start(), model.start()]);
    installed = await packAndInstall(work);
    packageDir = join(installed.prefix, 'lib', 'node_modules', 'tabpilot');
    // A program beside the outside folder that depends on tabpilot: node_modules/tabpilot is the installed package.
    mkdirSync(join(installed.cwd, 'node_modules'));
    symlinkSync(packageDir, join(installed.cwd, 'node_modules', 'tabpilot'));
  }, 120_000);

  afterAll(async () => {
    await Promise.all([server.stop(), model.stop()]);
    rmSync(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  it('ships the bundles and the extension, and no source maps, sources or tests', () => {
    const files = filesUnder(packageDir);
    expect(files).toEqual(
      expect.arrayContaining([
        'bin/tabpilot.mjs',
        'dist/node/cli.js',
        'dist/extension/manifest.json',
        'LICENSE',
        // The licences of the code the bundles inline travel with them, and with the extension's zip.
        'dist/node/THIRD_PARTY_NOTICES.txt',
        'dist/extension/THIRD_PARTY_NOTICES.txt',
      ]),
    );
    expect(readFileSync(join(packageDir, 'dist/extension/THIRD_PARTY_NOTICES.txt'), 'utf8')).toMatch(
      /^mediabunny \d+\.\d+\.\d+ \(MPL-2\.0\)$/m,
    );
    expect(files.filter((file) => /\.map$|^src\/|^test\/|^bench\/|^dist\/bench\//.test(file))).toEqual([]);
    // Nothing to fetch at install time: the bundles carry their dependencies.
    expect(existsSync(join(packageDir, 'node_modules'))).toBe(false);
  });

  it('answers --version with package.json’s version', async () => {
    const ran = await tabpilot(installed, ['--version']);
    expect(ran.stdout.trim()).toBe(version);
    expect(ran.code).toBe(0);
  });

  it('runs from the tarball through npx without installing it', async () => {
    // npx takes `./file.tgz` as a package (an absolute path it would run as a command) and unpacks it into
    // its cache under the outside HOME; with no dependencies it fetches nothing.
    const ran = await run('npx', ['--yes', `./${basename(installed.tarball)}`, '--version'], {
      cwd: dirname(installed.tarball),
      env: { ...installed.env, npm_config_update_notifier: 'false' },
    });
    expect(ran.stdout.trim()).toBe(version);
  });

  it('prints the extension folder inside the installed package, and zips it for the store', async () => {
    const shown = await tabpilot(installed, ['extension']);
    expect(shown.code).toBe(0);
    const folder = shown.stdout.split('\n')[0] ?? '';
    expect(folder).toBe(join(packageDir, 'dist', 'extension'));
    expect(existsSync(join(folder, 'manifest.json'))).toBe(true);
    expect(shown.stdout).toContain(EXTENSION_ID);

    const zip = join(installed.cwd, 'tabpilot-extension.zip');
    const zipped = await tabpilot(installed, ['extension', '--zip', 'tabpilot-extension.zip']);
    expect(zipped).toMatchObject({ code: 0, stdout: `${zip}\n` });
    // unzip reads it back: every file of the folder, manifest.json at the root, the manifest without its key.
    const listing = (await run('unzip', ['-Z1', zip])).stdout.split('\n').filter(Boolean).sort();
    expect(listing).toEqual(filesUnder(folder));
    const manifest = JSON.parse((await run('unzip', ['-p', zip, 'manifest.json'])).stdout) as Record<string, unknown>;
    expect(manifest).toMatchObject({ manifest_version: 3, name: 'tabpilot', version });
    expect(manifest).not.toHaveProperty('key');
    await run('unzip', ['-tq', zip]);
  });

  it('prints client configs that start the installed package', async () => {
    const printed = await tabpilot(installed, ['mcp', '--print-config', 'cursor', '--launch']);
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual({
      mcpServers: {
        tabpilot: { command: process.execPath, args: [join(packageDir, 'bin', 'tabpilot.mjs'), 'mcp', '--launch'] },
      },
    });
  });

  it('registers a host that runs the installed package, which the extension in that package starts and the CLI drives', async () => {
    const profile = join(work, 'profile');
    const stateDir = installed.env['TABPILOT_STATE_DIR'] as string;
    const install = await tabpilot(installed, ['install-host', '--user-data-dir', profile, '--state-dir', stateDir]);
    expect(install.code).toBe(0);
    const manifest = JSON.parse(
      readFileSync(join(profile, 'NativeMessagingHosts', 'com.tabpilot.host.json'), 'utf8'),
    ) as { path: string; allowed_origins: string[] };
    expect(manifest.allowed_origins).toEqual([`chrome-extension://${EXTENSION_ID}/`]);
    expect(readFileSync(manifest.path, 'utf8')).toContain(`'${join(packageDir, 'dist', 'node', 'cli.js')}' host`);

    // Before any browser ran with the profile: doctor names the installed package's extension folder and
    // finds the launcher it wrote.
    const before = await tabpilot(installed, ['doctor', '--json', '--user-data-dir', profile]);
    const report = JSON.parse(before.stdout) as DoctorReport;
    expect(report.checks.find((check) => check.id === 'extension')?.fix).toContain(
      join(packageDir, 'dist', 'extension'),
    );
    expect(report.checks.find((check) => check.id === 'launcher')).toMatchObject({ status: 'ok' });

    const browser: LaunchedBrowser = await new ChromiumLauncher().launch({
      headless: true,
      executablePath: null,
      userDataDir: profile,
      remoteDebuggingPort: 0,
      args: [...TEST_FLAGS, ...extensionFlags(join(packageDir, 'dist', 'extension'))],
    });
    try {
      await pollUntil(
        () => listRecords(statePaths(stateDir).run).live.find((found) => found.record.profile_id !== null),
        {
          timeoutMs: 20_000,
          intervalMs: 100,
          onTimeout: () => new Error(`the extension never started the installed host (state ${stateDir})`),
        },
      );
      // A test profile: every program is pre-allowed (consent itself is native-consent.e2e.ts's subject).
      const cdp = await BrowserClient.connect(browser.cdpUrl);
      try {
        await allowEveryProgram(await cdp.serviceWorker());
      } finally {
        cdp.close();
      }
      const url = server.url('/installed.html');
      const navigated = await tabpilot(installed, ['navigate', '--url', url, '--json']);
      expect(navigated.stderr).toBe('');
      expect(JSON.parse(navigated.stdout)).toMatchObject({ ok: true, result: { url } });
      const tabs = await tabpilot(installed, ['tabs', '--json']);
      expect(tabs.code).toBe(0);
      const listed = JSON.parse(tabs.stdout) as { result: { tabs: Array<{ url?: string; title?: string }> } };
      expect(listed.result.tabs).toEqual(
        expect.arrayContaining([expect.objectContaining({ url, title: 'Installed Package Page' })]),
      );

      // The library's way in to the same browser.
      const viaLibrary = await nodeScript(
        installed,
        'extension-client.mjs',
        `import { connectExtension } from 'tabpilot';
const browser = await connectExtension({ client: 'tabpilot:script' });
try {
  process.stdout.write(JSON.stringify(await browser.request('navigate', { url: process.argv[2] })));
} finally {
  await browser.close();
}`,
        [url],
      );
      expect(JSON.parse(viaLibrary)).toMatchObject({ ok: true, result: { url } });
    } finally {
      await browser.kill();
    }
  });

  it('is a library: startBrowser drives a Chromium of its own, with the types its declarations give', async () => {
    const url = server.url('/installed.html');
    const out = await nodeScript(
      installed,
      'own-browser.mjs',
      `import { startBrowser } from 'tabpilot';
const browser = await startBrowser({ config: { launch: { headless: true, args: JSON.parse(process.argv[3]) } } });
try {
  const navigated = await browser.request('navigate', { url: process.argv[2] });
  const tabs = await browser.request('tabs');
  process.stdout.write(JSON.stringify({ navigated, tabs }));
} finally {
  await browser.close();
}`,
      [url, JSON.stringify(TEST_FLAGS)],
    );
    const answers = JSON.parse(out) as { navigated: unknown; tabs: unknown };
    expect(answers.navigated).toMatchObject({ ok: true, result: { url } });
    expect(JSON.stringify(answers.tabs)).toContain('Installed Package Page');

    // The package's declarations load (a wrong option is an error, so they are not an untyped any).
    writeFileSync(
      join(installed.cwd, 'typed.ts'),
      `import { startBrowser, type ActionResponse } from 'tabpilot';
export async function title(): Promise<ActionResponse> {
  const browser = await startBrowser({ cdpUrl: 'http://127.0.0.1:9222' });
  // @ts-expect-error -- no such option
  await startBrowser({ headless: true });
  return browser.request('tabs');
}
`,
    );
    writeFileSync(
      join(installed.cwd, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, module: 'nodenext', noEmit: true, types: [] },
        files: ['typed.ts'],
      }),
    );
    await run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', installed.cwd], {
      cwd: installed.cwd,
    });
  });

  it('launches a Chromium of its own and answers JSON lines on stdin, as `tabpilot launch` does', async () => {
    const config = join(work, 'launch-config.json');
    writeFileSync(config, JSON.stringify({ launch: { args: [...TEST_FLAGS] } }));
    const url = server.url('/installed.html');
    const ran = await tabpilotLines(
      installed,
      ['launch', '--headless', '--config', config],
      [
        { id: 1, action: 'navigate', params: { url } },
        { id: 2, action: 'tabs' },
      ],
    );
    const answers = ran.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(answers[0]).toMatchObject({ id: 1, ok: true, result: { url } });
    expect(JSON.stringify(answers[1])).toContain('Installed Package Page');
    expect(ran.code).toBe(0);
  });

  it('connects to a running Chromium by its cdp_url, as `tabpilot connect --cdp-url` does', async () => {
    const browser = await new ChromiumLauncher().launch({
      headless: true,
      executablePath: null,
      userDataDir: null,
      remoteDebuggingPort: 0,
      args: [...TEST_FLAGS],
    });
    try {
      const url = server.url('/installed.html');
      const ran = await tabpilotLines(
        installed,
        ['connect', '--cdp-url', browser.cdpUrl],
        [{ id: 'a', action: 'navigate', params: { url } }],
      );
      expect(JSON.parse(ran.stdout.split('\n')[0] ?? '')).toMatchObject({ id: 'a', ok: true, result: { url } });
      expect(ran.code).toBe(0);
    } finally {
      await browser.kill();
    }
  });

  it('runs the agent with a model server, as `tabpilot run` does', async () => {
    const url = server.url('/installed.html');
    model.useScript((request) =>
      request.user.includes(`URL: ${url}`)
        ? { kind: 'tools', calls: [{ name: 'done', input: { text: 'seen: installed', success: true } }] }
        : { kind: 'tools', calls: [{ name: 'navigate', input: { url } }] },
    );
    const config = join(work, 'run-config.json');
    writeFileSync(config, JSON.stringify({ launch: { args: [...TEST_FLAGS] } }));
    const ran = await tabpilot(installed, [
      'run',
      'Open the installed page',
      '--launch',
      '--headless',
      '--base-url',
      model.baseUrl,
      '--model',
      'fake',
      '--api-key',
      'fake-key',
      '--config',
      config,
    ]);
    expect(model.scriptErrors).toEqual([]);
    expect(ran.stdout).toBe('seen: installed\n');
    expect(ran.code).toBe(0);
  });

  it('serves MCP with a Chromium of its own: tools listed, a page opened', async () => {
    const config = join(work, 'mcp-config.json');
    writeFileSync(config, JSON.stringify({ launch: { args: [...TEST_FLAGS] } }));
    const transport = new StdioClientTransport({
      command: 'tabpilot',
      args: ['mcp', '--launch', '--headless', '--config', config, '--output-dir', join(work, 'mcp-out')],
      cwd: installed.cwd,
      env: installed.env as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'package-e2e', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'tabpilot', version });
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['navigate', 'tabs', 'state']));
      const url = server.url('/installed.html');
      const result = (await client.callTool({ name: 'navigate', arguments: { url } })) as CallToolResult;
      expect(result.isError, stderr).not.toBe(true);
      expect(textOf(result)).toContain(url);
      const tabs = (await client.callTool({ name: 'tabs', arguments: {} })) as CallToolResult;
      expect(textOf(tabs)).toContain('Installed Package Page');
    } finally {
      await client.close();
    }
  });
});
