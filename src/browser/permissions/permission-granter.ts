import type { SessionManager } from '../../cdp/session-manager';
import { TabpilotError } from '../../shared/errors';

/**
 * How a platform grants browser permissions to every site (Browser.grantPermissions in Node,
 * chrome.contentSettings in the extension).
 */
export interface PermissionGranter {
  /** Who grants, for messages ("Browser.grantPermissions", "chrome.contentSettings"). */
  readonly via: string;
  /** The permission names (browser-use's) this platform can grant; undefined: whatever the browser knows. */
  readonly grantable: readonly string[] | undefined;
  /** Makes exactly these granted to every http(s) site, withdrawing what tabpilot granted before. */
  apply(permissions: readonly string[], targets: SessionManager): Promise<void>;
}

/** The names a granter cannot grant, in the order asked. */
export function ungrantable(permissions: readonly string[], granter: PermissionGranter | undefined): string[] {
  if (granter === undefined) {
    return [...permissions];
  }
  const grantable = granter.grantable;
  return grantable === undefined ? [] : permissions.filter((name) => !grantable.includes(name));
}

/** The error for a config that names permissions the platform cannot grant (field `permissions`). */
export function ungrantableError(refused: readonly string[], granter: PermissionGranter | undefined): TabpilotError {
  const can =
    granter === undefined
      ? 'this platform grants no permissions'
      : granter.grantable === undefined
        ? ''
        : `it can grant ${granter.grantable.join(', ')}`;
  return new TabpilotError(
    'UNSUPPORTED',
    `permissions: ${granter?.via ?? 'this platform'} cannot grant ${refused.join(', ')}${can === '' ? '' : ` (${can})`}`,
    { details: { field: 'permissions', refused } },
  );
}
