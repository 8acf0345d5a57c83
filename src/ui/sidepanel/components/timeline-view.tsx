import { useMemo, useState } from 'preact/hooks';
import type { PanelStatus, TimelineEntry } from '../../../protocol/panel-messages';
import { buildTree, filterTree, sourcesOf, toJsonLines } from '../timeline-tree';
import { TimelineNodeView } from './timeline-node';

/** The live bus timeline as a lineage tree, newest first, with search, filters and a JSON-lines export. */
export function TimelineView(props: {
  entries: ReadonlyMap<string, TimelineEntry>;
  status: PanelStatus | undefined;
  onClear: () => void;
}): preact.JSX.Element {
  const [exported, setExported] = useState<string | undefined>(undefined);
  const [text, setText] = useState('');
  const [source, setSource] = useState('');
  const [errorsOnly, setErrorsOnly] = useState(false);
  const entries = useMemo(() => [...props.entries.values()], [props.entries]);
  const tree = useMemo(
    () => filterTree(buildTree(entries), { text, source, errorsOnly }).reverse(),
    [entries, text, source, errorsOnly],
  );
  const exportLines = (): void => {
    const url = URL.createObjectURL(new Blob([toJsonLines(entries)], { type: 'application/x-ndjson' }));
    const link = document.createElement('a');
    link.href = url;
    const name = `tabpilot-timeline-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`;
    link.download = name;
    link.click();
    setExported(`Exported ${entries.length} entries as ${name} (in Downloads).`);
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <section class="timeline-view">
      <div class="row toolbar">
        <input
          id="timeline-search"
          aria-label="Search events"
          type="search"
          placeholder="Search events"
          value={text}
          onInput={(event) => setText(event.currentTarget.value)}
        />
        <select
          id="timeline-source"
          aria-label="Source"
          value={source}
          onChange={(event) => setSource(event.currentTarget.value)}
        >
          <option value="">all sources</option>
          {sourcesOf(entries).map((kind) => (
            <option key={kind} value={kind}>
              {kind}
            </option>
          ))}
        </select>
      </div>
      <div class="row toolbar">
        <label class="inline">
          <input
            id="timeline-errors"
            type="checkbox"
            checked={errorsOnly}
            onChange={(event) => setErrorsOnly(event.currentTarget.checked)}
          />
          errors only
        </label>
        <span class="spacer" />
        <button type="button" id="timeline-export" onClick={exportLines} disabled={entries.length === 0}>
          Export JSONL
        </button>
        <button type="button" id="timeline-clear" onClick={props.onClear}>
          Clear
        </button>
      </div>
      {exported !== undefined && (
        <p id="timeline-exported" class="muted hint" role="status">
          {exported}
        </p>
      )}
      {tree.length === 0 ? (
        <p class="muted">{entries.length === 0 ? 'No events yet.' : 'Nothing matches.'}</p>
      ) : (
        <ul id="timeline" class="timeline">
          {tree.map((node) => (
            <TimelineNodeView
              key={node.entry.id}
              node={node}
              depth={0}
              status={props.status}
              unfold={text.trim() !== '' || source !== '' || errorsOnly}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
