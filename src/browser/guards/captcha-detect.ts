import type { CaptchaVendor } from '../../protocol/events/captcha.events';

/**
 * Challenge detection from what CDP and the page tell: the frames a page loaded (every frame, closed
 * shadow roots and other processes included) and a small look at its markup (which frames are shown,
 * whether the widget's response field holds a token, whether the page is an interstitial).
 */
export type FrameRole = 'checkbox' | 'challenge' | 'invisible';

export interface ChallengeFrame {
  readonly vendor: Exclude<CaptchaVendor, 'cloudflare'>;
  readonly role: FrameRole;
}

/** What the in-page probe reports (PROBE_EXPRESSION). */
export interface PageFacts {
  /** Challenge iframes in the page's light DOM, and whether a person can see each. */
  readonly frames: ReadonlyArray<{ src: string; visible: boolean }>;
  /** Whether each vendor's response field holds a token (the widget was solved). */
  readonly tokens: Readonly<Record<'recaptcha' | 'hcaptcha' | 'turnstile', boolean>>;
  /** The page is a challenge standing in front of the site (Cloudflare's "Just a moment..."). */
  readonly interstitial: boolean;
}

export interface Challenge {
  readonly vendor: CaptchaVendor;
  readonly kind: 'widget' | 'interstitial';
  readonly url: string;
}

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    // Not a URL (about:blank, a srcdoc frame): not a challenge frame.
    return undefined;
  }
}

/** The vendor and role of a challenge frame, by its real hosts and paths; undefined for other frames. */
export function challengeFrame(url: string): ChallengeFrame | undefined {
  const parsed = parse(url);
  if (parsed === undefined) {
    return undefined;
  }
  const host = parsed.hostname.toLowerCase();
  const path = parsed.pathname;
  if (/^(www\.)?(google\.com|recaptcha\.net)$/.test(host)) {
    const match = /^\/recaptcha\/(api2|enterprise)\/(anchor|bframe)/.exec(path);
    if (match === null) {
      return undefined;
    }
    if (match[2] === 'bframe') {
      return { vendor: 'recaptcha', role: 'challenge' };
    }
    return { vendor: 'recaptcha', role: parsed.searchParams.get('size') === 'invisible' ? 'invisible' : 'checkbox' };
  }
  if (host === 'hcaptcha.com' || host.endsWith('.hcaptcha.com')) {
    if (!path.includes('/captcha/') && !path.endsWith('hcaptcha.html')) {
      return undefined;
    }
    const frame = new URLSearchParams(parsed.hash.slice(1)).get('frame') ?? 'checkbox';
    return {
      vendor: 'hcaptcha',
      role: frame === 'challenge' ? 'challenge' : frame === 'checkbox-invisible' ? 'invisible' : 'checkbox',
    };
  }
  if (host === 'challenges.cloudflare.com' && path.startsWith('/cdn-cgi/challenge-platform/')) {
    return { vendor: 'turnstile', role: 'checkbox' };
  }
  return undefined;
}

function sameFrame(a: string, b: string): boolean {
  const strip = (url: string): string => url.split('#')[0] ?? url;
  return strip(a) === strip(b);
}

/**
 * Whether the page waits for a person, and for which challenge. A checkbox widget waits until its
 * token is there; an invisible one (reCAPTCHA v3, invisible hCaptcha) only while its challenge frame is
 * shown; an interstitial page until it is gone.
 */
export function decideChallenge(frameUrls: readonly string[], facts: PageFacts, pageUrl: string): Challenge | null {
  if (facts.interstitial) {
    return { vendor: 'cloudflare', kind: 'interstitial', url: pageUrl };
  }
  for (const url of frameUrls) {
    const frame = challengeFrame(url);
    if (frame === undefined || facts.tokens[frame.vendor]) {
      continue;
    }
    if (frame.role === 'checkbox') {
      return { vendor: frame.vendor, kind: 'widget', url };
    }
    if (frame.role === 'challenge' && facts.frames.some((shown) => shown.visible && sameFrame(shown.src, url))) {
      return { vendor: frame.vendor, kind: 'widget', url };
    }
  }
  return null;
}

/** Runs in the page's main world (Cloudflare's `_cf_chl_opt` lives there); plain DOM reads, no side effects. */
export const PROBE_EXPRESSION = `(() => {
  const shown = (element) => {
    const box = element.getBoundingClientRect();
    return box.width > 2 && box.height > 2 && element.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  };
  const frames = Array.from(document.querySelectorAll('iframe'))
    .filter((frame) => /recaptcha|hcaptcha|challenges\\.cloudflare\\.com/.test(frame.src))
    .map((frame) => ({ src: frame.src, visible: shown(frame) }));
  const filled = (selector) =>
    Array.from(document.querySelectorAll(selector)).some(
      (field) => (field.value || field.getAttribute('data-hcaptcha-response') || '') !== '',
    );
  return {
    frames,
    tokens: {
      recaptcha: filled('textarea[name="g-recaptcha-response"]'),
      hcaptcha: filled('textarea[name="h-captcha-response"], iframe[data-hcaptcha-response]'),
      turnstile: filled('input[name="cf-turnstile-response"]'),
    },
    interstitial:
      document.querySelector('#challenge-form, #challenge-stage, #challenge-running, #cf-challenge-running') !== null ||
      typeof window._cf_chl_opt === 'object',
  };
})()`;

const NAMES: Record<CaptchaVendor, string> = {
  recaptcha: 'reCAPTCHA',
  hcaptcha: 'hCaptcha',
  turnstile: 'Cloudflare Turnstile',
  cloudflare: 'Cloudflare',
};

export function vendorName(vendor: CaptchaVendor): string {
  return NAMES[vendor];
}
