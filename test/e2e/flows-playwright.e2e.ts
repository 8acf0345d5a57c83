import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../../src/platform/node/chromium-launcher';
import { parseFlow } from '../../src/protocol/flow';
import { environmentName, flowToPlaywright } from '../../src/tools/flows/playwright-export';
import { repositoryRoot } from './harness/browser';
import { FixtureServer } from './harness/fixture-server';
import { addFlowPages, checkoutFlow, listingFlow, signUpFlow, type FlowPagesControl } from './harness/flow-pages';

const SECRET = 'Pl4ywright-flow-secret-value';
const ROOT = repositoryRoot();

/**
 * A flow exported as a Playwright Test file runs green under `playwright test` against the same loopback
 * pages the contract replays (the same locators, the same expectations, the secret from the environment,
 * never in the file), and fails at the step whose button was renamed.
 */
describe('flows exported to Playwright', () => {
  const server = new FixtureServer();
  let control: FlowPagesControl;
  // Under the repository, so the files' `@playwright/test` resolves to its node_modules.
  let dir: string;

  beforeAll(async () => {
    control = addFlowPages(server);
    await server.start();
    mkdirSync(join(ROOT, '.tabpilot'), { recursive: true });
    dir = mkdtempSync(join(ROOT, '.tabpilot', 'playwright-flows-'));
    writeFileSync(
      join(dir, 'playwright.config.ts'),
      `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: '.',
  workers: 1,
  reporter: 'line',
  outputDir: 'results',
  use: { headless: true, actionTimeout: 5_000, launchOptions: { executablePath: ${JSON.stringify(findChromium())} } },
});
`,
    );
  });

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await server.stop();
  });

  /** Runs `playwright test` beside this process, whose fixture server must go on answering meanwhile. */
  function playwright(...files: string[]): Promise<{ status: number | null; output: string }> {
    const cli = resolve(ROOT, 'node_modules/@playwright/test/cli.js');
    const child = spawn(process.execPath, [cli, 'test', '--config', join(dir, 'playwright.config.ts'), ...files], {
      cwd: dir,
      env: {
        ...process.env,
        [environmentName('SECRET', 'password')]: SECRET,
        [environmentName('PARAM', 'name')]: 'Ada Lovelace',
      },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    return new Promise((done, fail) => {
      child.on('error', fail);
      child.on('close', (status) => done({ status, output }));
    });
  }

  it('runs the sign-up, the listing and the checkout green, with no secret in the files', async () => {
    const flows = { signup: signUpFlow(server), listing: listingFlow(server), checkout: checkoutFlow(server) };
    for (const [name, flow] of Object.entries(flows)) {
      writeFileSync(join(dir, `${name}.spec.ts`), flowToPlaywright(parseFlow(flow)));
    }
    const signUp = readFileSync(join(dir, 'signup.spec.ts'), 'utf8');
    expect(signUp).toContain(`page.getByLabel("Password", { exact: true }).fill(secrets["password"])`);
    expect(signUp).toContain(`fromEnvironment("TABPILOT_SECRET_PASSWORD")`);
    expect(signUp).not.toContain(SECRET);

    const run = await playwright();
    expect(run.output).toMatch(/3 passed/);
    expect(run.status, run.output).toBe(0);
  });

  it('fails the exported checkout where the button was renamed', async () => {
    writeFileSync(join(dir, 'checkout.spec.ts'), flowToPlaywright(parseFlow(checkoutFlow(server))));
    control.placeOrderLabel = 'Submit order';
    try {
      const run = await playwright('checkout.spec.ts');
      expect(run.status).not.toBe(0);
      expect(run.output).toContain(`getByRole("button", { name: "Place order", exact: true })`);
      expect(run.output).toMatch(/1 failed/);
    } finally {
      control.placeOrderLabel = 'Place order';
    }
  });
});
