import { useState } from 'preact/hooks';
import { coverageLine, describeElement, elementState, matchesFilter, type PageState } from '../page-state';

/**
 * The indexed elements of the page read, as a keyboard listbox: a filter, a line that says how much of
 * the page they cover (and how to reach the rest), each row with the element's value or checked state.
 */
export function ElementList(props: {
  page: PageState;
  wholePage: boolean;
  selected: number | undefined;
  onChoose: (index: number) => void;
  onPoint: (index: number | undefined) => void;
  onReadWholePage: () => void;
  onScrollDown: () => void;
  busy: boolean;
}): preact.JSX.Element {
  const [filter, setFilter] = useState('');
  const all = props.page.elements ?? [];
  const shown = all.filter((element) => matchesFilter(element, filter));
  const below = (props.page.page_info?.pixels_below ?? 0) > 0;
  return (
    <div class="element-list">
      <label class="inline filter">
        <span>Filter</span>
        <input
          id="elements-filter"
          type="search"
          placeholder="index, name, role, value…"
          value={filter}
          onInput={(event) => setFilter(event.currentTarget.value)}
        />
      </label>
      <p id="elements-count" class="muted hint" role="status">
        {coverageLine(props.page, shown.length, props.wholePage)}
      </p>
      {!props.wholePage && below && (
        <div class="row">
          <button type="button" id="read-whole-page" disabled={props.busy} onClick={props.onReadWholePage}>
            Read the whole page
          </button>
          <button type="button" id="scroll-down" disabled={props.busy} onClick={props.onScrollDown}>
            Scroll down and read
          </button>
        </div>
      )}
      <ol
        id="elements"
        class="elements"
        role="listbox"
        aria-label="Elements of the page, by index"
        onMouseLeave={() => props.onPoint(undefined)}
        onKeyDown={moveFocus}
      >
        {shown.map((element) => {
          const state = elementState(element);
          return (
            <li
              key={element.index}
              data-index={element.index}
              role="option"
              tabIndex={0}
              aria-selected={element.index === props.selected}
              class={element.index === props.selected ? 'selected' : ''}
              onMouseEnter={() => props.onPoint(element.index)}
              onFocus={() => props.onPoint(element.index)}
              onClick={() => props.onChoose(element.index)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' || event.key === ' ') {
                  event.preventDefault();
                  props.onChoose(element.index);
                }
              }}
            >
              <span class="index">[{element.index}]</span> {describeElement(element)}
              {state !== '' && <span class="element-state"> · {state}</span>}
            </li>
          );
        })}
      </ol>
      {shown.length === 0 && all.length > 0 && (
        <p id="elements-none" class="muted">
          No element matches “{filter}”.
        </p>
      )}
    </div>
  );
}

/** Up and down arrows move between element rows, Home and End to the first and last, as in any list. */
function moveFocus(event: preact.TargetedKeyboardEvent<HTMLOListElement>): void {
  const row = (event.target as HTMLElement).closest('li');
  const list = event.currentTarget;
  let next: Element | null | undefined;
  switch (event.key) {
    case 'ArrowDown':
      next = row?.nextElementSibling;
      break;
    case 'ArrowUp':
      next = row?.previousElementSibling;
      break;
    case 'Home':
      next = list.firstElementChild;
      break;
    case 'End':
      next = list.lastElementChild;
      break;
    default:
      return;
  }
  if (next instanceof HTMLElement) {
    event.preventDefault();
    next.focus();
  }
}
