import type { ActionOutcome, OutcomeElement } from './outcome';

/**
 * An outcome as a model reads it: a first line with the verdict (and the reason, when there is one),
 * then one line per kind of change. A few dozen tokens for a typical step.
 */
export function outcomeText(outcome: ActionOutcome): string {
  const verdict = outcome.verdict.replaceAll('_', ' ');
  const reason = outcome.reason === undefined ? '' : `: ${outcome.reason}`;
  const wait = outcome.settled ? `settled in ${outcome.waited_ms} ms` : `still changing after ${outcome.waited_ms} ms`;
  const lines = [`Outcome: ${verdict}${reason} (${wait})`];
  if (outcome.detail !== undefined) {
    lines.push(outcome.detail);
  }
  if (outcome.new_document === true) {
    lines.push(`New page: ${outcome.url ?? ''} "${outcome.title ?? ''}" (its elements need a new state)`);
  } else {
    if (outcome.url !== undefined) lines.push(`URL: ${outcome.url}`);
    if (outcome.title !== undefined) lines.push(`Title: "${outcome.title}"`);
  }
  addElements(lines, 'Appeared', outcome.appeared);
  addElements(lines, 'Went', outcome.removed);
  addElements(lines, 'Changed', outcome.changed);
  addTexts(lines, 'Text appeared', outcome.texts_appeared);
  addTexts(lines, 'Text went', outcome.texts_removed);
  if (outcome.more !== undefined) lines.push(`(${outcome.more} more changes not listed)`);
  if (outcome.dialog !== undefined) lines.push(`Dialog (${outcome.dialog.type}): "${outcome.dialog.message}"`);
  if (outcome.new_tab_id !== undefined) lines.push(`New tab: ${outcome.new_tab_id}`);
  if (outcome.download !== undefined) lines.push(`Download: ${outcome.download}`);
  if (outcome.failed_requests !== undefined) lines.push(`Failed requests: ${outcome.failed_requests.join('; ')}`);
  if (outcome.errors !== undefined) lines.push(`Page errors: ${outcome.errors.join('; ')}`);
  return lines.join('\n');
}

function addElements(lines: string[], title: string, elements: OutcomeElement[] | undefined): void {
  if (elements !== undefined) {
    lines.push(
      `${title}: ${elements.map((element) => `${element.index === null ? '' : `[${element.index}] `}${element.label}`).join('; ')}`,
    );
  }
}

function addTexts(lines: string[], title: string, texts: string[] | undefined): void {
  if (texts !== undefined) {
    lines.push(`${title}: ${texts.map((text) => JSON.stringify(text)).join('; ')}`);
  }
}
