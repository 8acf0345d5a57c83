import { CLIENT_NAME_PATTERN, CLIENT_NAME_RULE } from '../../../protocol/client-name';
import type { ActionCatalog } from './cli-catalog';
import type { NativeCliContext } from './cli-action';
import { stateDir } from './state-dir';
import { isOneOf } from '../../../shared/narrow';

/** The options every through-the-host command shares, each taking a value. */
export const VALUE_OPTIONS = ['--client', '--user-data-dir'] as const;

/** The first word that is neither an option nor the value of one: the command or the action. */
export function commandWord(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] ?? '';
    if (isOneOf(VALUE_OPTIONS, word)) {
      i++;
    } else if (!word.startsWith('-')) {
      return word;
    }
  }
  return undefined;
}

/** Takes the options every through-the-host command shares out of argv; the rest are the action's. */
export function takeCommonOptions(
  argv: readonly string[],
  catalog: ActionCatalog,
): { context: NativeCliContext; rest: string[] } {
  const rest: string[] = [];
  let json = false;
  let outcome = false;
  let client = process.env['TABPILOT_CLIENT'] ?? 'tabpilot';
  let userDataDir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] ?? '';
    if (word === '--json') {
      json = true;
    } else if (word === '--outcome') {
      outcome = true;
    } else if (word === '--client' || word === '--user-data-dir') {
      const value = argv[++i];
      if (value === undefined) {
        throw new Error(`${word} needs a value`);
      }
      if (word === '--client') {
        client = value;
      } else {
        userDataDir = value;
      }
    } else {
      rest.push(word);
    }
  }
  if (!CLIENT_NAME_PATTERN.test(client)) {
    throw new Error(`--client ${client}: ${CLIENT_NAME_RULE}`);
  }
  return {
    rest,
    context: {
      client,
      stateDir: stateDir(),
      userDataDir,
      json,
      outcome,
      catalog,
      out: (text) => process.stdout.write(`${text}\n`),
      err: (text) => process.stderr.write(`${text}\n`),
    },
  };
}
