import { join } from 'node:path';
import { isOneOf } from '../../../shared/narrow';

/**
 * Where each Chromium browser keeps its user data (per-user native-messaging manifests live in its
 * `NativeMessagingHosts` folder on Linux and macOS), the Windows registry key it reads, and where its
 * executable usually is.
 */
export const BROWSER_NAMES = ['chrome', 'chromium', 'edge', 'brave', 'vivaldi', 'arc'] as const;
export type BrowserName = (typeof BROWSER_NAMES)[number];

interface BrowserTable {
  /** The user-data folder, relative to ~/.config (Linux) or ~/Library/Application Support (macOS). */
  linux?: string;
  darwin?: string;
  /** HKCU key under which the manifest's path is the default value (Windows). */
  windowsKey?: string;
  executables: { linux?: readonly string[]; darwin?: readonly string[]; win32?: readonly string[] };
}

const CHROME_KEY = 'Software\\Google\\Chrome\\NativeMessagingHosts';

export const BROWSERS: Record<BrowserName, BrowserTable> = {
  chrome: {
    linux: 'google-chrome',
    darwin: 'Google/Chrome',
    windowsKey: CHROME_KEY,
    executables: {
      linux: ['/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/opt/google/chrome/chrome'],
      darwin: ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'],
      win32: ['C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe'],
    },
  },
  chromium: {
    linux: 'chromium',
    darwin: 'Chromium',
    windowsKey: 'Software\\Chromium\\NativeMessagingHosts',
    executables: {
      linux: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium', '/snap/bin/chromium'],
      darwin: ['/Applications/Chromium.app/Contents/MacOS/Chromium'],
    },
  },
  edge: {
    linux: 'microsoft-edge',
    darwin: 'Microsoft Edge',
    windowsKey: 'Software\\Microsoft\\Edge\\NativeMessagingHosts',
    executables: {
      linux: ['/usr/bin/microsoft-edge', '/usr/bin/microsoft-edge-stable', '/opt/microsoft/msedge/msedge'],
      darwin: ['/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge'],
      win32: ['C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe'],
    },
  },
  brave: {
    linux: 'BraveSoftware/Brave-Browser',
    darwin: 'BraveSoftware/Brave-Browser',
    // Brave reads Chrome's key on Windows.
    windowsKey: CHROME_KEY,
    executables: {
      linux: ['/usr/bin/brave-browser', '/usr/bin/brave', '/opt/brave.com/brave/brave'],
      darwin: ['/Applications/Brave Browser.app/Contents/MacOS/Brave Browser'],
    },
  },
  vivaldi: {
    linux: 'vivaldi',
    darwin: 'Vivaldi',
    windowsKey: CHROME_KEY,
    executables: {
      linux: ['/usr/bin/vivaldi', '/usr/bin/vivaldi-stable', '/opt/vivaldi/vivaldi'],
      darwin: ['/Applications/Vivaldi.app/Contents/MacOS/Vivaldi'],
    },
  },
  arc: {
    darwin: 'Arc/User Data',
    executables: { darwin: ['/Applications/Arc.app/Contents/MacOS/Arc'] },
  },
};

/** The browser's default user-data folder on this platform, or undefined where it does not run. */
export function userDataDirOf(
  browser: BrowserName,
  home: string,
  platform: string = process.platform,
): string | undefined {
  const table = BROWSERS[browser];
  if (platform === 'linux' && table.linux !== undefined) {
    return join(home, '.config', table.linux);
  }
  if (platform === 'darwin' && table.darwin !== undefined) {
    return join(home, 'Library', 'Application Support', table.darwin);
  }
  return undefined;
}

export function executablesOf(browser: BrowserName, platform: string = process.platform): readonly string[] {
  const table = BROWSERS[browser].executables;
  return platform === 'linux' || platform === 'darwin' || platform === 'win32' ? (table[platform] ?? []) : [];
}

/** `--browser`: names, or every installed browser (`all`, the default). */
export function parseBrowserList(value: string | undefined): BrowserName[] | 'installed' {
  if (value === undefined || value === 'all') {
    return 'installed';
  }
  return value.split(',').map((text) => {
    const name = text.trim();
    if (!isOneOf(BROWSER_NAMES, name)) {
      throw new Error(`unknown browser "${name}" (expected ${BROWSER_NAMES.join(', ')} or all)`);
    }
    return name;
  });
}
