/** @jsxImportSource react */
import 'react-datepicker/dist/react-datepicker.css';
import { useState, type ReactNode } from 'react';
import DatePicker from 'react-datepicker';
import { Held, mount } from './held';

/** The date React holds, as YYYY-MM-DD in local time (what the test compares). */
function isoDay(date: Date | null): string {
  if (date === null) {
    return '';
  }
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function Picker(): ReactNode {
  // A fixed month, so the calendar the test opens always shows the same days.
  const [day, setDay] = useState<Date | null>(new Date(2026, 2, 10));
  const [month, setMonth] = useState('2026-03');
  return (
    <section>
      <label htmlFor="datepicker">Delivery day</label>
      <DatePicker
        id="datepicker"
        selected={day}
        onChange={(date: Date | null) => setDay(date)}
        dateFormat="yyyy-MM-dd"
        showMonthDropdown
        dropdownMode="select"
        onMonthChange={(date: Date) => setMonth(isoDay(date).slice(0, 7))}
      />
      <Held name="datepicker" value={isoDay(day)} />
      <Held name="datepicker-month" value={month} />
    </section>
  );
}

mount(
  <main>
    <h1>Date picker</h1>
    <Picker />
  </main>,
);
