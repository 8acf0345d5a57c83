import { declarationOf } from '../../protocol/actions';
import type { ActionInfo } from './describe';

const GROUPS: Record<string, string> = {
  page: 'Page',
  tabs: 'Tabs',
  content: 'Content',
  files: 'Files',
  session: 'Session',
};
const GROUP_ORDER = ['page', 'tabs', 'content', 'files', 'session'];

/** The action's name as a person looks for it (its declaration's); one without a declaration reads as its name. */
export function actionLabel(name: string): string {
  return declarationOf(name)?.panel.label ?? name.replace(/_/g, ' ');
}

/** Params the panel's form leaves out because another one says the same (scroll's `down`). */
export function hiddenParams(name: string): readonly string[] {
  return declarationOf(name)?.panel.hiddenParams ?? [];
}

/** The actions by group (page, tabs, content, files, session), in the order describe gives them. */
export function groupedActions(actions: readonly ActionInfo[]): Array<{ label: string; actions: ActionInfo[] }> {
  const groups = new Map<string, ActionInfo[]>();
  for (const action of actions) {
    const key = action.category ?? 'other';
    groups.set(key, [...(groups.get(key) ?? []), action]);
  }
  const order = [...GROUP_ORDER, ...[...groups.keys()].filter((key) => !GROUP_ORDER.includes(key))];
  return order.flatMap((key) => {
    const members = groups.get(key);
    return members === undefined ? [] : [{ label: GROUPS[key] ?? key, actions: members }];
  });
}
