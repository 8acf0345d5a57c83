/**
 * What a client can emulate in its tab, and how one `emulate` call changes what is in force: the
 * pure part of emulation (no CDP), so presets and merging are tested without a browser.
 */

export interface EmulatedViewport {
  width: number;
  height: number;
  device_scale_factor: number;
  mobile: boolean;
}

export interface EmulatedPosition {
  latitude: number;
  longitude: number;
  accuracy: number;
}

export type ColorScheme = 'light' | 'dark' | 'no-preference';
export type ReducedMotion = 'reduce' | 'no-preference';

/** Everything emulated in one tab; null: the browser's own. */
export interface EmulationState {
  viewport: EmulatedViewport | null;
  user_agent: string | null;
  geolocation: EmulatedPosition | null;
  timezone: string | null;
  locale: string | null;
  color_scheme: ColorScheme | null;
  reduced_motion: ReducedMotion | null;
  cpu_throttling_rate: number | null;
}

/** The devices a client can name instead of a viewport and user agent. */
export const PRESET_NAMES = ['iphone-15', 'pixel-8', 'ipad', 'desktop-1080p'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

interface Preset {
  viewport: EmulatedViewport;
  user_agent: string;
}

/** CSS-pixel sizes and ratios as the makers publish them, each with its stock browser's user agent. */
export const PRESETS: Readonly<Record<PresetName, Preset>> = {
  'iphone-15': {
    viewport: { width: 393, height: 852, device_scale_factor: 3, mobile: true },
    user_agent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  },
  'pixel-8': {
    viewport: { width: 412, height: 915, device_scale_factor: 2.625, mobile: true },
    user_agent:
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  },
  ipad: {
    viewport: { width: 820, height: 1180, device_scale_factor: 2, mobile: true },
    user_agent:
      'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  },
  'desktop-1080p': {
    viewport: { width: 1920, height: 1080, device_scale_factor: 1, mobile: false },
    user_agent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  },
};

/** What one call asks for (the action's payload without its tab). */
export interface EmulationRequest {
  preset?: PresetName | undefined;
  viewport?:
    | { width: number; height: number; device_scale_factor?: number | undefined; mobile?: boolean | undefined }
    | undefined;
  user_agent?: string | undefined;
  geolocation?: { latitude: number; longitude: number; accuracy?: number | undefined } | undefined;
  timezone?: string | undefined;
  locale?: string | undefined;
  color_scheme?: ColorScheme | undefined;
  reduced_motion?: ReducedMotion | undefined;
  cpu_throttling_rate?: number | undefined;
  reset?: boolean | undefined;
}

/** A position's accuracy in metres when the client gives none (what a phone's GPS reports outdoors). */
export const DEFAULT_ACCURACY_M = 10;

export function noEmulation(): EmulationState {
  return {
    viewport: null,
    user_agent: null,
    geolocation: null,
    timezone: null,
    locale: null,
    color_scheme: null,
    reduced_motion: null,
    cpu_throttling_rate: null,
  };
}

/**
 * What is in force after a call: `reset` starts from nothing, a preset gives its viewport and user
 * agent, and the fields given explicitly win over the preset's. What the call leaves out stays as it was.
 */
export function nextEmulation(current: EmulationState, request: EmulationRequest): EmulationState {
  const next = request.reset === true ? noEmulation() : { ...current };
  const preset = request.preset === undefined ? undefined : PRESETS[request.preset];
  if (preset !== undefined) {
    next.viewport = { ...preset.viewport };
    next.user_agent = preset.user_agent;
  }
  if (request.viewport !== undefined) {
    next.viewport = {
      width: request.viewport.width,
      height: request.viewport.height,
      device_scale_factor: request.viewport.device_scale_factor ?? 1,
      mobile: request.viewport.mobile ?? false,
    };
  }
  if (request.geolocation !== undefined) {
    next.geolocation = {
      latitude: request.geolocation.latitude,
      longitude: request.geolocation.longitude,
      accuracy: request.geolocation.accuracy ?? DEFAULT_ACCURACY_M,
    };
  }
  next.user_agent = request.user_agent ?? next.user_agent;
  next.timezone = request.timezone ?? next.timezone;
  next.locale = request.locale ?? next.locale;
  next.color_scheme = request.color_scheme ?? next.color_scheme;
  next.reduced_motion = request.reduced_motion ?? next.reduced_motion;
  next.cpu_throttling_rate = request.cpu_throttling_rate ?? next.cpu_throttling_rate;
  return next;
}

/** Whether nothing is emulated (the tab needs no re-applying and nothing to clear). */
export function isEmpty(state: EmulationState): boolean {
  return Object.values(state).every((value) => value === null);
}

/**
 * A locale's canonical BCP 47 form, or undefined when it is none (Intl refuses it): checked before the
 * browser is asked, so a bad locale changes nothing.
 */
export function canonicalLocale(locale: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(locale)[0];
  } catch (error) {
    if (error instanceof RangeError) {
      return undefined;
    }
    throw error;
  }
}

/**
 * Whether a time zone is an IANA id Intl knows. Checked before the browser is asked: Chromium takes
 * an unknown id ("Mars/Olympus_Mons") without an error (measured on Chromium 156).
 */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch (error) {
    if (error instanceof RangeError) {
      return false;
    }
    throw error;
  }
}
