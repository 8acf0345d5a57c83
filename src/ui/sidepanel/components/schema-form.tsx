import { useState } from 'preact/hooks';
import { JsonInput } from './json-input';
import { asRecord, emptyValueOf, numberFromText, shapeOf, withKey, type JsonSchema } from '../schema';

interface FieldProps {
  /** Dotted path of the field, as the worker names it in errors ("timeouts.NavigateToUrlEvent"). */
  path: string;
  label: string;
  schema: JsonSchema;
  value: unknown;
  onChange: (value: unknown) => void;
  required?: boolean;
  /** A secret (JSON Schema writeOnly, inherited): values are masked. */
  masked?: boolean;
  /** The field the worker refused, to point at it. */
  errorField?: string | undefined;
}

/** An object's fields, built from its JSON Schema (the action params or the config). */
export function SchemaFields(props: Omit<FieldProps, 'label' | 'required'>): preact.JSX.Element {
  const properties = Object.entries(props.schema.properties ?? {});
  const value = asRecord(props.value);
  if (properties.length === 0) {
    return <p class="muted">No parameters.</p>;
  }
  return (
    <div class="fields">
      {properties.map(([key, schema]) => {
        const path = props.path === '' ? key : `${props.path}.${key}`;
        return (
          <SchemaField
            key={path}
            path={path}
            label={key}
            schema={schema}
            value={value[key]}
            required={props.schema.required?.includes(key) ?? false}
            masked={props.masked === true || schema.writeOnly === true}
            errorField={props.errorField}
            onChange={(next) => props.onChange(withKey(value, key, next))}
          />
        );
      })}
    </div>
  );
}

function SchemaField(props: FieldProps): preact.JSX.Element {
  const shape = shapeOf(props.schema);
  const invalid =
    props.errorField !== undefined && props.errorField !== '' && props.errorField.split(', ').includes(props.path);
  const description = shape.schema.description;
  const isNull = shape.nullable && props.value === null;
  return (
    <div class={`field kind-${shape.kind}${invalid ? ' field-error' : ''}`} data-field={props.path}>
      <div class="field-head">
        <span class="field-name">
          {props.label}
          {props.required === true && (
            <span class="required" title="required">
              {' '}
              *
            </span>
          )}
        </span>
        {shape.nullable && (
          <label class="null-toggle">
            <input
              type="checkbox"
              checked={isNull}
              onChange={(event) => props.onChange(event.currentTarget.checked ? null : emptyValueOf(shape.schema))}
            />
            none
          </label>
        )}
      </div>
      {description !== undefined && <p class="field-help">{description}</p>}
      {!isNull && <FieldInput {...props} schema={shape.schema} />}
    </div>
  );
}

function FieldInput(props: FieldProps): preact.JSX.Element {
  const shape = shapeOf(props.schema);
  const placeholder = props.schema.default === undefined ? '' : `default: ${JSON.stringify(props.schema.default)}`;
  switch (shape.kind) {
    case 'boolean':
      return (
        <input
          type="checkbox"
          checked={props.value === true}
          onChange={(event) => props.onChange(event.currentTarget.checked)}
        />
      );
    case 'enum':
      return (
        <select
          value={typeof props.value === 'string' ? props.value : ''}
          onChange={(event) => props.onChange(event.currentTarget.value === '' ? undefined : event.currentTarget.value)}
        >
          <option value="">{placeholder === '' ? '(not set)' : placeholder}</option>
          {(shape.schema.enum ?? []).map((option) => (
            <option key={String(option)} value={String(option)}>
              {String(option)}
            </option>
          ))}
        </select>
      );
    case 'string': {
      const text = typeof props.value === 'string' ? props.value : '';
      const onInput = (event: preact.TargetedEvent<HTMLInputElement>): void =>
        props.onChange(
          event.currentTarget.value === '' && props.required !== true ? undefined : event.currentTarget.value,
        );
      return props.masked === true ? (
        <input
          type="password"
          class="secret"
          autocomplete="off"
          value={text}
          placeholder={placeholder}
          onInput={onInput}
        />
      ) : (
        <input type="text" autocomplete="off" value={text} placeholder={placeholder} onInput={onInput} />
      );
    }
    case 'number':
    case 'integer':
      return (
        <input
          type="text"
          inputMode="numeric"
          value={typeof props.value === 'number' || typeof props.value === 'string' ? String(props.value) : ''}
          placeholder={placeholder}
          onInput={(event) => props.onChange(numberFromText(event.currentTarget.value))}
        />
      );
    case 'object':
      return (
        <SchemaFields
          path={props.path}
          schema={shape.schema}
          value={props.value}
          masked={props.masked}
          errorField={props.errorField}
          onChange={props.onChange}
        />
      );
    case 'record':
      return <RecordInput {...props} schema={shape.schema} />;
    case 'json':
      return <JsonInput value={props.value} placeholder={placeholder} onChange={props.onChange} />;
  }
}

/** A map with free keys (timeouts by event name, secrets by domain): add a key, edit or remove entries. */
function RecordInput(props: FieldProps): preact.JSX.Element {
  const [newKey, setNewKey] = useState('');
  const value = asRecord(props.value);
  const valueSchema = typeof props.schema.additionalProperties === 'object' ? props.schema.additionalProperties : {};
  const add = (): void => {
    const key = newKey.trim();
    if (key !== '' && !(key in value)) {
      props.onChange({ ...value, [key]: emptyValueOf(valueSchema) });
      setNewKey('');
    }
  };
  return (
    <div class="record">
      {Object.entries(value).map(([key, item]) => (
        <div class="record-entry" key={key}>
          <SchemaField
            path={`${props.path}.${key}`}
            label={key}
            schema={valueSchema}
            value={item}
            masked={props.masked}
            errorField={props.errorField}
            onChange={(next) => props.onChange(withKey(value, key, next))}
          />
          <button
            type="button"
            class="link"
            title={`Remove ${key}`}
            onClick={() => props.onChange(withKey(value, key, undefined))}
          >
            remove
          </button>
        </div>
      ))}
      <div class="row">
        <input
          type="text"
          class="record-key"
          placeholder="new key"
          value={newKey}
          onInput={(event) => setNewKey(event.currentTarget.value)}
        />
        <button type="button" class="record-add" onClick={add}>
          Add
        </button>
      </div>
    </div>
  );
}
