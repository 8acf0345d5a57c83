import { buildWidgetPages } from '../../scripts/build-widget-pages.mjs';

/**
 * Once, before any file runs: the widget pages are bundled here, so the files that serve them (two of them
 * may run at the same time) find them built and never rebuild the folder under each other.
 */
export default async function setup(): Promise<void> {
  await buildWidgetPages();
}
