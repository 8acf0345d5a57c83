/** @jsxImportSource react */
import { useState, type ReactNode } from 'react';
import Select from 'react-select';
import { FRUITS, Held, mount } from './held';

interface Fruit {
  value: string;
  label: string;
}

const OPTIONS: Fruit[] = FRUITS.map((name) => ({ value: name.toLowerCase(), label: name }));

function ReactSelect(): ReactNode {
  const [fruit, setFruit] = useState<Fruit | null>(null);
  return (
    <section style={{ width: 260 }}>
      <label htmlFor="react-select-input">React Select fruit</label>
      <Select inputId="react-select-input" options={OPTIONS} value={fruit} onChange={setFruit} />
      <Held name="react-select" value={fruit?.value ?? ''} />
    </section>
  );
}

mount(
  <main>
    <h1>React Select</h1>
    <ReactSelect />
  </main>,
);
