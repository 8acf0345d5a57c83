/**
 * The in-page indicator of a controlled tab, in tabpilot's isolated world of the tab's top frame (the
 * page's scripts never see what it keeps). It draws a thin border around the viewport and a small badge
 * with a Stop button inside a closed shadow root of an element shown as a manual popover, so it sits in
 * the top layer above the page's own stacking contexts: the page's CSS reaches neither the border nor the
 * badge (every host property is set inline with !important, and nothing inherits through `all: initial`),
 * the page cannot reach the shadow root (closed), and only a trusted click (a person's) on Stop counts.
 * The border lets every pointer through (pointer-events: none), so the page's hit tests and clicks meet
 * the page's own elements there.
 *
 * Stop is reported as the answer to `indicatorStopPressed`, a promise the core keeps a call waiting on
 * (answered at once when pressed, and after a while with "idle", to be asked again): it needs no Runtime
 * binding, and nothing of it lives where the page's scripts run.
 *
 * Control is a lease: each renewal keeps the indicator up for a while, so it goes away by itself when
 * tabpilot lets go of the tab without saying so (the person cancelled the debugging bar, the process
 * ended); a release or a stop removes it at once.
 */
import type { IndicatorValueFunctions } from '../payload';

/** The element the page sees in its DOM (and nothing inside it). */
const TAG = 'tabpilot-control-indicator';
const LABEL = 'tabpilot controls this tab';

const HOST_STYLE = [
  'all: initial',
  'display: block',
  'position: fixed',
  'inset: 0',
  'width: 100vw',
  'height: 100vh',
  'margin: 0',
  'padding: 0',
  'border: 0',
  'background: transparent',
  'overflow: visible',
  'max-width: none',
  'max-height: none',
  'pointer-events: none',
  'z-index: 2147483647',
  'opacity: 1',
  'visibility: visible',
  'transform: none',
  'filter: none',
  'clip-path: none',
]
  .map((rule) => `${rule} !important`)
  .join('; ');

const SHADOW_CSS = [
  ':host { all: initial; }',
  '.frame { position: fixed; inset: 0; box-shadow: inset 0 0 0 3px #0b57d0; pointer-events: none; }',
  '.badge { position: fixed; right: 10px; bottom: 10px; display: flex; align-items: center; gap: 8px;' +
    ' padding: 4px 4px 4px 10px; border-radius: 999px; background: #0b57d0; color: #fff;' +
    ' font: 600 12px/1.2 system-ui, sans-serif; box-shadow: 0 1px 4px rgba(0,0,0,.35); pointer-events: none; }',
  '.dot { width: 8px; height: 8px; border-radius: 50%; background: #fff; }',
  'button { all: initial; pointer-events: auto; cursor: pointer; padding: 3px 10px; border-radius: 999px;' +
    ' background: #d93025; color: #fff; font: 700 12px/1.2 system-ui, sans-serif; }',
  'button:focus-visible { outline: 2px solid #fff; outline-offset: 1px; }',
  'button:disabled { cursor: default; opacity: .8; }',
].join('');

/** The drawn parts: the host the page sees, and the two parts of its closed shadow root that change. */
interface Drawn {
  host: HTMLElement;
  button: HTMLButtonElement;
  label: HTMLSpanElement;
}

type Answer = (answer: 'stop' | 'idle') => void;

/** One document's indicator: what it drew, whether it should show, until when, and who waits for Stop. */
class Indicator {
  #drawn: Drawn | null = null;
  #wanted = false;
  #expiresAt = 0;
  #expiry: ReturnType<typeof setTimeout> | undefined;
  #waitingForBody = false;
  /** Stop was pressed while no call waited: the next one answers at once. */
  #pressed = false;
  readonly #stopWaiters: Answer[] = [];
  // The page may remove the element, restyle it or close the popover: each is put back as it was.
  readonly #observer = new MutationObserver(() => this.#place());

  constructor() {
    document.addEventListener(
      'toggle',
      (event) => {
        if (event.target === this.#drawn?.host && event instanceof ToggleEvent && event.newState === 'closed') {
          this.#place();
        }
      },
      true,
    );
  }

  renew(leaseMs: number): true {
    this.#expiresAt = Date.now() + leaseMs;
    this.#expiry ??= setTimeout(() => this.#expire(), leaseMs);
    this.#wanted = true;
    if (!this.#waitingForBody && (document.documentElement === null || document.body === null)) {
      this.#waitingForBody = true;
      document.addEventListener(
        'DOMContentLoaded',
        () => {
          this.#waitingForBody = false;
          this.#place();
          this.#watch();
        },
        { once: true },
      );
    }
    this.#place();
    this.#watch();
    return true;
  }

