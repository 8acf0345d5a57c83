/** What the extract benchmark's in-page script and its Node side share. */
export const BENCH_GLOBAL = '__extractBench';

export type Converter = 'ours' | 'turndown';

/** What a page holds that a good conversion keeps (visible only), and what it must leave out. */
export interface PageFacts {
  tables: number;
  links: Array<{ text: string; href: string }>;
  headings: Array<{ level: number; text: string }>;
  items: string[];
  /** Text of scripts, styles and hidden elements that must not appear. */
  forbidden: string[];
  inner_text: string;
}
