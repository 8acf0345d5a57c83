/**
 * The in-page indicator of a controlled tab, as the script text tabpilot runs in a world of its own in the
 * tab's top frame (a CDP isolated world: the page's scripts never see its globals). It draws a thin
 * border around the viewport and a small badge with a Stop button inside a closed shadow root of an
 * element shown as a manual popover, so it sits in the top layer above the page's own stacking contexts:
 * the page's CSS reaches neither the border nor the badge (every host property is set inline with
 * !important, and nothing inherits through `all: initial`), the page cannot reach the shadow root
 * (closed), and only a trusted click (a person's) on Stop counts. The border lets every pointer through
 * (pointer-events: none), so the page's hit tests and clicks meet the page's own elements there.
 *
 * Stop is reported as the answer to `stopPressed()`, a promise tabpilot keeps a call waiting on (the
 * call is answered at once when pressed, and after STOP_WAIT_MS with "idle", to be asked again): it needs
 * no Runtime domain and no binding, and nothing of it lives where the page's scripts run.
 *
 * Control is a lease: each renewal keeps the indicator up for LEASE_MS, so it goes away by itself when
 * tabpilot lets go of the tab without saying so (the person cancelled the debugging bar, the process
 * ended); a release or a stop removes it at once.
 *
 * Plain script text (no imports, no DOM types in the core): it runs as it is written here.
 */
export const INDICATOR_WORLD = 'tabpilot-indicator';
export const INDICATOR_GLOBAL = '__tabpilotIndicator';
/** The element the page sees in its DOM (and nothing inside it). */
export const INDICATOR_TAG = 'tabpilot-control-indicator';

/** How long one `stopPressed()` waits before answering "idle" (under the CDP command timeout). */
export const STOP_WAIT_MS = 20_000;

export function indicatorSource(leaseMs: number): string {
  return `(() => {
  if (window !== window.top || globalThis.${INDICATOR_GLOBAL} !== undefined) return;
  const LEASE_MS = ${JSON.stringify(leaseMs)};
  const HOST_STYLE = [
    'all: initial', 'display: block', 'position: fixed', 'inset: 0', 'width: 100vw', 'height: 100vh',
    'margin: 0', 'padding: 0', 'border: 0', 'background: transparent', 'overflow: visible',
    'max-width: none', 'max-height: none', 'pointer-events: none', 'z-index: 2147483647',
    'opacity: 1', 'visibility: visible', 'transform: none', 'filter: none', 'clip-path: none',
  ].map((rule) => rule + ' !important').join('; ');
  const SHADOW_HTML = '<style>' +
    ':host { all: initial; }' +
    '.frame { position: fixed; inset: 0; box-shadow: inset 0 0 0 3px #0b57d0; pointer-events: none; }' +
    '.badge { position: fixed; right: 10px; bottom: 10px; display: flex; align-items: center; gap: 8px;' +
    ' padding: 4px 4px 4px 10px; border-radius: 999px; background: #0b57d0; color: #fff;' +
    ' font: 600 12px/1.2 system-ui, sans-serif; box-shadow: 0 1px 4px rgba(0,0,0,.35); pointer-events: none; }' +
    '.dot { width: 8px; height: 8px; border-radius: 50%; background: #fff; }' +
    'button { all: initial; pointer-events: auto; cursor: pointer; padding: 3px 10px; border-radius: 999px;' +
    ' background: #d93025; color: #fff; font: 700 12px/1.2 system-ui, sans-serif; }' +
    'button:focus-visible { outline: 2px solid #fff; outline-offset: 1px; }' +
    'button:disabled { cursor: default; opacity: .8; }' +
    '</style><div class="frame"></div>' +
    '<div class="badge" role="status"><span class="dot"></span><span class="label">tabpilot controls this tab</span>' +
    '<button type="button" aria-label="Stop tabpilot">Stop</button></div>';
  let host = null;
  let button = null;
  let label = null;
  let wanted = false;
  let expiresAt = 0;
  let expiry = undefined;
  let waitingForBody = false;
  let pressed = false;
  const stopWaiters = [];
  const build = () => {
    host = document.createElement(${JSON.stringify(INDICATOR_TAG)});
    host.setAttribute('popover', 'manual');
    host.setAttribute('style', HOST_STYLE);
    const root = host.attachShadow({ mode: 'closed' });
    root.innerHTML = SHADOW_HTML;
    button = root.querySelector('button');
    label = root.querySelector('.label');
    button.addEventListener('click', (event) => {
      // A page script can dispatch a click but never a trusted one: only a person (or the browser) stops.
      if (!event.isTrusted || button.disabled) return;
      button.disabled = true;
      label.textContent = 'Stopping tabpilot…';
      if (stopWaiters.length === 0) pressed = true;
      for (const answer of stopWaiters.splice(0)) answer('stop');
    });
  };
  const place = () => {
    if (!wanted) return;
    const root = document.documentElement;
    if (root === null) return;
    if (host === null) build();
    if (host.getAttribute('style') !== HOST_STYLE) host.setAttribute('style', HOST_STYLE);
    if (host.getAttribute('popover') !== 'manual') host.setAttribute('popover', 'manual');
    if (host.parentNode !== root) root.append(host);
    if (!host.matches(':popover-open')) {
      try { host.showPopover(); } catch (error) { void error; }
    }
  };
  // The page may remove the element, restyle it or close the popover: each is put back as it was.
  const observer = new MutationObserver(() => place());
  const watch = () => {
    observer.disconnect();
    if (document.documentElement !== null) observer.observe(document.documentElement, { childList: true });
    if (host !== null) observer.observe(host, { attributes: true });
  };
  const onToggle = (event) => { if (event.target === host && event.newState === 'closed') place(); };
  document.addEventListener('toggle', onToggle, true);
  const expire = () => {
    const left = expiresAt - Date.now();
    if (left > 0) { expiry = setTimeout(expire, left); return; }
    expiry = undefined;
    hide();
  };
  const hide = () => {
    wanted = false;
    observer.disconnect();
    if (host !== null) host.remove();
    pressed = false;
    if (button !== null) { button.disabled = false; label.textContent = 'tabpilot controls this tab'; }
  };
  const show = () => {
    expiresAt = Date.now() + LEASE_MS;
    if (expiry === undefined) expiry = setTimeout(expire, LEASE_MS);
    wanted = true;
    if (!waitingForBody && (document.documentElement === null || document.body === null)) {
      waitingForBody = true;
      document.addEventListener('DOMContentLoaded', () => { waitingForBody = false; place(); watch(); }, { once: true });
    }
    place();
    watch();
  };
  globalThis.${INDICATOR_GLOBAL} = {
    renew: () => { show(); return true; },
    remove: () => { clearTimeout(expiry); expiry = undefined; hide(); return true; },
    stopPressed: () => new Promise((answer) => {
      if (pressed) { pressed = false; answer('stop'); return; }
      stopWaiters.push(answer);
      setTimeout(() => {
        const at = stopWaiters.indexOf(answer);
        if (at >= 0) { stopWaiters.splice(at, 1); answer('idle'); }
      }, ${JSON.stringify(STOP_WAIT_MS)});
    }),
  };
  show();
})();`;
}
