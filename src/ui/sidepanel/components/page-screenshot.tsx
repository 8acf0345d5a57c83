import { screenshotUrl, type PageState } from '../page-state';
import { ZoomFrame } from './zoom-frame';

/**
 * The screenshot of the page read, with each element's index drawn where the element was, and the
 * element pointed at in the list (or chosen) marked. It zooms (ZoomFrame); a click on an index label
 * chooses that element.
 */
export function PageScreenshot(props: {
  page: PageState;
  screenshot: string;
  marked: number | undefined;
  onChoose: (index: number) => void;
}): preact.JSX.Element {
  const info = props.page.page_info;
  const width = info?.viewport_width ?? 0;
  const height = info?.viewport_height ?? 0;
  const inView = (props.page.elements ?? []).filter(
    (element) =>
      element.box !== undefined &&
      element.box.width > 0 &&
      element.box.height > 0 &&
      element.box.x < width &&
      element.box.y < height &&
      element.box.x + element.box.width > 0 &&
      element.box.y + element.box.height > 0,
  );
  const marked = inView.find((element) => element.index === props.marked);
  return (
    <figure class="page-shot">
      <ZoomFrame subject="the screenshot" note={<span class="muted hint">{inView.length} indexes drawn</span>}>
        <img
          id="screenshot"
          class="screenshot"
          alt="What the page looks like to the model, with the element indexes drawn on it"
          src={screenshotUrl(props.screenshot)}
        />
        {width > 0 && height > 0 && (
          <div id="shot-indexes" class="shot-indexes" aria-hidden="true">
            {inView.map((element) => (
              <div
                key={element.index}
                class="shot-box"
                data-index={element.index}
                style={placed(element.box, width, height)}
                onClick={() => props.onChoose(element.index)}
              >
                <span class="shot-label">{element.index}</span>
              </div>
            ))}
            {marked?.box !== undefined && (
              <div id="shot-marked" class="shot-marked" style={placed(marked.box, width, height)} />
            )}
          </div>
        )}
      </ZoomFrame>
    </figure>
  );
}

/** A box of the viewport placed on the picture in percent, so it stays on its element at any zoom. */
function placed(
  box: { x: number; y: number; width: number; height: number } | undefined,
  width: number,
  height: number,
): Record<string, string> {
  const { x, y, width: w, height: h } = box ?? { x: 0, y: 0, width: 0, height: 0 };
  return {
    left: `${(x / width) * 100}%`,
    top: `${(y / height) * 100}%`,
    width: `${(w / width) * 100}%`,
    height: `${(h / height) * 100}%`,
  };
}
