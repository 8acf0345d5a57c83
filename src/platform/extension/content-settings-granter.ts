import type { PermissionGranter } from '../../browser/permissions/permission-granter';
import { ungrantable, ungrantableError } from '../../browser/permissions/permission-granter';

/** The chrome.contentSettings types that stand for a browser-use permission. */
export const CONTENT_SETTING_OF = {
  clipboardReadWrite: 'clipboard',
  clipboardSanitizedWrite: 'clipboard',
  notifications: 'notifications',
  geolocation: 'location',
  videoCapture: 'camera',
  audioCapture: 'microphone',
} as const;

type ContentType = (typeof CONTENT_SETTING_OF)[keyof typeof CONTENT_SETTING_OF];

function isGrantable(permission: string): permission is keyof typeof CONTENT_SETTING_OF {
  return Object.hasOwn(CONTENT_SETTING_OF, permission);
}

const CONTENT_TYPES: readonly ContentType[] = [...new Set(Object.values(CONTENT_SETTING_OF))];

/**
 * Site patterns for every http(s) site. camera and microphone refuse `<all_urls>` ("'allow' is not
 * supported as the default setting"), the scheme patterns work for all six (measured on Chromium 156).
 */
const EVERY_SITE = ['http://*/*', 'https://*/*'];

/** The slice of chrome.contentSettings used here (a fake in the unit tests). */
export type ContentSettingsApi = Record<
  ContentType,
  {
    set(details: { primaryPattern: string; setting: 'allow'; scope: 'regular' }): Promise<void>;
    clear(details: { scope: 'regular' }): Promise<void>;
  }
>;

/**
 * The extension's permissions: chrome.debugger has no Browser domain, so each permission becomes an
 * "allow" content setting for every http and https site in the person's profile. `clear` removes only the
 * settings this extension made, so the person's own choices stay; Chrome also drops them when the
 * extension is removed.
 */
export function contentSettingsGranter(api: ContentSettingsApi): PermissionGranter {
  const granter: PermissionGranter = {
    via: 'chrome.contentSettings',
    grantable: Object.keys(CONTENT_SETTING_OF),
    async apply(permissions: readonly string[]): Promise<void> {
      const refused = ungrantable(permissions, granter);
      if (refused.length > 0) {
        throw ungrantableError(refused, granter);
      }
      const wanted = new Set(permissions.filter(isGrantable).map((permission) => CONTENT_SETTING_OF[permission]));
      for (const type of CONTENT_TYPES) {
        await api[type].clear({ scope: 'regular' });
        if (wanted.has(type)) {
          for (const primaryPattern of EVERY_SITE) {
            await api[type].set({ primaryPattern, setting: 'allow', scope: 'regular' });
          }
        }
      }
    },
  };
  return granter;
}
