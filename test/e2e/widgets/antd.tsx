/** @jsxImportSource react */
import { Select } from 'antd';
import { useState, type ReactNode } from 'react';
import { FRUITS, Held, mount } from './held';

const OPTIONS = FRUITS.map((name) => ({ value: name.toLowerCase(), label: name }));

/** antd's default: a virtual list, whose ARIA listbox holds only the active option and its neighbours. */
function AntdSelect(): ReactNode {
  const [fruit, setFruit] = useState<string | undefined>(undefined);
  return (
    <section>
      <label htmlFor="antd-select">Antd fruit</label>
      <Select
        id="antd-select"
        style={{ width: 200 }}
        placeholder="Pick a fruit"
        options={OPTIONS}
        value={fruit}
        onChange={setFruit}
      />
      <Held name="antd-select" value={fruit ?? ''} />
    </section>
  );
}

function AntdMultiple(): ReactNode {
  const [fruits, setFruits] = useState<string[]>(['banana']);
  return (
    <section>
      <label htmlFor="antd-multi">Antd basket</label>
      <Select
        id="antd-multi"
        mode="multiple"
        style={{ width: 300 }}
        options={OPTIONS}
        value={fruits}
        onChange={setFruits}
      />
      <Held name="antd-multi" value={fruits.join(',')} />
    </section>
  );
}

mount(
  <main>
    <h1>Ant Design</h1>
    <AntdSelect />
    <AntdMultiple />
  </main>,
);
