import { describe, expect, it } from 'vitest';
import type { PanelStatus } from '../../protocol/panel-messages';
import { followResult, pageOfResult, trackNextResult, trackResult } from './result-page';

function status(focused: string, tabs: Record<string, string>): PanelStatus {
  return {
    focused_tab_id: focused,
    tabs: Object.entries(tabs).map(([tab_id, url]) => ({
      tab_id,
      target_id: `T${tab_id}`,
      url,
      title: '',
      focused: tab_id === focused,
      window_id: 1,
      status: 'ok',
      status_reason: null,
      owner: null,
    })),
  } as unknown as PanelStatus;
}

describe('a result and the page it was about', () => {
  it('takes the page a navigate names, and waits for a status that lags behind it', () => {
    const before = status('A', { A: 'https://a.test/old' });
    const page = pageOfResult({ tab_id: 'A', url: 'https://a.test/new#top' }, before);
    expect(page).toEqual({ tabId: 'A', url: 'https://a.test/new' });
    let tracking = trackResult(page, before);
    expect(tracking).toMatchObject({ caughtUp: false, stale: false });
    tracking = followResult(tracking, status('A', { A: 'https://a.test/new' }));
    expect(tracking).toMatchObject({ caughtUp: true, stale: false });
    tracking = followResult(tracking, status('A', { A: 'https://a.test/new#section' }));
    expect(tracking.stale).toBe(false);
    tracking = followResult(tracking, status('A', { A: 'https://a.test/elsewhere' }));
    expect(tracking.stale).toBe(true);
    // Coming back does not make an old result current again.
    expect(followResult(tracking, status('A', { A: 'https://a.test/new' })).stale).toBe(true);
  });

  it('goes stale when the page moves on before any status showed the result (the status is coalesced)', () => {
    const before = status('A', { A: 'https://a.test/old' });
    let tracking = trackResult(pageOfResult({ tab_id: 'A', url: 'https://a.test/new' }, before), before);
    tracking = followResult(tracking, before);
    expect(tracking).toMatchObject({ caughtUp: false, stale: false });
    tracking = followResult(tracking, status('A', { A: 'https://a.test/moved-on' }));
    expect(tracking.stale).toBe(true);
  });

  it('waits through the blank first document of the tab a navigate opened', () => {
    const before = status('A', { A: 'https://a.test/' });
    let tracking = trackResult(pageOfResult({ tab_id: 'B', url: 'https://b.test/' }, before), before);
    for (const blank of ['', 'about:blank']) {
      tracking = followResult(tracking, status('B', { A: 'https://a.test/', B: blank }));
      expect(tracking, `a status with the new tab at "${blank}"`).toMatchObject({ caughtUp: false, stale: false });
    }
    tracking = followResult(tracking, status('B', { A: 'https://a.test/', B: 'https://b.test/' }));
    expect(tracking).toMatchObject({ caughtUp: true, stale: false });
    // Another tab focused before the new one showed is a move past the result.
    const other = trackResult(pageOfResult({ tab_id: 'B', url: 'https://b.test/' }, before), before);
    expect(followResult(other, status('C', { A: 'https://a.test/', C: 'https://c.test/' })).stale).toBe(true);
  });

  it('waits for the result page when there was no focused page to compare with', () => {
    let tracking = trackResult(pageOfResult({ tab_id: 'A', url: 'https://a.test/new' }, undefined), undefined);
    tracking = followResult(tracking, status('A', { A: 'https://a.test/lagging' }));
    expect(tracking).toMatchObject({ caughtUp: false, stale: false });
    tracking = followResult(tracking, status('A', { A: 'https://a.test/new' }));
    expect(tracking).toMatchObject({ caughtUp: true, stale: false });
  });

  it('takes the focused page for a result that names none, and goes stale on another tab', () => {
    const now = status('A', { A: 'https://a.test/', B: 'https://b.test/' });
    const tracking = trackResult(pageOfResult({ clicked: true }, now), now);
    expect(tracking).toMatchObject({ caughtUp: true, stale: false });
    expect(followResult(tracking, status('B', { A: 'https://a.test/', B: 'https://b.test/' })).stale).toBe(true);
  });

  it('never goes stale without a page to compare', () => {
    const tracking = trackResult(pageOfResult({}, undefined), undefined);
    expect(followResult(tracking, status('A', { A: 'https://a.test/' })).stale).toBe(false);
  });

  it("keeps a refusal that came while the status lagged behind the navigate before it on that navigate's page", () => {
    // The flake of extension-panel's form run: the refusal came before the coalesced status showed the
    // navigate's page, and the status catching up hid it as a result of another page.
    const lagging = status('A', { A: 'https://a.test/old' });
    const navigated = trackNextResult({ tab_id: 'A', url: 'https://a.test/new' }, lagging, undefined);
    const refused = trackNextResult(undefined, lagging, navigated);
    expect(refused).toMatchObject({ page: { tabId: 'A', url: 'https://a.test/new' }, caughtUp: false, stale: false });
    const caughtUp = followResult(refused, status('A', { A: 'https://a.test/new' }));
    expect(caughtUp).toMatchObject({ caughtUp: true, stale: false });
    expect(followResult(caughtUp, status('A', { A: 'https://a.test/elsewhere' })).stale).toBe(true);
  });

  it('takes the focused page for the next result once the status has caught up, or when it names its own', () => {
    const now = status('A', { A: 'https://a.test/new' });
    const caughtUp = trackNextResult({ tab_id: 'A', url: 'https://a.test/new' }, now, undefined);
    expect(caughtUp.caughtUp).toBe(true);
    expect(trackNextResult({ clicked: true }, status('A', { A: 'https://a.test/next' }), caughtUp).page).toEqual({
      tabId: 'A',
      url: 'https://a.test/next',
    });
    const lagging = trackNextResult({ tab_id: 'A', url: 'https://a.test/x' }, now, undefined);
    expect(trackNextResult({ tab_id: 'B', url: 'https://b.test/' }, now, lagging).page).toEqual({
      tabId: 'B',
      url: 'https://b.test/',
    });
  });
});
