import { useState } from 'preact/hooks';
import type { PanelStatus, TimelineEntry } from '../../../protocol/panel-messages';
import { clientName, timelineLine } from '../activity';
import { durationOf, isFailure, sourceKind, type TimelineNode } from '../timeline-tree';

function time(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour12: false });
}

function statusMark(entry: TimelineEntry): string {
  if (entry.kind === 'note') {
    return entry.level === 'error' ? '✕' : entry.level === 'warn' ? '!' : 'i';
  }
  if (isFailure(entry)) {
    return '✕';
  }
  return entry.status === 'completed' ? '✓' : '…';
}

/** The event's outcome as a word: a completed event one of whose handlers failed is "failed". */
function outcome(entry: TimelineEntry): string {
  if (entry.kind === 'note') {
    return entry.level;
  }
  if (entry.status === 'interrupted') {
    return 'interrupted';
  }
  return isFailure(entry) ? 'failed' : entry.status;
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

/**
 * One event (or note) said in plain words, with its time and client; its details (payload, handlers)
 * open on click, and the events it caused are folded under it.
 */
export function TimelineNodeView(props: {
  node: TimelineNode;
  depth: number;
  status: PanelStatus | undefined;
  /** Show the caused events unfolded (a search matched inside them). */
  unfold: boolean;
}): preact.JSX.Element {
  const { entry, children } = props.node;
  const [open, setOpen] = useState(false);
  const [childrenOpen, setChildrenOpen] = useState(false);
  const showChildren = childrenOpen || props.unfold;
  const duration = durationOf(entry);
  const failed = isFailure(entry);
  const who = clientName(entry.source);
  return (
    <li
      class={`tl-node${failed ? ' failed' : ''} tl-${entry.kind}`}
      data-id={entry.id}
      data-type={entry.kind === 'event' ? entry.type : 'note'}
      data-outcome={outcome(entry)}
    >
      <button
        type="button"
        class="tl-row"
        aria-expanded={open}
        title={entry.kind === 'event' ? entry.type : undefined}
        onClick={() => setOpen(!open)}
      >
        <span class="tl-mark" aria-label={outcome(entry)}>
          {statusMark(entry)}
        </span>
        <span class="tl-name">{timelineLine(entry, props.status)}</span>
        <span class={`tl-source src-${sourceKind(entry.source)}`} title={entry.source ?? 'unknown'}>
          {sourceKind(entry.source)}
        </span>
        <span class="tl-time">
          <time class="tl-clock" dateTime={new Date(entry.created_at).toISOString()}>
            {time(entry.created_at)}
          </time>
          {duration !== null && <span class="tl-duration"> · {duration} ms</span>}
        </span>
      </button>
      {open && entry.kind === 'event' && (
        <div class="tl-details">
          <p class="muted">
            {time(entry.created_at)} · <span class="tl-outcome">{outcome(entry)}</span> · {entry.type} · by{' '}
            <span class="tl-client">{who}</span>
          </p>
          <pre class="tl-payload">{JSON.stringify(entry.payload, null, 2)}</pre>
          {entry.handlers.map((handler, index) => (
            <div key={index} class={`tl-handler ${handler.status}`}>
              <strong>{handler.handler}</strong> {handler.status === 'error' ? 'failed' : handler.status}
              {handler.duration_ms !== undefined && ` · ${handler.duration_ms} ms`}
              {handler.error !== undefined && (
                <p class="error-line">
                  {handler.error.code}: {handler.error.message}
                </p>
              )}
              {handler.result !== undefined && <pre>{JSON.stringify(handler.result, null, 2)}</pre>}
            </div>
          ))}
        </div>
      )}
      {children.length > 0 && (
        <button
          type="button"
          class="link tl-fold"
          aria-expanded={showChildren}
          onClick={() => setChildrenOpen(!childrenOpen)}
        >
          {showChildren ? '▾' : '▸'} {count(children.length, 'caused event')}
        </button>
      )}
      {children.length > 0 && (
        <ul class="tl-children" hidden={!showChildren}>
          {children.map((child) => (
            <TimelineNodeView
              key={child.entry.id}
              node={child}
              depth={props.depth + 1}
              status={props.status}
              unfold={props.unfold}
            />
          ))}
        </ul>
      )}
    </li>
  );
}
