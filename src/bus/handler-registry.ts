import type { AnyEventDefinition } from '../protocol/define-event';
import type { Handler } from './types';

export interface RegisteredHandler {
  readonly name: string;
  readonly fn: Handler<AnyEventDefinition>;
}

/**
 * The bus's handlers per event type, in registration order. A type's list is replaced on every change,
 * never mutated, so an event being processed keeps the list it started with.
 */
export class HandlerRegistry {
  readonly #byType = new Map<string, RegisteredHandler[]>();

  /** Adds a handler under a name unique for its event (EventBus.on says why); returns a disposer. */
  add<D extends AnyEventDefinition>(definition: D, handler: Handler<D>, name: string): () => void {
    const list = this.#byType.get(definition.type) ?? [];
    if (list.some((entry) => entry.name === name)) {
      throw new Error(`Duplicate handler ${name} for ${definition.type}: was it attached twice?`);
    }
    const entry: RegisteredHandler = { name, fn: handler as Handler<AnyEventDefinition> };
    this.#byType.set(definition.type, [...list, entry]);
    return () => {
      const current = this.#byType.get(definition.type) ?? [];
      this.#byType.set(
        definition.type,
        current.filter((candidate) => candidate !== entry),
      );
    };
  }

  /** The handlers of one event type, in the order they run. */
  of(type: string): readonly RegisteredHandler[] {
    return this.#byType.get(type) ?? [];
  }

  names(definition: AnyEventDefinition): string[] {
    return this.of(definition.type).map((entry) => entry.name);
  }
}