  remove(): true {
    clearTimeout(this.#expiry);
    this.#expiry = undefined;
    this.#hide();
    return true;
  }

  stopPressed(waitMs: number): Promise<'stop' | 'idle'> {
    return new Promise((answer) => {
      if (this.#pressed) {
        this.#pressed = false;
        answer('stop');
        return;
      }
      this.#stopWaiters.push(answer);
      setTimeout(() => {
        const at = this.#stopWaiters.indexOf(answer);
        if (at >= 0) {
          this.#stopWaiters.splice(at, 1);
          answer('idle');
        }
      }, waitMs);
    });
  }

  #draw(): Drawn {
    const host = document.createElement(TAG);
    host.setAttribute('popover', 'manual');
    host.setAttribute('style', HOST_STYLE);
    const root = host.attachShadow({ mode: 'closed' });
    const style = document.createElement('style');
    style.textContent = SHADOW_CSS;
    const frame = document.createElement('div');
    frame.className = 'frame';
    const badge = document.createElement('div');
    badge.className = 'badge';
    badge.setAttribute('role', 'status');
    const dot = document.createElement('span');
    dot.className = 'dot';
    const label = document.createElement('span');
    label.className = 'label';
    label.textContent = LABEL;
    const button = document.createElement('button');
    button.type = 'button';
    button.setAttribute('aria-label', 'Stop tabpilot');
    button.textContent = 'Stop';
    badge.append(dot, label, button);
    root.append(style, frame, badge);
    button.addEventListener('click', (event) => {
      // A page script can dispatch a click but never a trusted one: only a person (or the browser) stops.
      if (!event.isTrusted || button.disabled) {
        return;
      }
      button.disabled = true;
      label.textContent = 'Stopping tabpilot…';
      if (this.#stopWaiters.length === 0) {
        this.#pressed = true;
      }
      for (const answer of this.#stopWaiters.splice(0)) {
        answer('stop');
      }
    });
    return { host, button, label };
  }

  #place(): void {
    const root = document.documentElement;
    if (!this.#wanted || root === null) {
      return;
    }
    this.#drawn ??= this.#draw();
    const { host } = this.#drawn;
    if (host.getAttribute('style') !== HOST_STYLE) {
      host.setAttribute('style', HOST_STYLE);
    }
    if (host.getAttribute('popover') !== 'manual') {
      host.setAttribute('popover', 'manual');
    }
    if (host.parentNode !== root) {
      root.append(host);
    }
    if (!host.matches(':popover-open')) {
      try {
        host.showPopover();
      } catch (error) {
        // Not shown now (a document that cannot show popovers yet); the next change or renewal tries again.
        void error;
      }
    }
  }

  #watch(): void {
    this.#observer.disconnect();
    if (document.documentElement !== null) {
      this.#observer.observe(document.documentElement, { childList: true });
    }
    if (this.#drawn !== null) {
      this.#observer.observe(this.#drawn.host, { attributes: true });
    }
  }

  #expire(): void {
    const left = this.#expiresAt - Date.now();
    if (left > 0) {
      this.#expiry = setTimeout(() => this.#expire(), left);
      return;
    }
    this.#expiry = undefined;
    this.#hide();
  }

  #hide(): void {
    this.#wanted = false;
    this.#observer.disconnect();
    this.#pressed = false;
    if (this.#drawn !== null) {
      this.#drawn.host.remove();
      this.#drawn.button.disabled = false;
      this.#drawn.label.textContent = LABEL;
    }
  }
}

/**
 * The document's one indicator, kept on the world's global (as the world's state is): a bundle of another
 * version installed in the same world later finds it, rather than drawing a second one.
 */
function indicator(): Indicator {
  const holder = globalThis as unknown as { __tabpilotIndicator?: Indicator };
  holder.__tabpilotIndicator ??= new Indicator();
  return holder.__tabpilotIndicator;
}

type IndicatorApi = {
  [K in keyof IndicatorValueFunctions]: (
    ...args: IndicatorValueFunctions[K]['args']
  ) => IndicatorValueFunctions[K]['result'] | Promise<IndicatorValueFunctions[K]['result']>;
};

export const api: IndicatorApi = {
  indicatorRenew: (leaseMs) => indicator().renew(leaseMs),
  indicatorRemove: () => indicator().remove(),
  indicatorStopPressed: (waitMs) => indicator().stopPressed(waitMs),
};
