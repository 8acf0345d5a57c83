import { z } from 'zod';
import { BrowserConfig, configJsonSchemaOf, parseConfigOf } from '../browser/config';
import type { ServedConfig } from '../tools/served-config';
import { AGENT_CONFIG } from './agent.config';

const { control_indicator, ...browserFields } = BrowserConfig.shape;

/**
 * The one configuration object: the browser's part (src/browser/config.ts) and the agent's
 * (agent.config.ts), composed here because the browser layer may not know the agent's fields. Strict at
 * every level, like its parts: an unknown or invalid field is refused with its path named. The settings
 * store and the Node config file parse it; the panel and `describe` render it from its JSON Schema. The
 * agent's section stands where it always has, before the indicator's switch: the schema's order is the
 * order describe, the panel and the configuration reference list the fields in.
 */
export const TabpilotConfig = z.strictObject({ ...browserFields, ...AGENT_CONFIG, control_indicator });

export type TabpilotConfig = z.output<typeof TabpilotConfig>;
export type TabpilotConfigInput = z.input<typeof TabpilotConfig>;

export function defaultConfig(): TabpilotConfig {
  return TabpilotConfig.parse({});
}

/** Parses a config, throwing INVALID_PARAMS with the offending field's path. */
export function parseConfig(input: unknown): TabpilotConfig {
  return parseConfigOf(TabpilotConfig, input);
}

export function configJsonSchema(): unknown {
  return configJsonSchemaOf(TabpilotConfig);
}

/** The whole config as the tools layer serves it (its field names and its schema), given by the composition. */
export const SERVED_CONFIG: ServedConfig = {
  fields: new Set(Object.keys(TabpilotConfig.shape)),
  jsonSchema: configJsonSchema,
};
