/** What the SessionManager knows of one target. Owned by the SessionManager; others read copies. */
export interface TargetRecord {
  readonly targetId: string;
  type: string;
  url: string;
  title: string;
  openerId: string | undefined;
  /** For iframe and worker targets: the top-level page they live in. Undefined for pages. */
  pageTargetId: string | undefined;
  /** Order of first sight: the highest is the most recently opened. */
  readonly seq: number;
}

export function isPageType(type: string): boolean {
  return type === 'page';
}

/** Child targets we attach to inside a page: out-of-process iframes and dedicated workers. */
export const CHILD_TARGET_TYPES = ['iframe', 'worker'] as const;
