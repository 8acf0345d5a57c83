import type { ServerResponse } from 'node:http';
import type { ChallengeServer } from './challenge-server';
import type { FixtureServer } from './fixture-server';

function page(title: string, body: string, head = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;
}

function send(res: ServerResponse, html: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}

/** The secret the guard contract types; it must never come back out of the session. */
export const SECRET_MAIL = 'secret-mail@x.test';

/** Pages for the guard contract: a form that echoes what is typed, hidden text, a stuck page. */
export function addGuardPages(server: FixtureServer): void {
  // Echoes the typed value where pages do: a paragraph, an attribute, a link's query, the title.
  server.route('/g/echo.html', (_req, res) =>
    send(
      res,
      page(
        'Echo form',
        `<label for="em">Email</label><input id="em" type="email">
<p id="echo">Nothing typed yet</p>
<a id="share" href="/g/echo.html">Share</a>
<script>
  const em = document.getElementById('em');
  em.addEventListener('input', () => {
    document.getElementById('echo').textContent = 'You typed ' + em.value + ' just now';
    em.setAttribute('data-last', em.value);
    document.getElementById('share').href = '/g/echo.html?who=' + encodeURIComponent(em.value);
  });
</script>`,
      ),
    ),
  );
  // Text a person cannot see, beside text they can (also by scrolling) and a screen-reader label.
  server.route('/g/hidden-text.html', (_req, res) =>
    send(
      res,
      page(
        'Hidden text',
        `<p>Plain visible text</p>
<p style="font-size:0">Zero size text</p>
<div style="position:absolute;left:-9999px">Far left text</div>
<p style="position:absolute;clip:rect(0,0,0,0);width:1px;height:1px;overflow:hidden;white-space:nowrap">Clipped text</p>
<div style="height:0;overflow:hidden"><p>Inside a zero box</p></div>
<p style="color:#fff;background:#fff">White on white</p>
<div style="background:#123456"><p style="color:#123457">Navy on navy</p></div>
<p style="color:transparent">Transparent text</p>
<h2 style="text-indent:-9999px"><span>Indented logo text</span></h2>
<div style="font-size:0"><span style="font-size:16px">Sized again in a gapless row</span></div>
<div style="color:transparent"><span style="color:#222">Coloured again inside</span></div>
<button id="close"><svg width="16" height="16" aria-hidden="true"></svg><span class="sr-only">Close dialog</span></button>
<div style="height:60px;overflow:auto"><p>First line in a box</p><p style="margin-top:200px">Scrolled inside the box</p></div>
<p style="margin-top:3000px">Below the fold</p>`,
        `<style>.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}</style>`,
      ),
    ),
  );
  // A button whose click never returns: the page's main thread spins for good.
  server.route('/g/freeze.html', (_req, res) =>
    send(
      res,
      page(
        'Freeze',
        `<h1>Freezer</h1><button id="freeze" onclick="for (;;) {}">Freeze the page</button><p>Still here</p>`,
      ),
    ),
  );
  // A request that gets no answer until the test ends (the server closes every connection on stop).
  server.route('/g/never', () => undefined);
  server.route('/g/waiting.html', (_req, res) =>
    send(res, page('Waiting', `<h1>Waiting</h1><script>fetch('/g/never').catch(() => undefined);</script>`)),
  );
}

/**
 * Pages with each challenge as the vendors' scripts leave it in the DOM (their containers, iframes with
 * the real frame URLs and attributes, the hidden response fields), and Cloudflare's challenge page.
 */
