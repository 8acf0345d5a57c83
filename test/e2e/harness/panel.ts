import type { CdpSession } from '../../../src/cdp/session';
import type { CommandResponse } from '../../../src/protocol/commands';
import { pollUntil } from '../../../src/shared/time';
import { type BrowserClient, evaluate, PANEL_URL } from './browser';
import { decodePng, type RgbaImage } from './image';

/** The width Chrome gives a side panel by default; the panel must be usable at it. */
export const SIDE_PANEL_WIDTH = 360;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The side panel page opened as a tab and driven the way a person would: clicks,
 * typing (input events, which Preact listens to), hovering with the real mouse, and reading what it shows.
 */
export class PanelPage {
  readonly session: CdpSession;
  readonly targetId: string;

  private constructor(session: CdpSession, targetId: string) {
    this.session = session;
    this.targetId = targetId;
  }

  /** Opens the panel in a background tab, so the person's tab stays the active ("current") one. */
  static async open(client: BrowserClient): Promise<PanelPage> {
    const { targetId } = await client.root.send('Target.createTarget', { url: PANEL_URL, background: true });
    return PanelPage.connect(client, targetId);
  }

  /** Drives a panel page that is already open (one opened in another window, say). */
  static async connect(client: BrowserClient, targetId: string): Promise<PanelPage> {
    const session = await client.attach(targetId);
    await session.send('Emulation.setDeviceMetricsOverride', {
      width: SIDE_PANEL_WIDTH,
      height: 800,
      deviceScaleFactor: 1,
      mobile: false,
    });
    const panel = new PanelPage(session, targetId);
    await panel.waitForConnected();
    return panel;
  }

  eval<T = unknown>(expression: string): Promise<T> {
    return evaluate<T>(this.session, expression);
  }

  async waitForConnected(): Promise<void> {
    await this.waitFor(`document.getElementById('status')?.textContent === 'connected'`, 'the panel to connect');
  }

  /** Polls until the expression is truthy in the panel. */
  async waitFor(expression: string, what: string, timeoutMs = 10_000): Promise<void> {
    await pollUntil(async () => ((await this.eval<boolean>(`Boolean(${expression})`)) ? true : undefined), {
      timeoutMs,
      intervalMs: 50,
      onTimeout: () => new Error(`timed out waiting for ${what}`),
    });
  }

  async exists(selector: string): Promise<boolean> {
    return this.eval<boolean>(`document.querySelector(${JSON.stringify(selector)}) !== null`);
  }

  async text(selector: string): Promise<string> {
    return this.eval<string>(`document.querySelector(${JSON.stringify(selector)})?.textContent ?? ''`);
  }

  async waitForText(selector: string, includes: string, timeoutMs = 10_000): Promise<string> {
    await this.waitFor(
      `(document.querySelector(${JSON.stringify(selector)})?.textContent ?? '').includes(${JSON.stringify(includes)})`,
      `${selector} to show "${includes}"`,
      timeoutMs,
    );
    return this.text(selector);
  }

  async click(selector: string): Promise<void> {
    await this.waitFor(`document.querySelector(${JSON.stringify(selector)})`, `${selector} to exist`);
    await this.eval(`document.querySelector(${JSON.stringify(selector)}).click()`);
  }

  /** Picks files in a file input, as the file chooser does (CDP sets them and fires input and change). */
  async chooseFiles(selector: string, paths: string[]): Promise<void> {
    await this.waitFor(`document.querySelector(${JSON.stringify(selector)})`, `${selector} to exist`);
    const { result } = await this.session.send('Runtime.evaluate', {
      expression: `document.querySelector(${JSON.stringify(selector)})`,
    });
    await this.session.send('DOM.setFileInputFiles', { objectId: result.objectId, files: paths });
  }

  /** Sets a field's value and fires `input`, as typing does. */
  async type(selector: string, text: string): Promise<void> {
    await this.waitFor(`document.querySelector(${JSON.stringify(selector)})`, `${selector} to exist`);
    await this.eval(`(() => {
      const field = document.querySelector(${JSON.stringify(selector)});
      const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value').set;
      setter.call(field, ${JSON.stringify(text)});
      field.dispatchEvent(new Event('input', { bubbles: true }));
    })()`);
  }

