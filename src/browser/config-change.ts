import type { EventBus } from '../bus/event-bus';
import type { BrowserConfig } from './config';
import { ConfigChangedEvent } from '../protocol/events/config.events';

/** The top-level fields whose values differ between two configs. */
export function changedConfigFields(previous: BrowserConfig, next: BrowserConfig): string[] {
  return (Object.keys(next) as Array<keyof BrowserConfig>).filter(
    (key) => JSON.stringify(next[key]) !== JSON.stringify(previous[key]),
  );
}

/** Announces a replaced config as ConfigChangedEvent, resolving once every watchdog acted on it. */
export async function announceConfigChange(bus: EventBus, previous: BrowserConfig, next: BrowserConfig): Promise<void> {
  const changed = changedConfigFields(previous, next);
  if (changed.length > 0) {
    await bus.emit(ConfigChangedEvent, { changed }, { source: 'session' });
  }
}
