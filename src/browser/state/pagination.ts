import type { SelectorEntry } from '../../dom/serializer';

type ButtonType = 'next' | 'prev' | 'first' | 'last' | 'page_number';

const PATTERNS: Array<[ButtonType, RegExp]> = [
  ['next', /^(next|next page|more|weiter|suivant|siguiente|avanti|próximo|volgende|次へ|下一页|›|»|>|→)$/i],
  ['prev', /^(prev|previous|previous page|back|zurück|précédent|anterior|indietro|vorige|前へ|上一页|‹|«|<|←)$/i],
  ['first', /^(first|first page|erste|premier|primero|primo|最初|首页|⏮)$/i],
  ['last', /^(last|last page|letzte|dernier|último|ultimo|最後|末页|⏭)$/i],
  ['page_number', /^\d{1,2}$/],
];

export interface PaginationButton {
  button_type: ButtonType;
  index: number;
  text: string;
  is_disabled: boolean;
}

/** Pagination controls among the indexed elements (browser-use's detector, several languages). */
export function paginationButtons(entries: readonly SelectorEntry[]): PaginationButton[] {
  const out: PaginationButton[] = [];
  for (const entry of entries) {
    if (entry.role !== 'button' && entry.role !== 'link') {
      continue;
    }
    const text = (entry.name || entry.attributes['aria-label'] || '').trim();
    const match = PATTERNS.find(([, pattern]) => pattern.test(text));
    if (match !== undefined) {
      out.push({
        button_type: match[0],
        index: entry.index,
        text,
        is_disabled: entry.attributes['aria-disabled'] === 'true' || entry.attributes['disabled'] === 'true',
      });
    }
  }
  return out;
}
