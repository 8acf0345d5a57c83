import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../shared/errors';
import { ActionOutcome, failureReason, OUTCOME_REASONS } from './outcome';
import { outcomeText } from './outcome-text';

describe('verified outcomes', () => {
  it('gives every error code a reason from the closed set, an element without a box offscreen', () => {
    for (const code of ERROR_CODES) {
      expect(OUTCOME_REASONS).toContain(failureReason(code, undefined));
    }
    expect(failureReason('ELEMENT_OCCLUDED', { cover: 'div#promo' })).toBe('covered_by');
    expect(failureReason('ELEMENT_NOT_FOUND', undefined)).toBe('detached');
    expect(failureReason('ELEMENT_NOT_FOUND', { reason: 'no_box' })).toBe('offscreen');
    expect(failureReason('URL_BLOCKED', undefined)).toBe('blocked');
    expect(failureReason('INTERNAL', undefined)).toBe('error');
  });

  it('reads as a verdict line and one line per kind of change, indexes first', () => {
    const outcome = ActionOutcome.parse({
      verdict: 'changed',
      reason: 'request_failed',
      appeared: [
        { index: 12, label: 'button "Rename"' },
        { index: 13, label: 'button "Delete"' },
      ],
      removed: [{ index: 3, label: 'button "Open menu"' }],
      texts_appeared: ['Save failed: 500'],
      failed_requests: ['POST /api/save → 500'],
      settled: true,
      waited_ms: 140,
    });
    expect(outcomeText(outcome)).toBe(
      [
        'Outcome: changed: request_failed (settled in 140 ms)',
        'Appeared: [12] button "Rename"; [13] button "Delete"',
        'Went: [3] button "Open menu"',
        'Text appeared: "Save failed: 500"',
        'Failed requests: POST /api/save → 500',
      ].join('\n'),
    );
  });

  it('says a failure with its reason and message, and a page still changing at the bound', () => {
    const failed = outcomeText({
      verdict: 'failed',
      reason: 'covered_by',
      detail: 'element 4 <button> is covered by div#promo',
      settled: true,
      waited_ms: 3,
    });
    expect(failed).toBe('Outcome: failed: covered_by (settled in 3 ms)\nelement 4 <button> is covered by div#promo');
    const busy = outcomeText({ verdict: 'no_visible_change', settled: false, waited_ms: 1500 });
    expect(busy).toBe('Outcome: no visible change (still changing after 1500 ms)');
  });

  it('refuses an outcome with a reason outside the closed set', () => {
    expect(ActionOutcome.safeParse({ verdict: 'failed', reason: 'oops', settled: true, waited_ms: 0 }).success).toBe(
      false,
    );
  });
});
