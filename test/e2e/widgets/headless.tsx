/** @jsxImportSource react */
import {
  Combobox,
  ComboboxInput,
  ComboboxOption,
  ComboboxOptions,
  Listbox,
  ListboxButton,
  ListboxOption,
  ListboxOptions,
} from '@headlessui/react';
import { useState, type ReactNode } from 'react';
import { FRUITS, Held, mount } from './held';

const LIST_STYLE = { background: 'white', border: '1px solid #888', listStyle: 'none', margin: 0, padding: 4 };

function HeadlessListbox(): ReactNode {
  const [fruit, setFruit] = useState<string>('');
  return (
    <section>
      <Listbox value={fruit} onChange={setFruit}>
        <ListboxButton id="headless-listbox" style={{ minWidth: 160, padding: 6 }}>
          {fruit === '' ? 'Pick a fruit' : fruit}
        </ListboxButton>
        <ListboxOptions anchor="bottom start" style={LIST_STYLE}>
          {FRUITS.map((name) => (
            <ListboxOption key={name} value={name} style={{ padding: '4px 12px' }}>
              {name}
            </ListboxOption>
          ))}
        </ListboxOptions>
      </Listbox>
      <Held name="headless-listbox" value={fruit} />
    </section>
  );
}

function HeadlessMultiListbox(): ReactNode {
  const [fruits, setFruits] = useState<string[]>(['Cherry']);
  return (
    <section>
      <Listbox value={fruits} onChange={setFruits} multiple>
        <ListboxButton id="headless-multi" style={{ minWidth: 160, padding: 6 }}>
          {fruits.length === 0 ? 'Fill the basket' : fruits.join(', ')}
        </ListboxButton>
        <ListboxOptions anchor="bottom start" style={LIST_STYLE}>
          {FRUITS.map((name) => (
            <ListboxOption key={name} value={name} style={{ padding: '4px 12px' }}>
              {name}
            </ListboxOption>
          ))}
        </ListboxOptions>
      </Listbox>
      <Held name="headless-multi" value={fruits.join(',')} />
    </section>
  );
}

function HeadlessCombobox(): ReactNode {
  const [fruit, setFruit] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const shown = FRUITS.filter((name) => name.toLowerCase().includes(query.toLowerCase()));
  return (
    <section>
      <Combobox value={fruit} onChange={setFruit} onClose={() => setQuery('')}>
        <ComboboxInput
          id="headless-combobox"
          aria-label="Headless fruit"
          displayValue={(value: string | null) => value ?? ''}
          onChange={(event) => setQuery(event.target.value)}
        />
        <ComboboxOptions anchor="bottom start" style={LIST_STYLE}>
          {shown.map((name) => (
            <ComboboxOption key={name} value={name} style={{ padding: '4px 12px' }}>
              {name}
            </ComboboxOption>
          ))}
        </ComboboxOptions>
      </Combobox>
      <Held name="headless-combobox" value={fruit ?? ''} />
    </section>
  );
}

mount(
  <main>
    <h1>Headless UI</h1>
    <HeadlessListbox />
    <HeadlessMultiListbox />
    <HeadlessCombobox />
  </main>,
);
