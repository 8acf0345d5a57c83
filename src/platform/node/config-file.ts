import { errorMessageOf } from '../../shared/errors';
import { readFileSync } from 'node:fs';
import { ConfigError } from '../../browser/config';
import { parseConfig, type TabpilotConfig } from '../../agent/tabpilot-config';
import { EVENT_NAMES } from '../../protocol/events/index';
import type { Logger } from '../../shared/logger';
import { isRecord, withFields } from '../../shared/narrow';

/** Reads `--config FILE` (JSON). A missing file, bad JSON or an invalid field stops start-up, naming it. */
export function readConfigFile(path: string | undefined): unknown {
  if (path === undefined) {
    return {};
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError('', `cannot read ${path}: ${errorMessageOf(error)}`);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed;
  } catch (error) {
    throw new ConfigError('', `${path} is not valid JSON: ${errorMessageOf(error)}`);
  }
}

/**
 * browser-use users set `TIMEOUT_<EventName>` (seconds) in the environment; the entry maps them into
 * the config's `timeouts` (core never reads env). A bad value is warned about and ignored, as there.
 */
export function timeoutsFromEnv(env: NodeJS.ProcessEnv, log: Logger): Record<string, number> {
  const timeouts: Record<string, number> = {};
  for (const name of EVENT_NAMES) {
    const raw = env[`TIMEOUT_${name}`];
    if (raw === undefined || raw === '') {
      continue;
    }
    const seconds = Number(raw);
    if (!Number.isFinite(seconds) || seconds <= 0) {
      log.warn(`ignoring TIMEOUT_${name}=${raw}: not a positive number of seconds`);
      continue;
    }
    timeouts[name] = Math.round(seconds * 1000);
  }
  return timeouts;
}

export function loadConfig(options: {
  path: string | undefined;
  env: NodeJS.ProcessEnv;
  log: Logger;
  overrides?: (raw: Record<string, unknown>) => Record<string, unknown>;
}): TabpilotConfig {
  const raw = readConfigFile(options.path);
  if (!isRecord(raw)) {
    throw new ConfigError('', 'the config file must hold a JSON object');
  }
  const withEnv = { ...raw };
  const envTimeouts = timeoutsFromEnv(options.env, options.log);
  if (Object.keys(envTimeouts).length > 0) {
    withEnv['timeouts'] = withFields(withEnv['timeouts'], envTimeouts);
  }
  return parseConfig(options.overrides === undefined ? withEnv : options.overrides(withEnv));
}
