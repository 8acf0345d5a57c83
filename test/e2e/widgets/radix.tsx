/** @jsxImportSource react */
import * as Select from '@radix-ui/react-select';
import { useState, type ReactNode } from 'react';
import { FRUITS, Held, mount } from './held';

function RadixSelect(): ReactNode {
  const [fruit, setFruit] = useState('');
  return (
    <section>
      <Select.Root value={fruit} onValueChange={setFruit}>
        <Select.Trigger id="radix-select" aria-label="Radix fruit" style={{ minWidth: 160, padding: 6 }}>
          <Select.Value placeholder="Pick a fruit" />
          <Select.Icon>▾</Select.Icon>
        </Select.Trigger>
        <Select.Portal>
          <Select.Content position="popper" sideOffset={4} style={{ background: 'white', border: '1px solid #888' }}>
            <Select.Viewport>
              {FRUITS.map((name) => (
                <Select.Item key={name} value={name.toLowerCase()} style={{ padding: '4px 12px' }}>
                  <Select.ItemText>{name}</Select.ItemText>
                </Select.Item>
              ))}
            </Select.Viewport>
          </Select.Content>
        </Select.Portal>
      </Select.Root>
      <Held name="radix-select" value={fruit} />
    </section>
  );
}

mount(
  <main>
    <h1>Radix</h1>
    <RadixSelect />
  </main>,
);
