import { describe, expect, it } from 'vitest';
import type { ActionCatalog } from '../../platform/node/native/cli-catalog';
import { actionCatalog } from './action-catalog';
import { COMMANDS, commandSpec } from './cli-commands';
import { actionHelp, commandHelp, overviewHelp } from './cli-help';
import { parseMcpArgs } from './mcp-cli';
import { parseRun } from './run-cli';

const catalog = { version: 'test', actions: actionCatalog() } as ActionCatalog;

/** Whether a parser refuses the option as one it does not know (other complaints are about combinations). */
function unknownTo(parse: (argv: string[]) => unknown, argv: string[]): boolean {
  try {
    parse(argv);
    return false;
  } catch (error) {
    return (error as { code?: unknown }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION';
  }
}

describe('the command table', () => {
  it("offers only options mcp's and run's own parsers know", () => {
    for (const [name, parse] of [
      ['mcp', (argv: string[]) => parseMcpArgs(argv)],
      ['run', (argv: string[]) => parseRun(['run', 'a task', ...argv])],
    ] as const) {
      for (const option of commandSpec(name)?.options ?? []) {
        const argv = option.value === undefined ? [option.flag] : [option.flag, option.choices?.[0] ?? 'x'];
        expect(unknownTo(parse, argv), `${name} ${option.flag}`).toBe(false);
      }
      expect(unknownTo(parse, ['--no-such-option'])).toBe(true);
    }
  });

  it('has help for every command, listing its options', () => {
    for (const command of COMMANDS.filter((spec) => spec.usage !== undefined)) {
      const help = commandHelp(command);
      expect(help).toContain(`tabpilot ${command.name}`);
      for (const option of command.options) {
        expect(help).toContain(option.flag);
      }
    }
  });

  it("prints an action's params from the catalog: type, choices, default, required", () => {
    const click = catalog.actions.find((action) => action.name === 'click');
    const help = actionHelp(click ?? catalog.actions[0]!);
    expect(help).toContain('Usage:  tabpilot click [--param value ...] [--json]');
    expect(help).toMatch(/--index N\s+An element index/);
    expect(help).toMatch(/--button left\|right\|middle\s+\(default "left"\)/);
    const navigate = actionHelp(catalog.actions.find((action) => action.name === 'navigate')!);
    expect(navigate).toMatch(/--url TEXT\s+\(required\) The address/);
    expect(navigate).toMatch(/--new-tab, --no-new-tab\s+\(default false\) Open it in a new tab/);
    const described = actionHelp(catalog.actions.find((action) => action.name === 'describe')!);
    expect(described).toContain('Params: none.');
  });

  it('lists every visible command and every action in the overview', () => {
    const overview = overviewHelp(catalog);
    for (const command of COMMANDS) {
      expect(overview.includes(`  ${command.name} `)).toBe(command.hidden !== true);
    }
    for (const action of catalog.actions) {
      expect(overview).toMatch(new RegExp(`[ :]${action.name}( |$)`, 'm'));
    }
  });
});