  /** Chooses a <select> option and fires `change`. */
  async select(selector: string, value: string): Promise<void> {
    await this.waitFor(`document.querySelector(${JSON.stringify(selector)})`, `${selector} to exist`);
    await this.eval(`(() => {
      const field = document.querySelector(${JSON.stringify(selector)});
      field.value = ${JSON.stringify(value)};
      field.dispatchEvent(new Event('change', { bubbles: true }));
    })()`);
  }

  async setChecked(selector: string, checked: boolean): Promise<void> {
    await this.eval(`(() => {
      const field = document.querySelector(${JSON.stringify(selector)});
      if (field.checked !== ${checked}) field.click();
    })()`);
  }

  async view(name: 'page' | 'task' | 'flows' | 'actions' | 'timeline' | 'settings'): Promise<void> {
    await this.click(`#view-${name}`);
    await this.waitFor(`document.getElementById('view-${name}')?.getAttribute('aria-selected') === 'true'`, name);
  }

  /**
   * The JSON response a ResponseView shows (`#output`, `#action-output`, `#page-output`). Pass the
   * response seen before an action to wait for the action's own (each request has a new id).
   */
  async response(id: string, previous?: CommandResponse, timeoutMs = 15_000): Promise<CommandResponse> {
    const read = `(() => { try { return JSON.parse(document.getElementById(${JSON.stringify(id)})?.textContent ?? ''); } catch { return null; } })()`;
    return pollUntil(
      async () => {
        const shown = await this.eval<CommandResponse | null>(read);
        return shown !== null && (previous === undefined || shown.id !== previous.id) ? shown : undefined;
      },
      { timeoutMs, intervalMs: 50, onTimeout: () => new Error(`timed out waiting for a new response in #${id}`) },
    );
  }

  /** The response shown now, if any. */
  async shown(id: string): Promise<CommandResponse | undefined> {
    const text = await this.text(`#${id}`);
    return text === '' ? undefined : (JSON.parse(text) as CommandResponse);
  }

  async box(selector: string): Promise<Box | null> {
    return this.eval<Box | null>(`(() => {
      const node = document.querySelector(${JSON.stringify(selector)});
      if (node === null) return null;
      const r = node.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    })()`);
  }

  /**
   * Points at an element: mouseenter on it and mouseleave on the element the pointer was on, as a
   * pointer moving in gives them. (A background tab gets no hover from Input.dispatchMouseEvent until it
   * paints, and the panel stays in the background so the person's tab stays the current one.)
   */
  async hover(selector: string): Promise<void> {
    await this.waitFor(`document.querySelector(${JSON.stringify(selector)})`, `${selector} to exist`);
    await this.eval(`(() => {
      const target = document.querySelector(${JSON.stringify(selector)});
      const previous = window.__tabpilotHovered;
      const leaving = [];
      for (let node = previous; node && !node.contains(target); node = node.parentElement) leaving.push(node);
      for (const node of leaving) node.dispatchEvent(new MouseEvent('mouseleave', { bubbles: false }));
      const entering = [];
      for (let node = target; node && !(previous && node.contains(previous)); node = node.parentElement) entering.unshift(node);
      for (const node of entering) node.dispatchEvent(new MouseEvent('mouseenter', { bubbles: false }));
      window.__tabpilotHovered = target;
    })()`);
  }

  /** A picture of the panel. A background tab paints no frames, so the panel is brought to the front. */
  async screenshot(): Promise<RgbaImage> {
    await this.session.send('Page.bringToFront');
    // A page brought to the front shows its last frame from when it was behind until it draws again: wait
    // until it is visible and two frames have been drawn (rAF runs only then), so the picture is of now.
    await this.eval(
      `new Promise((drawn) => { const wait = () => document.visibilityState === 'visible' ? requestAnimationFrame(() => requestAnimationFrame(() => drawn(true))) : setTimeout(wait, 20); wait(); })`,
    );
    const { data } = await this.session.send('Page.captureScreenshot', { format: 'png' });
    return decodePng(Buffer.from(data, 'base64'));
  }
}
