import { describe, expect, it } from 'vitest';
import { EmulateEvent } from './actions/emulation.actions';
import { EventValidationError } from './event-validation-error';
import { canonicalLocale, isEmpty, isKnownTimeZone, nextEmulation, noEmulation, PRESETS } from './emulation-settings';

/** The field an invalid payload is refused for (INVALID_PARAMS), or undefined when it is accepted. */
function refusedField(payload: Record<string, unknown>): string | undefined {
  try {
    EmulateEvent.create({ target_id: 'T1', ...payload });
    return undefined;
  } catch (error) {
    if (error instanceof EventValidationError) {
      expect(error.code).toBe('INVALID_PARAMS');
      return error.field;
    }
    throw error;
  }
}

describe('emulate params', () => {
  it('accepts each field alone, and nothing at all', () => {
    expect(refusedField({})).toBeUndefined();
    expect(refusedField({ preset: 'pixel-8' })).toBeUndefined();
    expect(refusedField({ viewport: { width: 800, height: 600 } })).toBeUndefined();
    expect(refusedField({ geolocation: { latitude: -33.9, longitude: 151.2 } })).toBeUndefined();
    expect(refusedField({ timezone: 'Asia/Tokyo', locale: 'de-DE', color_scheme: 'dark' })).toBeUndefined();
    expect(refusedField({ reduced_motion: 'reduce', cpu_throttling_rate: 4, reset: true })).toBeUndefined();
  });

  it('refuses bad values naming the field', () => {
    expect(refusedField({ preset: 'nokia-3310' })).toBe('preset');
    expect(refusedField({ viewport: { width: 0, height: 600 } })).toBe('viewport.width');
    expect(refusedField({ viewport: { width: 800 } })).toBe('viewport.height');
    expect(refusedField({ viewport: { width: 800, height: 600, scale: 2 } })).toBe('viewport.scale');
    expect(refusedField({ geolocation: { latitude: 91, longitude: 0 } })).toBe('geolocation.latitude');
    expect(refusedField({ geolocation: { latitude: 0, longitude: -181 } })).toBe('geolocation.longitude');
    expect(refusedField({ geolocation: { latitude: 0, longitude: 0, accuracy: -1 } })).toBe('geolocation.accuracy');
    expect(refusedField({ color_scheme: 'sepia' })).toBe('color_scheme');
    expect(refusedField({ reduced_motion: 'yes' })).toBe('reduced_motion');
    expect(refusedField({ cpu_throttling_rate: 0.5 })).toBe('cpu_throttling_rate');
    expect(refusedField({ user_agent: '' })).toBe('user_agent');
    expect(refusedField({ timezone: '' })).toBe('timezone');
    expect(refusedField({ timezone: 'Mars/Olympus_Mons' })).toBe('timezone');
    expect(refusedField({ locale: 'not a locale' })).toBe('locale');
    expect(refusedField({ fps: 30 })).toBe('fps');
  });
});

describe('nextEmulation', () => {
  it('expands a preset into its viewport and user agent', () => {
    const state = nextEmulation(noEmulation(), { preset: 'iphone-15' });
    expect(state.viewport).toEqual({ width: 393, height: 852, device_scale_factor: 3, mobile: true });
    expect(state.user_agent).toContain('iPhone');
    expect(nextEmulation(noEmulation(), { preset: 'desktop-1080p' }).viewport).toEqual({
      width: 1920,
      height: 1080,
      device_scale_factor: 1,
      mobile: false,
    });
    for (const preset of Object.values(PRESETS)) {
      expect(preset.user_agent).toMatch(/^Mozilla\/5\.0 \(/);
    }
  });

  it('lets explicit fields win over the preset', () => {
    const state = nextEmulation(noEmulation(), {
      preset: 'pixel-8',
      viewport: { width: 500, height: 700 },
      user_agent: 'TestAgent/1',
    });
    expect(state.viewport).toEqual({ width: 500, height: 700, device_scale_factor: 1, mobile: false });
    expect(state.user_agent).toBe('TestAgent/1');
  });

  it('keeps what a call leaves out, and reset starts from nothing before applying the rest', () => {
    const first = nextEmulation(noEmulation(), {
      timezone: 'Asia/Tokyo',
      geolocation: { latitude: 1, longitude: 2 },
    });
    expect(first.geolocation).toEqual({ latitude: 1, longitude: 2, accuracy: 10 });
    const second = nextEmulation(first, { color_scheme: 'dark' });
    expect(second).toMatchObject({ timezone: 'Asia/Tokyo', color_scheme: 'dark' });
    const reset = nextEmulation(second, { reset: true, locale: 'fr-FR' });
    expect(reset).toEqual({ ...noEmulation(), locale: 'fr-FR' });
    expect(isEmpty(nextEmulation(second, { reset: true }))).toBe(true);
    expect(isEmpty(second)).toBe(false);
  });
});

describe('canonicalLocale', () => {
  it('canonicalises BCP 47 tags and refuses what is none', () => {
    expect(canonicalLocale('de-de')).toBe('de-DE');
    expect(canonicalLocale('en_US')).toBeUndefined();
    expect(canonicalLocale('')).toBeUndefined();
  });
});

describe('isKnownTimeZone', () => {
  it('knows IANA ids and nothing else', () => {
    expect(isKnownTimeZone('Asia/Tokyo')).toBe(true);
    expect(isKnownTimeZone('America/Argentina/Buenos_Aires')).toBe(true);
    expect(isKnownTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isKnownTimeZone('Tokyo')).toBe(false);
  });
});
