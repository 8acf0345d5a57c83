import { useState } from 'preact/hooks';
import { JsonInput } from './json-input';
import { ListInput } from './list-input';
import { asRecord, emptyValueOf, numberFromText, helpOf, shapeOf, withKey, type JsonSchema } from '../schema';

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
  /** Inside an object that may be left out: its fields are needed only when it is given, so none is marked required. */
  inOptional?: boolean;
}

/** An object's fields, built from its JSON Schema (the action params or the config). */
export function SchemaFields(props: Omit<FieldProps, 'label' | 'required'>): preact.JSX.Element {
  const inOptional = props.inOptional === true;
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
            required={!inOptional && (props.schema.required?.includes(key) ?? false)}
            inOptional={inOptional}
            masked={props.masked === true || schema.writeOnly === true}
            errorField={props.errorField}
            onChange={(next) => props.onChange(withKey(value, key, next))}
          />
        );
      })}
    </div>
  );
}

/** The ids that tie a field's input to its name and help text, for assistive technology. */
function idsOf(path: string): { name: string; help: string } {
  const safe = path.replace(/[^\w.-]/g, '_');
  return { name: `field-name-${safe}`, help: `field-help-${safe}` };
}

/** What every input of a field carries: its name, its help, and whether the worker refused it. */
function ariaOf(props: FieldProps): Record<string, string | boolean | undefined> {
  const ids = idsOf(props.path);
  return {
    'aria-labelledby': ids.name,
    'aria-describedby': helpOf(props.schema) === undefined ? undefined : ids.help,
    'aria-invalid': isRefused(props) ? true : undefined,
  };
}

function isRefused(props: FieldProps): boolean {
  return props.errorField !== undefined && props.errorField !== '' && props.errorField.split(', ').includes(props.path);
}

function SchemaField(props: FieldProps): preact.JSX.Element {
  const shape = shapeOf(props.schema);
  const invalid = isRefused(props);
  const ids = idsOf(props.path);
  const description = helpOf(shape.schema);
  const isNull = shape.nullable && props.value === null;
  // A null default means "tabpilot decides" (headless when there is no display, say): shown as "default".
  const nullWord = props.schema.default === null ? 'default' : 'none';
  return (
    <div class={`field kind-${shape.kind}${invalid ? ' field-error' : ''}`} data-field={props.path}>
      <div class="field-head">
        <span class="field-name" id={ids.name}>
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
              aria-label={`${props.label}: ${nullWord}`}
              checked={isNull}
              onChange={(event) => props.onChange(event.currentTarget.checked ? null : emptyValueOf(shape.schema))}
            />
            {nullWord}
          </label>
        )}
      </div>
      {description !== undefined && (
        <p class="field-help" id={ids.help}>
          {description}
        </p>
      )}
      {isNull ? (
        <p class="muted null-value" data-null={nullWord}>
          {nullWord === 'default' ? 'default (tabpilot decides)' : 'none'}
        </p>
      ) : (
        <FieldInput {...props} schema={shape.schema} />
      )}
    </div>
  );
}

function FieldInput(props: FieldProps): preact.JSX.Element {
  const shape = shapeOf(props.schema);
  const placeholder = props.schema.default === undefined ? '' : `default: ${JSON.stringify(props.schema.default)}`;
  const aria = ariaOf(props);
  switch (shape.kind) {
    case 'boolean':
      return (
        <input
          type="checkbox"
          {...aria}
          checked={props.value === true}
          // Unticking an optional flag leaves it out (its default), rather than sending false.
          onChange={(event) =>
            props.onChange(
              event.currentTarget.checked
                ? true
                : props.required === true || props.schema.default === true || props.value === false
                  ? false
                  : undefined,
            )
          }
        />
      );
    case 'enum':
      return (
        <select
          {...aria}
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
          {...aria}
          class="secret"
          autocomplete="off"
          value={text}
          placeholder={placeholder}
          onInput={onInput}
        />
      ) : (
        <input type="text" {...aria} autocomplete="off" value={text} placeholder={placeholder} onInput={onInput} />
      );
    }
    case 'number':
    case 'integer':
      return (
        <input
          type="number"
          {...aria}
          step={shape.kind === 'integer' ? 1 : 'any'}
          min={props.schema.minimum}
          max={props.schema.maximum}
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
          inOptional={props.inOptional === true || props.required !== true}
          onChange={props.onChange}
        />
      );
    case 'list':
      return (
        <ListInput
          label={props.label}
          schema={props.schema}
          value={props.value}
          aria={aria}
          onChange={props.onChange}
        />
      );
    case 'record':
      return <RecordInput {...props} schema={shape.schema} />;
    case 'json':
      return <JsonInput aria={aria} value={props.value} placeholder={placeholder} onChange={props.onChange} />;
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
            aria-label={`Remove ${key}`}
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
          aria-label={`New key for ${props.label}`}
          placeholder="new key"
          value={newKey}
          onInput={(event) => setNewKey(event.currentTarget.value)}
        />
        <button type="button" class="record-add" aria-label={`Add a key to ${props.label}`} onClick={add}>
          Add
        </button>
      </div>
    </div>
  );
}
