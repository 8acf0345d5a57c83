import { useState } from 'preact/hooks';
import type { TimelineEntry } from '../../../protocol/panel-messages';
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

/** One event (or note) with its handlers and, nested under it, the events it caused. */
export function TimelineNodeView(props: { node: TimelineNode; depth: number }): preact.JSX.Element {
  const { entry, children } = props.node;
  const [open, setOpen] = useState(false);
  const duration = durationOf(entry);
  const failed = isFailure(entry);
  return (
    <li
      class={`tl-node${failed ? ' failed' : ''} tl-${entry.kind}`}
      data-id={entry.id}
      data-type={entry.kind === 'event' ? entry.type : 'note'}
    >
      <button type="button" class="tl-row" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span class="tl-mark">{statusMark(entry)}</span>
        <span class="tl-name">{entry.kind === 'event' ? entry.type : entry.text}</span>
        <span class={`tl-source src-${sourceKind(entry.source)}`}>{sourceKind(entry.source)}</span>
        <span class="tl-time">{duration === null ? time(entry.created_at) : `${duration} ms`}</span>
      </button>
      {open && entry.kind === 'event' && (
        <div class="tl-details">
          <p class="muted">
            {time(entry.created_at)} · {entry.status} · source {entry.source ?? 'unknown'}
          </p>
          <pre class="tl-payload">{JSON.stringify(entry.payload, null, 2)}</pre>
          {entry.handlers.map((handler, index) => (
            <div key={index} class={`tl-handler ${handler.status}`}>
              <strong>{handler.handler}</strong> {handler.status}
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
        <ul class="tl-children">
          {children.map((child) => (
            <TimelineNodeView key={child.entry.id} node={child} depth={props.depth + 1} />
          ))}
        </ul>
      )}
    </li>
  );
}
