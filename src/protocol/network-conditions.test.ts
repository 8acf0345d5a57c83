import { describe, expect, it } from 'vitest';
import { NetworkConditionsEvent } from './actions/network-conditions.actions';
import { EventValidationError } from './event-validation-error';
import {
  cdpNetworkConditions,
  isUnconditioned,
  nextNetworkConditions,
  noNetworkConditions,
  type NetworkConditions,
} from './network-conditions';

/** The field an invalid payload is refused for (INVALID_PARAMS), or undefined when it is accepted. */
function refusedField(payload: Record<string, unknown>): string | undefined {
  try {
    NetworkConditionsEvent.create({ target_id: 'T1', ...payload });
    return undefined;
  } catch (error) {
    if (error instanceof EventValidationError) {
      expect(error.code).toBe('INVALID_PARAMS');
      return error.field;
    }
    throw error;
  }
}

const SLOW_3G: NetworkConditions = { offline: false, latency_ms: 2000, download_kbps: 400, upload_kbps: 400 };

describe('network_conditions params', () => {
  it('accepts each field alone, and nothing at all', () => {
    expect(refusedField({})).toBeUndefined();
    expect(refusedField({ offline: true })).toBeUndefined();
    expect(refusedField({ profile: 'fast-3g' })).toBeUndefined();
    expect(refusedField({ latency_ms: 0, download_kbps: 0.5, upload_kbps: 1000 })).toBeUndefined();
    expect(refusedField({ reset: true })).toBeUndefined();
  });

  it('refuses bad values naming the field', () => {
    expect(refusedField({ profile: '5g' })).toBe('profile');
    expect(refusedField({ offline: 'yes' })).toBe('offline');
    expect(refusedField({ latency_ms: -1 })).toBe('latency_ms');
    expect(refusedField({ latency_ms: 60_001 })).toBe('latency_ms');
    expect(refusedField({ download_kbps: 0 })).toBe('download_kbps');
    expect(refusedField({ upload_kbps: -5 })).toBe('upload_kbps');
    expect(refusedField({ bandwidth: 5 })).toBe('bandwidth');
  });
});

describe('nextNetworkConditions', () => {
  it('expands a profile into the DevTools figures', () => {
    expect(nextNetworkConditions(noNetworkConditions(), { profile: 'slow-3g' })).toEqual(SLOW_3G);
    const fast3g = { offline: false, latency_ms: 562.5, download_kbps: 1440, upload_kbps: 675 };
    expect(nextNetworkConditions(noNetworkConditions(), { profile: 'fast-3g' })).toEqual(fast3g);
    expect(nextNetworkConditions(noNetworkConditions(), { profile: 'slow-4g' })).toEqual(fast3g);
  });

  it('lets the explicit figures win over the profile, and keeps what is not given', () => {
    expect(nextNetworkConditions(noNetworkConditions(), { profile: 'slow-3g', latency_ms: 50 })).toEqual({
      ...SLOW_3G,
      latency_ms: 50,
    });
    expect(nextNetworkConditions(SLOW_3G, { offline: true })).toEqual({ ...SLOW_3G, offline: true });
    expect(nextNetworkConditions(SLOW_3G, { upload_kbps: 10 })).toEqual({ ...SLOW_3G, upload_kbps: 10 });
  });

  it('clears everything on reset and on profile none, then applies the rest', () => {
    const held = { ...SLOW_3G, offline: true };
    expect(nextNetworkConditions(held, { reset: true })).toEqual(noNetworkConditions());
    expect(nextNetworkConditions(held, { profile: 'none' })).toEqual(noNetworkConditions());
    expect(nextNetworkConditions(held, { reset: true, latency_ms: 30 })).toEqual({
      ...noNetworkConditions(),
      latency_ms: 30,
    });
    expect(isUnconditioned(nextNetworkConditions(held, { reset: true }))).toBe(true);
    expect(isUnconditioned(held)).toBe(false);
  });
});

describe('cdpNetworkConditions', () => {
  it('sends bytes per second, and -1 (latency 0) where nothing is throttled', () => {
    expect(cdpNetworkConditions(SLOW_3G)).toEqual({
      offline: false,
      latency: 2000,
      downloadThroughput: 50_000,
      uploadThroughput: 50_000,
    });
    expect(cdpNetworkConditions({ ...noNetworkConditions(), offline: true })).toEqual({
      offline: true,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
  });
});
