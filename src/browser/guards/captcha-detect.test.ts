import { describe, expect, it } from 'vitest';
import { challengeFrame, decideChallenge, type PageFacts } from './captcha-detect';

const none: PageFacts['tokens'] = { recaptcha: false, hcaptcha: false, turnstile: false };
const facts = (over: Partial<PageFacts> = {}): PageFacts => ({
  frames: [],
  tokens: none,
  interstitial: false,
  ...over,
});

const ANCHOR = 'https://www.google.com/recaptcha/api2/anchor?ar=1&k=key&co=x&hl=en&v=v&size=normal&cb=c';
const BFRAME = 'https://www.google.com/recaptcha/api2/bframe?hl=en&v=v&k=key';
const HCAPTCHA = 'https://newassets.hcaptcha.com/captcha/v1/abc/static/hcaptcha.html#frame=checkbox&id=0&sitekey=k';
const TURNSTILE =
  'https://challenges.cloudflare.com/cdn-cgi/challenge-platform/h/b/turnstile/if/ov2/av0/rcv0/0/x/key/auto/fbE/new/normal/auto/';

describe('challenge frames', () => {
  it('knows each vendor by its real host and path, and nothing else', () => {
    expect(challengeFrame(ANCHOR)).toEqual({ vendor: 'recaptcha', role: 'checkbox' });
    expect(challengeFrame(ANCHOR.replace('size=normal', 'size=invisible'))).toEqual({
      vendor: 'recaptcha',
      role: 'invisible',
    });
    expect(challengeFrame('https://www.recaptcha.net/recaptcha/enterprise/anchor?k=x')?.vendor).toBe('recaptcha');
    expect(challengeFrame(BFRAME)).toEqual({ vendor: 'recaptcha', role: 'challenge' });
    expect(challengeFrame(HCAPTCHA)).toEqual({ vendor: 'hcaptcha', role: 'checkbox' });
    expect(challengeFrame(HCAPTCHA.replace('frame=checkbox', 'frame=challenge'))?.role).toBe('challenge');
    expect(challengeFrame(HCAPTCHA.replace('frame=checkbox', 'frame=checkbox-invisible'))?.role).toBe('invisible');
    expect(challengeFrame(TURNSTILE)).toEqual({ vendor: 'turnstile', role: 'checkbox' });
    for (const other of [
      'https://www.google.com/search?q=recaptcha',
      'https://evil.test/recaptcha/api2/anchor',
      'https://hcaptcha.com.evil.test/captcha/v1/x/static/hcaptcha.html',
      'https://challenges.cloudflare.com/other',
      'about:blank',
      'not a url',
    ]) {
      expect(challengeFrame(other), other).toBeUndefined();
    }
  });
});

describe('deciding whether a page waits for a person', () => {
  it('a checkbox widget waits until its token is there', () => {
    expect(decideChallenge([ANCHOR], facts(), 'https://site.test/')).toEqual({
      vendor: 'recaptcha',
      kind: 'widget',
      url: ANCHOR,
    });
    expect(decideChallenge([ANCHOR], facts({ tokens: { ...none, recaptcha: true } }), 'https://site.test/')).toBeNull();
    expect(decideChallenge([HCAPTCHA], facts(), '')?.vendor).toBe('hcaptcha');
    expect(decideChallenge([TURNSTILE], facts({ tokens: { ...none, turnstile: true } }), '')).toBeNull();
  });

  it('an invisible widget needs nobody until its challenge frame is shown', () => {
    const invisible = ANCHOR.replace('size=normal', 'size=invisible');
    expect(decideChallenge([invisible, BFRAME], facts({ frames: [{ src: BFRAME, visible: false }] }), '')).toBeNull();
    expect(decideChallenge([invisible, BFRAME], facts({ frames: [{ src: BFRAME, visible: true }] }), '')).toMatchObject(
      {
        vendor: 'recaptcha',
        url: BFRAME,
      },
    );
  });

  it("Cloudflare's challenge page is an interstitial whatever frames it has", () => {
    expect(decideChallenge([], facts({ interstitial: true }), 'https://site.test/')).toEqual({
      vendor: 'cloudflare',
      kind: 'interstitial',
      url: 'https://site.test/',
    });
  });
});
