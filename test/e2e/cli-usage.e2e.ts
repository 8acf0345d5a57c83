import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { actionCatalog } from '../../src/entries/node/action-catalog';
import { COMMANDS, runnableActions } from '../../src/entries/node/cli-commands';
import type { CommandResponse } from '../../src/protocol/commands';
import { repositoryRoot } from './harness/browser';
import { NativeChain, runCli, type CliRun } from './harness/native';

/**
 * The CLI as a native tool, spawned as a person runs it: version, help on every command and action,
 * bad usage told from "no host", completion scripts, and the catalog it reads in place of describe.
 */

const catalogFile = resolve(repositoryRoot(), 'dist/node/action-catalog.json');
const catalog = JSON.parse(readFileSync(catalogFile, 'utf8')) as {
  version: string;
  actions: Array<{ name: string; params_schema: { properties?: Record<string, unknown> } }>;
};

describe('tabpilot usage, with no host running', () => {
  const empty = mkdtempSync(join(tmpdir(), 'tabpilot-usage-'));
  const cli = (args: readonly string[]): Promise<CliRun> => runCli(args, { stateDir: empty });

  afterAll(() => rmSync(empty, { recursive: true, force: true }));

  it('starts lean: the bundle every command loads first carries no zod (about 50 ms of start-up)', () => {
    const lean = readFileSync(resolve(repositoryRoot(), 'dist/node/tabpilot.js'), 'utf8');
    expect(lean).toContain('// src/entries/node/tabpilot.ts');
    expect(lean.match(/^\/\/ node_modules\/zod\/.*$/gm) ?? []).toEqual([]);
  });

  it('prints its version', async () => {
    for (const flag of ['--version', '-v']) {
      const run = await cli([flag]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe(`${packageJson.version}\n`);
    }
  });

  it('prints help for itself and for every command, exit 0, without looking for a host', async () => {
    for (const args of [[], ['--help'], ['-h'], ['help']]) {
      const run = await cli(args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      expect(run.stdout).toContain('Usage:  tabpilot <command>');
      expect(run.stdout).toContain('navigate');
    }
    for (const command of COMMANDS) {
      for (const args of [
        [command.name, '--help'],
        ['help', command.name],
      ]) {
        const run = await cli(args);
        expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
        expect(run.stdout).toContain(`tabpilot ${command.name}`);
        expect(run.stderr).not.toContain('No tabpilot host');
      }
    }
  });

  it("prints each action's params from the catalog, exit 0, without a host", async () => {
    for (const action of runnableActions(catalog.actions)) {
      const run = await cli([action.name, '--help']);
      expect(run.code, `${action.name}: ${run.stderr}`).toBe(0);
      expect(run.stdout).toContain(`Usage:  tabpilot ${action.name}`);
      for (const param of Object.keys(action.params_schema.properties ?? {})) {
        expect(run.stdout, `${action.name} ${param}`).toContain(`--${param.replaceAll('_', '-')}`);
      }
    }
    const viaHelp = await cli(['help', 'click']);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toContain('--index N');
  });

  it('answers an unknown word or param as bad usage (exit 2), never as "no host"', async () => {
    const typo = await cli(['tbas']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('unknown command or action "tbas" (did you mean "tabs"?)');
    for (const args of [
      ['frobnicate'],
      ['click', '--idx', '3'],
      ['help', 'frobnicate'],
      ['--frob'],
      ['doctor', '--frob'],
    ]) {
      const run = await cli(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).not.toContain('No tabpilot host');
      expect(run.stdout).toBe('');
    }
    expect((await cli(['click', '--idx', '3'])).stderr).toContain('did you mean "--index"?');
    // A well-formed action still looks for the host, and says it is not there (exit 3).
    const none = await cli(['tabs']);
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('No tabpilot host is running');
  });

  it('prints completion scripts for bash, zsh and fish naming every action', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const run = await cli(['completion', shell]);
      expect(run.code, run.stderr).toBe(0);
      for (const action of catalog.actions) {
        expect(run.stdout, `${shell} ${action.name}`).toContain(action.name);
      }
    }
    expect((await cli(['completion', 'tcsh'])).code).toBe(2);
    expect((await cli(['completion'])).code).toBe(2);
  });

  it('reads a catalog built from the current declarations', () => {
    expect(catalog.version).toBe(packageJson.version);
    expect(catalog.actions).toEqual(JSON.parse(JSON.stringify(actionCatalog())));
  });
});

describe('the catalog against a running extension', () => {
  let chain: NativeChain;

  beforeAll(async () => {
    chain = await NativeChain.start();
    await chain.host();
  });

  afterAll(async () => {
    await chain?.close();
  });

  it("equals the extension's own describe, and tabs answers through the lean path", async () => {
    const described = await chain.cli(['describe', '--json']);
    expect(described.code, described.stderr).toBe(0);
    const response = JSON.parse(described.stdout) as CommandResponse;
    expect(response).toMatchObject({ ok: true });
    expect((response as { result: { actions: unknown[] } }).result.actions).toEqual(catalog.actions);
    const tabs = await chain.cli(['tabs']);
    expect(tabs.code, tabs.stderr).toBe(0);
    const wrong = await chain.cli(['click', '--indx', '1']);
    expect(wrong.code).toBe(2);
  });
});
