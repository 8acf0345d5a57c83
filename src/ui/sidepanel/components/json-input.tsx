import { useState } from 'preact/hooks';
import { jsonFromText } from '../schema';

/** Arrays and anything unusual: edited as JSON text, judged by the worker. */
export function JsonInput(props: {
  value: unknown;
  placeholder: string;
  onChange: (value: unknown) => void;
  /** The field's name, help and refusal, for assistive technology. */
  aria?: Record<string, string | boolean | undefined>;
}): preact.JSX.Element {
  const [text, setText] = useState(props.value === undefined ? '' : JSON.stringify(props.value));
  return (
    <textarea
      {...props.aria}
      rows={2}
      class="json"
      spellcheck={false}
      value={text}
      placeholder={props.placeholder === '' ? 'JSON' : props.placeholder}
      onInput={(event) => {
        setText(event.currentTarget.value);
        props.onChange(jsonFromText(event.currentTarget.value));
      }}
    />
  );
}
