import { useState } from 'preact/hooks';
import { jsonFromText } from '../schema';

/** Arrays and anything unusual: edited as JSON text, judged by the worker. */
export function JsonInput(props: {
  value: unknown;
  placeholder: string;
  onChange: (value: unknown) => void;
}): preact.JSX.Element {
  const [text, setText] = useState(props.value === undefined ? '' : JSON.stringify(props.value));
  return (
    <textarea
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
