import { describe, expect, it } from 'vitest';
import { AgentRisk, type AgentRisk as Risk } from '../protocol/events/agent.events';
import type { ElementSummary } from '../protocol/events/state.events';
import { classifyRisk, registrableDomain, type RiskFacts } from './risk-classifier';

const ALL: readonly Risk[] = AgentRisk.options;

function element(index: number, tag: string, name: string, attributes: Record<string, string> = {}): ElementSummary {
  return {
    index,
    tag,
    role: tag === 'a' ? 'link' : tag === 'button' ? 'button' : null,
    name,
    attributes,
    box: { x: 0, y: 0, width: 10, height: 10 },
    is_new: false,
  };
}

function facts(overrides: Partial<RiskFacts> = {}): RiskFacts {
  return {
    pageUrl: 'https://shop.example.com/cart',
    elements: [
      element(1, 'a', 'Help', { href: '/help' }),
      element(2, 'a', 'Partner', { href: 'https://partner.test/offer' }),
      element(3, 'a', 'Sister site', { href: 'https://www.example.com/about' }),
      element(4, 'a', 'Price list', { href: '/files/prices.xlsx' }),
      element(5, 'a', 'Invoice', { href: '/invoice/7' }),
      element(6, 'button', 'Pay'),
      element(7, 'button', 'Save'),
    ],
    visitedDomains: new Set(['example.com']),
    downloadIndexes: new Set([5]),
    submitTargets: new Map([
      [6, 'https://payments.test/charge'],
      [7, 'https://shop.example.com/save'],
    ]),
    focusedFormTarget: null,
    historyTarget: null,
    ...overrides,
  };
}

const click = (index: number) => ({ name: 'click', params: { index } });

describe('registrableDomain', () => {
  it('is the owner-level domain, a private suffix counting as a public one', () => {
    expect(registrableDomain('https://a.b.example.co.uk/x')).toBe('example.co.uk');
    expect(registrableDomain('https://alice.github.io/')).toBe('alice.github.io');
    expect(registrableDomain('http://127.0.0.1:8080/')).toBe('127.0.0.1');
    expect(registrableDomain('http://localhost:3000/')).toBe('localhost');
    expect(registrableDomain('about:blank')).toBeNull();
    expect(registrableDomain('not a url')).toBeNull();
  });
});

