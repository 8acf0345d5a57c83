/** The folder the widget test pages are built into. */
export const WIDGET_PAGES_DIR: string;
/** Builds the widget test pages unless the last build had the same inputs. */
export function buildWidgetPages(): Promise<{ dir: string; built: boolean }>;
