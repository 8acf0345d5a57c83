import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

const ZOOMS = [1, 1.5, 2, 3] as const;

/**
 * A picture that zooms: − and + step through the zooms, the picture grows inside a frame that scrolls.
 * What is drawn over the picture (indexes, marks) goes in the children beside it and zooms with it.
 * `idPrefix` keeps the ids of two frames on one page apart.
 */
export function ZoomFrame(props: {
  idPrefix?: string;
  /** What the buttons say they zoom, for a screen reader ("the screenshot"). */
  subject: string;
  /** Shown after the buttons (how many indexes are drawn). */
  note?: ComponentChildren;
  children: ComponentChildren;
}): preact.JSX.Element {
  const [zoom, setZoom] = useState<number>(1);
  const id = (name: string): string => `${props.idPrefix ?? ''}${name}`;
  const at = ZOOMS.indexOf(zoom as (typeof ZOOMS)[number]);
  return (
    <>
      <div class="row zoom-row">
        <button
          type="button"
          id={id('zoom-out')}
          aria-label={`Zoom out of ${props.subject}`}
          disabled={at <= 0}
          onClick={() => setZoom(ZOOMS[at - 1] ?? 1)}
        >
          −
        </button>
        <span id={id('zoom-level')} class="muted" aria-live="polite">
          {Math.round(zoom * 100)}%
        </span>
        <button
          type="button"
          id={id('zoom-in')}
          aria-label={`Zoom into ${props.subject}`}
          disabled={at >= ZOOMS.length - 1}
          onClick={() => setZoom(ZOOMS[at + 1] ?? zoom)}
        >
          +
        </button>
        {props.note}
      </div>
      <div class="shot-frame" id={id('shot-frame')}>
        <div class="shot-canvas" style={{ width: `${zoom * 100}%` }}>
          {props.children}
        </div>
      </div>
    </>
  );
}