export function addChallengePages(server: FixtureServer, challenges: ChallengeServer): void {
  const anchor = challenges.url(
    'www.google.com',
    '/recaptcha/api2/anchor?ar=1&k=6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI&co=aHR0cDovL2xvY2FsaG9zdA..&hl=en&v=pCoGBhjs9s8EhFOHJFe8cqis&size=normal&cb=x1',
  );
  const bframe = challenges.url(
    'www.google.com',
    '/recaptcha/api2/bframe?hl=en&v=pCoGBhjs9s8EhFOHJFe8cqis&k=6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI',
  );
  // reCAPTCHA v3 / invisible: its anchor frame is there on every page of a site, and needs no person.
  const invisibleBadge = `<div class="grecaptcha-badge" data-style="bottomright" style="width: 256px; height: 60px;"><div class="grecaptcha-logo"><iframe title="reCAPTCHA" width="256" height="60" role="presentation" name="a-x2" frameborder="0" scrolling="no" src="${anchor.replace('size=normal', 'size=invisible')}"></iframe></div><textarea id="g-recaptcha-response-100000" name="g-recaptcha-response" class="g-recaptcha-response" style="display: none;"></textarea></div>`;
  const form = '<form><input name="q" placeholder="Your name"><button id="go" type="button">Continue</button></form>';
  server.route('/g/recaptcha.html', (_req, res) =>
    send(
      res,
      page(
        'Sign up',
        `${form}
<div class="g-recaptcha" data-sitekey="6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI"><div style="width: 304px; height: 78px;"><div><iframe title="reCAPTCHA" width="304" height="78" role="presentation" name="a-x1" frameborder="0" scrolling="no" sandbox="allow-forms allow-popups allow-same-origin allow-scripts allow-top-navigation allow-modals allow-popups-to-escape-sandbox allow-storage-access-by-user-activation" src="${anchor}"></iframe></div><textarea id="g-recaptcha-response" name="g-recaptcha-response" class="g-recaptcha-response" style="width: 250px; height: 40px; border: 1px solid rgb(193, 193, 193); margin: 10px 25px; padding: 0px; resize: none; display: none;"></textarea></div><iframe style="display: none;"></iframe></div>
<div style="visibility: hidden; position: absolute; width: 100%; top: -10000px; left: 0px; right: 0px; transition: visibility linear 0.3s, opacity 0.3s linear; opacity: 0;"><div><iframe title="recaptcha challenge expires in two minutes" name="c-x1" frameborder="0" scrolling="no" sandbox="allow-forms allow-popups allow-same-origin allow-scripts allow-top-navigation allow-modals allow-popups-to-escape-sandbox allow-storage-access-by-user-activation" src="${bframe}" style="width: 100%; height: 100%;"></iframe></div></div>`,
      ),
    ),
  );
  const checkbox = challenges.url(
    'newassets.hcaptcha.com',
    '/captcha/v1/5d5e3d1/static/hcaptcha.html#frame=checkbox&id=0y8yuyzfi8tc&host=localhost&sentry=true&reportapi=https%3A%2F%2Faccounts.hcaptcha.com&recaptchacompat=true&custom=false&hl=en&tplinks=on&sitekey=10000000-ffff-ffff-ffff-000000000001&theme=light',
  );
  server.route('/g/hcaptcha.html', (_req, res) =>
    send(
      res,
      page(
        'Contact',
        `${form}<div class="h-captcha" data-sitekey="10000000-ffff-ffff-ffff-000000000001"><iframe src="${checkbox}" tabindex="0" frameborder="0" scrolling="no" allow="private-state-token-issuance 'src'; private-state-token-redemption 'src'" title="Widget containing checkbox for hCaptcha security challenge" data-hcaptcha-widget-id="0y8yuyzfi8tc" data-hcaptcha-response="" style="pointer-events: auto; width: 303px; height: 78px; overflow: hidden;"></iframe><textarea id="h-captcha-response-0y8yuyzfi8tc" name="h-captcha-response" style="display: none;"></textarea><textarea id="g-recaptcha-response-0y8yuyzfi8tc" name="g-recaptcha-response" style="display: none;"></textarea></div>`,
      ),
    ),
  );
  const turnstile = challenges.url(
    'challenges.cloudflare.com',
    '/cdn-cgi/challenge-platform/h/b/turnstile/if/ov2/av0/rcv0/0/8m3ri/0x4AAAAAAAABkMYinukE8nzY/auto/fbE/new/normal/auto/',
  );
  server.route('/g/turnstile.html', (_req, res) =>
    send(
      res,
      page(
        'Log in',
        `${form}${invisibleBadge}<div class="cf-turnstile" data-sitekey="0x4AAAAAAAABkMYinukE8nzY"><div><iframe src="${turnstile}" allow="cross-origin-isolated; fullscreen; autoplay" sandbox="allow-same-origin allow-scripts allow-popups" id="cf-chl-widget-8m3ri" tabindex="0" title="Widget containing a Cloudflare security challenge" style="border: none; overflow: hidden; width: 300px; height: 65px;"></iframe><input type="hidden" name="cf-turnstile-response" id="cf-chl-widget-8m3ri_response"></div></div>`,
      ),
    ),
  );
  server.route('/g/cf-challenge.html', (_req, res) =>
    send(
      res,
      page(
        'Just a moment...',
        `<div class="main-wrapper" role="main"><div class="main-content"><h1 class="zone-name-title h1">localhost</h1><h2 id="challenge-running" class="h2">Verify you are human by completing the action below.</h2><div id="challenge-stage"><div><iframe src="${turnstile.replace('/normal/auto/', '/normal/dark/')}" id="cf-chl-widget-ab12c" title="Widget containing a Cloudflare security challenge" style="border: none; overflow: hidden; width: 300px; height: 65px;"></iframe><input type="hidden" name="cf-turnstile-response" id="cf-chl-widget-ab12c_response"></div></div><div id="challenge-body-text" class="core-msg spacer">localhost needs to review the security of your connection before proceeding.</div></div></div>
<script>window._cf_chl_opt = { cvId: '3', cZone: 'localhost', cType: 'managed', cRay: '8f1c2d3e4f5a6b7c', cH: 'x' };</script>`,
      ),
    ),
  );
}
