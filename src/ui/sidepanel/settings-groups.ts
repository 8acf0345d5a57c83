import { shapeOf, type JsonSchema } from './schema';

/** A setting only the Node entry reads, by what its help says: the extension hides it. */
export function isNodeOnly(schema: JsonSchema): boolean {
  const text = schema.description ?? shapeOf(schema).schema.description ?? '';
  return text.startsWith('Node:') || text.includes('(Node only)') || text.includes('(Node)');
}

export interface SettingsGroup {
  id: string;
  label: string;
  schema: JsonSchema;
}

function readable(key: string): string {
  const words = key.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The config schema as the extension's settings show it: Node-only settings left out, the plain
 * settings together under General, then one group per section (timeouts, state, security…).
 */
export function settingsGroups(config: JsonSchema): { groups: SettingsGroup[]; hidden: string[] } {
  const entries = Object.entries(config.properties ?? {});
  const hidden = entries.filter(([, schema]) => isNodeOnly(schema)).map(([key]) => key);
  const shown = entries.filter(([key]) => !hidden.includes(key));
  const isSection = (schema: JsonSchema): boolean => {
    const kind = shapeOf(schema).kind;
    return kind === 'object' || kind === 'record';
  };
  const subset = (keys: string[]): JsonSchema => ({
    type: 'object',
    properties: Object.fromEntries(shown.filter(([key]) => keys.includes(key))),
    required: (config.required ?? []).filter((key) => keys.includes(key)),
  });
  const plain = shown.filter(([, schema]) => !isSection(schema)).map(([key]) => key);
  const groups: SettingsGroup[] =
    plain.length === 0 ? [] : [{ id: 'general', label: 'General', schema: subset(plain) }];
  for (const [key, schema] of shown) {
    if (isSection(schema)) {
      groups.push({ id: key, label: readable(key), schema: subset([key]) });
    }
  }
  return { groups, hidden };
}
