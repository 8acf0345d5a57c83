import { z } from 'zod';
import type { Protocol } from '../../protocol/cdp';

/** browser-use's permission names: CDP's Browser.PermissionType, every one of them. */
export const PERMISSION_NAMES = [
  'ar',
  'audioCapture',
  'automaticFullscreen',
  'backgroundFetch',
  'backgroundSync',
  'cameraPanTiltZoom',
  'capturedSurfaceControl',
  'clipboardReadWrite',
  'clipboardSanitizedWrite',
  'displayCapture',
  'durableStorage',
  'geolocation',
  'handTracking',
  'idleDetection',
  'keyboardLock',
  'localFonts',
  'localNetwork',
  'localNetworkAccess',
  'loopbackNetwork',
  'midi',
  'midiSysex',
  'nfc',
  'notifications',
  'paymentHandler',
  'periodicBackgroundSync',
  'pointerLock',
  'protectedMediaIdentifier',
  'sensors',
  'smartCard',
  'speakerSelection',
  'storageAccess',
  'videoCapture',
  'vr',
  'wakeLockScreen',
  'wakeLockSystem',
  'webAppInstallation',
  'webPrinting',
  'windowManagement',
] as const satisfies readonly Protocol.Browser.PermissionType[];

export type PermissionName = (typeof PERMISSION_NAMES)[number];

// A protocol bump that adds a permission type fails to compile here until the list names it.
type Missing = Exclude<Protocol.Browser.PermissionType, PermissionName>;
const everyPermissionListed: [Missing] extends [never] ? true : Missing = true;
void everyPermissionListed;

export const PERMISSIONS_CONFIG = {
  permissions: z
    .array(
      z.enum(PERMISSION_NAMES, {
        error: (issue) => `unknown permission ${JSON.stringify(issue.input)} (known: ${PERMISSION_NAMES.join(', ')})`,
      }),
    )
    .default([])
    .describe(
      "Browser permissions granted to every site when tabpilot connects (browser-use names, e.g. clipboardReadWrite, notifications, geolocation, videoCapture, audioCapture). Node grants any of them through CDP. The extension sets them as Chrome content settings for http and https sites (cleared again when removed here) and can grant only clipboardReadWrite, clipboardSanitizedWrite, notifications, geolocation, videoCapture and audioCapture; it refuses the others by name. browser-use grants clipboardReadWrite and notifications unless told otherwise; tabpilot grants nothing unless asked, since in the extension these are your own profile's settings.",
    ),
} as const;
