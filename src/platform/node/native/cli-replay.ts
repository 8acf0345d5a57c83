import { readFileSync } from 'node:fs';
import { errorMessageOf } from '../../../shared/errors';
import { CliUsageError } from './cli-params';

export const REPLAY_USAGE = 'tabpilot replay FLOW [--param name=value ...] [--tab-id ID]';

/**
 * `tabpilot replay FLOW [--param name=value ...] [--tab-id ID]`: the flow file is read here and sent whole
 * (the extension cannot read this computer's files); the server checks it before any step runs.
 */
export function replayParams(words: readonly string[]): Record<string, unknown> {
  let file: string | undefined;
  let tabId: string | undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (word === '--param' || word === '--tab-id') {
      const value = words[i + 1];
      if (value === undefined) {
        throw new CliUsageError(`replay: ${word} needs a value (${REPLAY_USAGE})`);
      }
      i++;
      if (word === '--tab-id') {
        tabId = value;
        continue;
      }
      const equals = value.indexOf('=');
      if (equals < 1) {
        throw new CliUsageError(`replay: --param takes name=value, not "${value}"`);
      }
      params[value.slice(0, equals)] = value.slice(equals + 1);
    } else if (!word.startsWith('--') && file === undefined) {
      file = word;
    } else {
      throw new CliUsageError(`replay: unexpected "${word}" (${REPLAY_USAGE})`);
    }
  }
  if (file === undefined) {
    throw new CliUsageError(`replay: which flow? ${REPLAY_USAGE}`);
  }
  let flow: unknown;
  try {
    flow = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new CliUsageError(`replay: cannot read the flow ${file}: ${errorMessageOf(error)}`);
  }
  return { flow, params, ...(tabId === undefined ? {} : { tab_id: tabId }) };
}
