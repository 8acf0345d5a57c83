import { EXIT, runAction } from '../../platform/node/native/cli-action';
import { loadCatalog, findAction, type ActionCatalog } from '../../platform/node/native/cli-catalog';
import { takeCommonOptions } from '../../platform/node/native/cli-options';
import { errorMessageOf } from '../../shared/errors';
import { commandSpec, SHELLS } from './cli-commands';
import { completionScript } from './cli-completion';
import { actionHelp, commandHelp, overviewHelp } from './cli-help';
import { route } from './cli-route';
import { isOneOf } from '../../shared/narrow';

export interface CliMainOptions {
  /** The folder of the running bundle, where the build wrote the action catalog. */
  dir: string;
  version: string;
}

/**
 * What both entries run first: version, help, completion, bad usage and the actions through the host
 * are answered here, with the code they need only. 'full' means the command needs the full CLI (a
 * browser, an MCP server, a model, the host itself, or help whose text lives with its parser).
 */
export async function runCli(argv: readonly string[], options: CliMainOptions): Promise<number | 'full'> {
  let catalog: ActionCatalog | undefined;
  const theCatalog = (): ActionCatalog => (catalog ??= loadCatalog(options.dir));
  let names: Set<string> | undefined;
  const routed = route(argv, () => (names ??= new Set(theCatalog().actions.map((action) => action.name))));
  switch (routed.kind) {
    case 'version':
      process.stdout.write(`${options.version}\n`);
      return EXIT.ok;
    case 'usage':
      process.stderr.write(`tabpilot: ${routed.message}\nRun \`tabpilot help\` for the commands and actions.\n`);
      return EXIT.usage;
    case 'completion':
      if (routed.shell === undefined || !isOneOf(SHELLS, routed.shell)) {
        process.stderr.write(
          `tabpilot: completion needs a shell: tabpilot completion ${SHELLS.join('|')}${routed.shell === undefined ? '' : ` (not "${routed.shell}")`}\n`,
        );
        return EXIT.usage;
      }
      process.stdout.write(completionScript(routed.shell, theCatalog()));
      return EXIT.ok;
    case 'help': {
      if (routed.topic === undefined) {
        process.stdout.write(`${overviewHelp(theCatalog())}\n`);
        return EXIT.ok;
      }
      const command = commandSpec(routed.topic);
      if (command !== undefined) {
        if (command.usage === undefined) {
          return 'full';
        }
        process.stdout.write(`${commandHelp(command)}\n`);
        return EXIT.ok;
      }
      const action = findAction(theCatalog(), routed.topic);
      process.stdout.write(`${action === undefined ? overviewHelp(theCatalog()) : actionHelp(action)}\n`);
      return EXIT.ok;
    }
    case 'command':
      return 'full';
    case 'action': {
      let taken;
      try {
        taken = takeCommonOptions(argv, theCatalog());
      } catch (error) {
        process.stderr.write(`tabpilot: ${errorMessageOf(error)}\n`);
        return EXIT.usage;
      }
      const [action, ...words] = taken.rest;
      return runAction(taken.context, action ?? routed.action, words);
    }
  }
}
