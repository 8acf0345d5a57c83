import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ActionCatalog } from '../../platform/node/native/cli-catalog';
import { actionCatalog } from './action-catalog';
import { COMMANDS, runnableActions } from './cli-commands';
import { completionScript } from './cli-completion';

const catalog = { version: 'test', actions: actionCatalog() } as ActionCatalog;
const visible = COMMANDS.filter((command) => command.hidden !== true).map((command) => command.name);
const dir = mkdtempSync(join(tmpdir(), 'tabpilot-completion-'));

/** zsh and fish are not on every machine (bash is): their scripts are run where they are. */
function installed(shell: string): boolean {
  return spawnSync(shell, ['-c', 'exit 0']).status === 0;
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What bash's completion offers for a command line whose last word is being typed. */
function bashComplete(words: string[]): string[] {
  const script = join(dir, 'tabpilot.bash');
  writeFileSync(script, completionScript('bash', catalog));
  const quoted = words.map((word) => `'${word}'`).join(' ');
  const out = execFileSync(
    'bash',
    [
      '-c',
      `source '${script}'; COMP_WORDS=(tabpilot ${quoted}); COMP_CWORD=${words.length}; _tabpilot; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { encoding: 'utf8' },
  );
  return out.split('\n').filter((line) => line !== '');
}

describe('shell completion from the action catalog', () => {
  it('names every command, every action and every param in each shell', () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const script = completionScript(shell, catalog);
      for (const name of [...visible, ...catalog.actions.map((action) => action.name)]) {
        expect(script, `${shell}: ${name}`).toMatch(new RegExp(`(^|[\\s'(])${name}[)\\s:']`, 'm'));
      }
      for (const action of runnableActions(catalog.actions)) {
        for (const param of Object.keys(action.params_schema.properties ?? {})) {
          expect(script, `${shell}: ${action.name} ${param}`).toContain(param.replaceAll('_', '-'));
        }
      }
      expect(script).not.toMatch(/(^|\s)host\)/m);
      // The protocol's run is shadowed by the run command: its params are not offered after `run`.
      expect(script).not.toContain('--task');
    }
    expect(() => completionScript('tcsh', catalog)).toThrow(/bash, zsh, fish/);
  });

  it('completes in a real bash: commands and actions, params, enum values, shells', () => {
    expect(bashComplete(['ta'])).toEqual(['tabs']);
    expect(bashComplete(['in'])).toEqual(['install-host', 'input']);
    expect(bashComplete(['--json', 'cli'])).toEqual(['click']);
    expect(bashComplete(['--'])).toEqual(['--help', '--version']);
    expect(bashComplete(['click', '--'])).toEqual(
      expect.arrayContaining(['--index', '--button', '--click-count', '--tab-id', '--json', '--help']),
    );
    expect(bashComplete(['click', '--button', ''])).toEqual(['left', 'right', 'middle']);
    expect(bashComplete(['navigate', '--new'])).toEqual(['--new-tab']);
    expect(bashComplete(['navigate', '--no-n'])).toEqual(['--no-new-tab']);
    expect(bashComplete(['completion', ''])).toEqual(['bash', 'zsh', 'fish', '--help']);
    expect(bashComplete(['install-host', '--browser', 'ch'])).toEqual(['chrome', 'chromium']);
    expect(bashComplete(['help', 'scr'])).toEqual(['screenshot', 'scroll']);
    // A free value (a URL) offers nothing of ours: bash falls back to file names (-o default).
    expect(bashComplete(['navigate', '--url', ''])).toEqual([]);
  });

  it('gives zsh a function it can load and fish one complete line per option', () => {
    const zsh = completionScript('zsh', catalog);
    expect(zsh.startsWith('#compdef tabpilot\n')).toBe(true);
    expect(zsh).toContain('--button) compadd -- left right middle; return ;;');
    const fish = completionScript('fish', catalog);
    expect(fish).toContain(
      "complete -c tabpilot -n '__fish_seen_subcommand_from click' -l button -x -a 'left right middle'",
    );
    expect(fish).toContain('complete -c tabpilot -n __fish_use_subcommand -a tabs -d ');
  });

  it.runIf(installed('zsh'))('gives zsh a script it parses, whose function offers the same words', () => {
    const script = join(dir, '_tabpilot');
    writeFileSync(script, completionScript('zsh', catalog));
    execFileSync('zsh', ['-n', script]);
    // compsys' own functions stand in as printers: what _tabpilot would offer, one word a line.
    const harness = `compdef() { :; }
_describe() { local -a items; items=("\${(@P)\${@[-1]}}"); print -l -- "\${items[@]%%:*}"; }
compadd() { shift; print -l -- "$@"; }
_files() { print FILES; }
source '${script}'
words=(tabpilot click --button ''); CURRENT=4; _tabpilot
words=(tabpilot navigate --url ''); CURRENT=4; _tabpilot`;
    const out = execFileSync('zsh', ['-f', '-c', harness], { encoding: 'utf8' }).split('\n');
    expect(out.slice(0, 4)).toEqual(['left', 'right', 'middle', 'FILES']);
  });

  it.runIf(installed('fish'))('gives fish a script whose completions it offers', () => {
    const script = join(dir, 'tabpilot.fish');
    writeFileSync(script, completionScript('fish', catalog));
    const out = execFileSync(
      'fish',
      ['--no-config', '-c', `source '${script}'; complete -C 'tabpilot click --button '; complete -C 'tabpilot ta'`],
      { encoding: 'utf8' },
    );
    expect(out.split('\n').map((line) => line.split('\t')[0])).toEqual(['left', 'middle', 'right', 'tabs', '']);
  });
});
