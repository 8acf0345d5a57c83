import { numberFromText, shapeOf, type JsonSchema } from '../schema';

/**
 * A list of simple values (folders, flags, pauses in ms) edited as a list: one input per item, each with
 * Remove, and Add for a new one; numbers are number inputs, a few fixed strings a choice.
 */
export function ListInput(props: {
  label: string;
  schema: JsonSchema;
  value: unknown;
  aria: Record<string, string | boolean | undefined>;
  onChange: (value: unknown) => void;
}): preact.JSX.Element {
  const items = Array.isArray(props.value) ? (props.value as unknown[]) : [];
  const itemShape = shapeOf(props.schema.items ?? {});
  const set = (at: number, next: unknown): void =>
    props.onChange(items.map((item, index) => (index === at ? next : item)));
  return (
    <div class="list" role="group" {...props.aria}>
      {items.length === 0 && <p class="muted hint">Empty.</p>}
      {items.map((item, at) => {
        const name = `${props.label} item ${at + 1}`;
        return (
          <div class="row list-item" key={at}>
            {itemShape.kind === 'enum' ? (
              <select aria-label={name} value={String(item)} onChange={(event) => set(at, event.currentTarget.value)}>
                {(itemShape.schema.enum ?? []).map((option) => (
                  <option key={String(option)} value={String(option)}>
                    {String(option)}
                  </option>
                ))}
              </select>
            ) : itemShape.kind === 'number' || itemShape.kind === 'integer' ? (
              <input
                type="number"
                aria-label={name}
                step={itemShape.kind === 'integer' ? 1 : 'any'}
                value={typeof item === 'number' ? String(item) : ''}
                onInput={(event) => set(at, numberFromText(event.currentTarget.value) ?? 0)}
              />
            ) : (
              <input
                type="text"
                aria-label={name}
                autocomplete="off"
                value={typeof item === 'string' ? item : ''}
                onInput={(event) => set(at, event.currentTarget.value)}
              />
            )}
            <button
              type="button"
              class="link"
              aria-label={`Remove ${name}`}
              onClick={() => props.onChange(items.filter((_item, index) => index !== at))}
            >
              remove
            </button>
          </div>
        );
      })}
      <button
        type="button"
        class="list-add"
        aria-label={`Add an item to ${props.label}`}
        onClick={() =>
          props.onChange([
            ...items,
            itemShape.kind === 'enum'
              ? itemShape.schema.enum?.[0]
              : itemShape.kind === 'string'
                ? ''
                : (itemShape.schema.minimum ?? 0),
          ])
        }
      >
        Add
      </button>
    </div>
  );
}
