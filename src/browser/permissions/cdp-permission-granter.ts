import type { SessionManager } from '../../cdp/session-manager';
import type { Protocol } from '../../protocol/cdp';
import { TabpilotError, errorMessageOf } from '../../shared/errors';
import type { PermissionGranter } from './permission-granter';

/**
 * Grants through the browser-level CDP domain (Node: the WebSocket reaches it; chrome.debugger does not).
 * No origin means every origin. The call is all or nothing ("Permission can't be granted in current
 * context" for one name refuses them all), so on a refusal each name is granted alone and the ones the
 * browser refuses are named.
 */
export const cdpPermissionGranter: PermissionGranter = {
  via: 'Browser.grantPermissions',
  grantable: undefined,
  async apply(permissions: readonly string[], targets: SessionManager): Promise<void> {
    const root = targets.root;
    await root.send('Browser.resetPermissions', {});
    if (permissions.length === 0) {
      return;
    }
    const asked = permissions as Protocol.Browser.PermissionType[];
    try {
      await root.send('Browser.grantPermissions', { permissions: asked });
      return;
    } catch (error) {
      if (asked.length === 1) {
        throw refusal([`${asked[0]} (${errorMessageOf(error)})`]);
      }
    }
    const refused: string[] = [];
    for (const permission of asked) {
      try {
        await root.send('Browser.grantPermissions', { permissions: [permission] });
      } catch (error) {
        refused.push(`${permission} (${errorMessageOf(error)})`);
      }
    }
    if (refused.length > 0) {
      throw refusal(refused);
    }
  },
};

function refusal(refused: string[]): TabpilotError {
  return new TabpilotError('UNSUPPORTED', `permissions: the browser refused to grant ${refused.join(', ')}`, {
    details: { field: 'permissions' },
  });
}
