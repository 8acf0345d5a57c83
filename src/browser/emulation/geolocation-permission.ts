import type { SessionManager } from '../../cdp/session-manager';
import { errorMessageOf } from '../../shared/errors';
import type { Logger } from '../../shared/logger';

/** How the tab's page may read an emulated position (the action's `geolocation_permission`). */
export type GeolocationGrant = 'granted_to_origin' | 'granted_by_config' | 'not_granted';

/** The origin a page's URL grants to, or null for a page that has none to grant (about:blank, data:). */
export function grantableOrigin(pageUrl: string): string | null {
  if (!URL.canParse(pageUrl)) {
    return null;
  }
  const url = new URL(pageUrl);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
}

/**
 * Lets the tab's page read the emulated position. The config's permissions may grant it to every site
 * already (the permissions watchdog); otherwise it is granted to the page's origin alone through the
 * browser-level Browser.setPermission, which sets this one permission and leaves the origin's others as
 * they are (Browser.grantPermissions would deny the rest). chrome.debugger has no Browser domain: there
 * the page asks the person, and the answer says so.
 */
export async function grantGeolocation(options: {
  targets: SessionManager;
  pageUrl: string;
  byConfig: boolean;
  log: Logger;
}): Promise<{ grant: GeolocationGrant; origin: string | null }> {
  if (options.byConfig) {
    return { grant: 'granted_by_config', origin: null };
  }
  const origin = grantableOrigin(options.pageUrl);
  if (origin === null) {
    return { grant: 'not_granted', origin: null };
  }
  try {
    await options.targets.root.send('Browser.setPermission', {
      permission: { name: 'geolocation' },
      setting: 'granted',
      origin,
    });
    return { grant: 'granted_to_origin', origin };
  } catch (error) {
    // The emulation itself holds; the answer tells the client the page will have to ask.
    options.log.info('could not grant geolocation to the tab origin', { origin, error: errorMessageOf(error) });
    return { grant: 'not_granted', origin: null };
  }
}

/** Takes back what grantGeolocation granted: the origin's geolocation asks again. */
export async function withdrawGeolocation(targets: SessionManager, origin: string): Promise<void> {
  await targets.root.send('Browser.setPermission', { permission: { name: 'geolocation' }, setting: 'prompt', origin });
}
