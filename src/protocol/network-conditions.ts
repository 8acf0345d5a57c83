/**
 * The `network_conditions` action's state: whether the tab is offline and how its network is throttled,
 * and how a request changes it. Pure, so that it is tested without a browser.
 */

/** Latency and throughput of the throttling profiles, as Chrome DevTools' presets (and Puppeteer's) define them. */
export const NETWORK_PROFILES = {
  // DevTools' "3G" (formerly "Slow 3G"): 400 ms × 5, 500 kbit/s × 0.8 both ways.
  'slow-3g': { latency_ms: 2000, download_kbps: 400, upload_kbps: 400 },
  // DevTools' "Slow 4G" (formerly "Fast 3G"): 150 ms × 3.75, 1.6 Mbit/s and 750 kbit/s × 0.9.
  'fast-3g': { latency_ms: 562.5, download_kbps: 1440, upload_kbps: 675 },
  // DevTools renamed "Fast 3G" to "Slow 4G" with the same figures (Puppeteer keeps both names).
  'slow-4g': { latency_ms: 562.5, download_kbps: 1440, upload_kbps: 675 },
} as const;

export const NETWORK_PROFILE_NAMES = ['slow-3g', 'fast-3g', 'slow-4g', 'none'] as const;
export type NetworkProfileName = (typeof NETWORK_PROFILE_NAMES)[number];

/** What is in force in a tab; a null figure is not throttled. */
export interface NetworkConditions {
  offline: boolean;
  latency_ms: number | null;
  download_kbps: number | null;
  upload_kbps: number | null;
}

type Throttle = Pick<NetworkConditions, 'latency_ms' | 'download_kbps' | 'upload_kbps'>;

export interface NetworkConditionsRequest {
  offline?: boolean;
  profile?: NetworkProfileName;
  latency_ms?: number;
  download_kbps?: number;
  upload_kbps?: number;
  reset?: boolean;
}

export function noNetworkConditions(): NetworkConditions {
  return { offline: false, latency_ms: null, download_kbps: null, upload_kbps: null };
}

export function isUnconditioned(c: NetworkConditions): boolean {
  return !c.offline && c.latency_ms === null && c.download_kbps === null && c.upload_kbps === null;
}

/**
 * The conditions after a request: reset or profile 'none' clears everything first, a profile then sets
 * the three figures, and the fields given win over the profile; what is not given stays as it was.
 */
export function nextNetworkConditions(held: NetworkConditions, request: NetworkConditionsRequest): NetworkConditions {
  const cleared = request.reset === true || request.profile === 'none';
  const start = cleared ? noNetworkConditions() : held;
  const profile: Throttle =
    request.profile === undefined || request.profile === 'none' ? start : NETWORK_PROFILES[request.profile];
  return {
    offline: request.offline ?? start.offline,
    latency_ms: request.latency_ms ?? profile.latency_ms,
    download_kbps: request.download_kbps ?? profile.download_kbps,
    upload_kbps: request.upload_kbps ?? profile.upload_kbps,
  };
}

/** CDP's Network.emulateNetworkConditions parameters: throughput in bytes/s, -1 (and latency 0) unthrottled. */
export function cdpNetworkConditions(c: NetworkConditions): {
  offline: boolean;
  latency: number;
  downloadThroughput: number;
  uploadThroughput: number;
} {
  const bytesPerSecond = (kbps: number | null): number => (kbps === null ? -1 : (kbps * 1000) / 8);
  return {
    offline: c.offline,
    latency: c.latency_ms ?? 0,
    downloadThroughput: bytesPerSecond(c.download_kbps),
    uploadThroughput: bytesPerSecond(c.upload_kbps),
  };
}
