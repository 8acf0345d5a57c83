import { clickAt, moveTo, press, wheel, type Modifier, type MouseButton } from '../../src/browser/actions/mouse';
import type { Page } from './page';

/**
 * Coordinate mouse input on one tab (tab viewport CSS px), as browser-use's actor Mouse: trusted events,
 * no checks of what is under the pointer (the `click` tool's coordinate path checks; this does not).
 */
export class Mouse {
  readonly #page: Page;
  #x = 0;
  #y = 0;

  constructor(page: Page) {
    this.#page = page;
  }

  async click(
    x: number,
    y: number,
    options: { button?: MouseButton; clickCount?: number; modifiers?: Modifier[] } = {},
  ): Promise<void> {
    await clickAt(this.#page.session, x, y, {
      button: options.button ?? 'left',
      clickCount: options.clickCount ?? 1,
      modifiers: options.modifiers ?? [],
    });
    this.#x = x;
    this.#y = y;
  }

  /** Moves in `steps` equal moves from where the mouse is (pages that follow the pointer see each). */
  async move(x: number, y: number, options: { steps?: number; pressed?: MouseButton } = {}): Promise<void> {
    const steps = Math.max(1, options.steps ?? 1);
    for (let step = 1; step <= steps; step++) {
      await moveTo(
        this.#page.session,
        this.#x + ((x - this.#x) * step) / steps,
        this.#y + ((y - this.#y) * step) / steps,
        options.pressed ?? null,
      );
    }
    this.#x = x;
    this.#y = y;
  }

  async down(options: { button?: MouseButton; clickCount?: number } = {}): Promise<void> {
    await press(this.#page.session, this.#x, this.#y, options.button ?? 'left', 'mousePressed', options.clickCount);
  }

  async up(options: { button?: MouseButton; clickCount?: number } = {}): Promise<void> {
    await press(this.#page.session, this.#x, this.#y, options.button ?? 'left', 'mouseReleased', options.clickCount);
  }

  /** A wheel turn at a point; what scrolls is up to the page under it. */
  async scroll(x: number, y: number, deltaX: number, deltaY: number): Promise<void> {
    await wheel(this.#page.session, x, y, deltaX, deltaY);
    this.#x = x;
    this.#y = y;
  }
}
