import type { z } from 'zod';
import { TabpilotError } from '../shared/errors';

/**
 * A protocol client that names a config field in an action's params (`navigate {url, allowed_domains: []}`)
 * is trying to change what only the person sets: that is FORBIDDEN, not a typo. `configFields` are the
 * whole config's (ServedConfig.fields, the agent's included). Undefined when the params' problem is
 * something else.
 */
export function configFieldRefusal(
  action: string,
  error: z.ZodError,
  configFields: ReadonlySet<string>,
): TabpilotError | undefined {
  for (const issue of error.issues) {
    if (issue.code !== 'unrecognized_keys' || issue.path.length > 0) {
      continue;
    }
    const named = issue.keys.filter((key) => configFields.has(key));
    if (named.length > 0) {
      return new TabpilotError(
        'FORBIDDEN',
        `${action}: ${named.join(', ')} ${named.length === 1 ? 'is' : 'are'} config, which only the person sets (the panel's settings, or the Node config file); no protocol client can change it`,
        { details: { action, fields: named } },
      );
    }
  }
  return undefined;
}