describe('classifyRisk', () => {
  it('Enter pressed in a field of a form that posts to another origin is a cross-origin form', () => {
    const keys = (text: string) => ({ name: 'send_keys', params: { keys: text } });
    const inPayForm = facts({ focusedFormTarget: 'https://payments.test/charge' });
    expect(classifyRisk(keys('Enter'), inPayForm, ALL)).toEqual({
      risk: 'cross_origin_form',
      reason:
        "pressing Enter in the focused field sends its form to https://payments.test, another origin than the page's (https://shop.example.com)",
    });
    expect(classifyRisk(keys('Tab Tab Enter'), inPayForm, ALL)?.risk).toBe('cross_origin_form');
    expect(classifyRisk(keys('Control+Enter'), inPayForm, ALL)?.risk).toBe('cross_origin_form');
    expect(classifyRisk(keys('Escape'), inPayForm, ALL)).toBeNull();
    expect(classifyRisk(keys('Enter'), facts({ focusedFormTarget: 'https://shop.example.com/save' }), ALL)).toBeNull();
    expect(classifyRisk(keys('Enter'), facts(), ALL)).toBeNull();
  });

  it('a search goes to its engine: a new domain unless the run has been on it', () => {
    expect(classifyRisk({ name: 'search', params: { query: 'cheap flights' } }, facts(), ALL)).toEqual({
      risk: 'new_domain',
      reason:
        'searching on duckduckgo.com, a domain this run has not been on (https://duckduckgo.com/?q=cheap%20flights)',
    });
    const onGoogle = facts({ visitedDomains: new Set(['example.com', 'google.com']) });
    expect(classifyRisk({ name: 'search', params: { query: 'x', engine: 'google' } }, onGoogle, ALL)).toBeNull();
    expect(classifyRisk({ name: 'search', params: { query: 'x', engine: 'bing' } }, onGoogle, ALL)?.risk).toBe(
      'new_domain',
    );
    expect(classifyRisk({ name: 'search', params: { query: 'x' } }, facts(), ['upload'])).toBeNull();
  });

  it('upload_file and evaluate are risky by what they are', () => {
    expect(classifyRisk({ name: 'upload_file', params: { index: 3, path: '/tmp/cv.pdf' } }, facts(), ALL)).toEqual({
      risk: 'upload',
      reason: 'upload_file gives /tmp/cv.pdf to the page at https://shop.example.com',
    });
    expect(classifyRisk({ name: 'evaluate', params: { code: '1' } }, facts(), ALL)?.risk).toBe('evaluate');
  });

  it('a navigation, a new tab or a link to a domain the run has not been on is new_domain; a subdomain of one it has is not', () => {
    expect(classifyRisk({ name: 'navigate', params: { url: 'https://partner.test/' } }, facts(), ALL)).toMatchObject({
      risk: 'new_domain',
      reason: expect.stringContaining('partner.test'),
    });
    expect(
      classifyRisk({ name: 'navigate', params: { url: 'partner.test/x', new_tab: true } }, facts(), ALL)?.reason,
    ).toBe('a new tab on partner.test, a domain this run has not been on (https://partner.test/x)');
    expect(classifyRisk({ name: 'navigate', params: { url: 'https://docs.example.com/' } }, facts(), ALL)).toBeNull();
    expect(classifyRisk(click(2), facts(), ALL)?.risk).toBe('new_domain');
    expect(classifyRisk(click(3), facts(), ALL)).toBeNull();
    expect(classifyRisk(click(1), facts(), ALL)).toBeNull();
  });

  it('go_back or go_forward onto a domain the run has not been on is new_domain, judged by the history entry it lands on', () => {
    const back = { name: 'go_back', params: {} };
    const forward = { name: 'go_forward', params: {} };
    expect(classifyRisk(back, facts({ historyTarget: 'https://partner.test/offer' }), ALL)).toEqual({
      risk: 'new_domain',
      reason: 'going back to partner.test, a domain this run has not been on (https://partner.test/offer)',
    });
    expect(classifyRisk(forward, facts({ historyTarget: 'https://partner.test/' }), ALL)?.reason).toContain(
      'going forward to partner.test',
    );
    expect(classifyRisk(back, facts({ historyTarget: 'https://www.example.com/' }), ALL)).toBeNull();
    // Nothing on that side of the history (or it could not be read): nothing to judge.
    expect(classifyRisk(back, facts(), ALL)).toBeNull();
  });

  it('a download link, a link or navigation to a file type the browser saves, is download', () => {
    expect(classifyRisk(click(5), facts(), ALL)).toMatchObject({ risk: 'download' });
    expect(classifyRisk(click(4), facts(), ALL)).toMatchObject({
      risk: 'download',
      reason: expect.stringContaining('.xlsx'),
    });
    expect(
      classifyRisk({ name: 'navigate', params: { url: 'https://shop.example.com/app.dmg' } }, facts(), ALL)?.risk,
    ).toBe('download');
  });

  it("a submit whose form goes to another origin than the page's is cross_origin_form; one to the page's own is not", () => {
    expect(classifyRisk(click(6), facts(), ALL)).toMatchObject({
      risk: 'cross_origin_form',
      reason: expect.stringContaining('https://payments.test'),
    });
    expect(classifyRisk(click(7), facts(), ALL)).toBeNull();
  });

  it('only the classes agent.risky names are asked about: a switched-off class lets the next one apply', () => {
    const partnerFile = { name: 'navigate', params: { url: 'https://partner.test/setup.exe' } };
    expect(classifyRisk(partnerFile, facts(), ALL)?.risk).toBe('download');
    expect(classifyRisk(partnerFile, facts(), ['new_domain'])?.risk).toBe('new_domain');
    expect(classifyRisk(partnerFile, facts(), ['upload'])).toBeNull();
    expect(classifyRisk({ name: 'evaluate', params: { code: '1' } }, facts(), [])).toBeNull();
  });

  it('reading, typing and scrolling are never risky', () => {
    for (const name of ['input', 'scroll', 'extract', 'send_keys', 'hover']) {
      expect(classifyRisk({ name, params: { index: 2 } }, facts(), ALL)).toBeNull();
    }
  });
});
