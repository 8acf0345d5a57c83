import { commandWord } from '../../platform/node/native/cli-options';
import { didYouMean } from '../../platform/node/native/cli-suggest';
import { COMMANDS, commandSpec } from './cli-commands';

/**
 * What a command line asks for, decided from the words alone (no host, no browser): the lean entry
 * answers version, help, completion, bad usage and actions itself, and loads the full CLI only for a
 * command that needs it.
 */
export type Route =
  | { kind: 'version' }
  | { kind: 'help'; topic: string | undefined }
  | { kind: 'completion'; shell: string | undefined }
  | { kind: 'action'; action: string }
  | { kind: 'command'; command: string }
  | { kind: 'usage'; message: string };

const HELP = new Set(['--help', '-h']);
const VERSION = new Set(['--version', '-v']);

/** `actions` is asked only when the words need it: a full command routes without reading the catalog. */
export function route(argv: readonly string[], actions: () => ReadonlySet<string>): Route {
  const word = commandWord(argv);
  if (word === undefined) {
    if (argv.length === 0 || argv.some((arg) => HELP.has(arg))) {
      return { kind: 'help', topic: undefined };
    }
    if (argv.some((arg) => VERSION.has(arg))) {
      return { kind: 'version' };
    }
    return { kind: 'usage', message: `no command or action in "${argv.join(' ')}"` };
  }
  if (word === 'help') {
    const topic = commandWord(argv.slice(argv.indexOf(word) + 1));
    if (topic !== undefined && commandSpec(topic) === undefined && !actions().has(topic)) {
      return { kind: 'usage', message: unknownWord(topic, actions()) };
    }
    return { kind: 'help', topic };
  }
  const known = commandSpec(word) !== undefined || actions().has(word);
  if (known && argv.some((arg) => HELP.has(arg))) {
    return { kind: 'help', topic: word };
  }
  if (word === 'completion') {
    return { kind: 'completion', shell: commandWord(argv.slice(argv.indexOf(word) + 1)) };
  }
  if (commandSpec(word) !== undefined) {
    return { kind: 'command', command: word };
  }
  if (actions().has(word)) {
    return { kind: 'action', action: word };
  }
  return { kind: 'usage', message: unknownWord(word, actions()) };
}

function unknownWord(word: string, actions: ReadonlySet<string>): string {
  const names = [...COMMANDS.filter((command) => command.hidden !== true).map((command) => command.name), ...actions];
  return `unknown command or action "${word}"${didYouMean(word, names)}`;
}
