/** @jsxImportSource react */
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';

/**
 * What a widget holds, as React state shown on the page: the tests read it back from here, so they
 * prove the widget's own effect and not only tabpilot's answer.
 */
export function Held({ name, value }: { name: string; value: string }): ReactNode {
  return (
    <p id={`held-${name}`} data-held={value}>
      {name} holds: {value === '' ? '(nothing)' : value}
    </p>
  );
}

/** The fruits every list widget offers (eight, so a short list shows all and a long one scrolls). */
export const FRUITS = ['Apple', 'Banana', 'Cherry', 'Damson', 'Elderberry', 'Fig', 'Grape', 'Honeydew'] as const;

/** Mounts a page's widgets once the document is ready. */
export function mount(node: ReactNode): void {
  const root = document.getElementById('root');
  if (root === null) {
    throw new Error('the widget page has no #root');
  }
  createRoot(root).render(<StrictMode>{node}</StrictMode>);
}
