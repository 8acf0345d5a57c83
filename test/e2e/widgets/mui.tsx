/** @jsxImportSource react */
import Autocomplete from '@mui/material/Autocomplete';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import TextField from '@mui/material/TextField';
import { useState, type ReactNode } from 'react';
import { FRUITS, Held, mount } from './held';

function MuiSelect(): ReactNode {
  const [fruit, setFruit] = useState('');
  return (
    <section>
      <FormControl sx={{ m: 1, minWidth: 200 }}>
        <InputLabel id="mui-select-label">Fruit</InputLabel>
        <Select
          labelId="mui-select-label"
          id="mui-select"
          value={fruit}
          label="Fruit"
          onChange={(event) => setFruit(event.target.value)}
        >
          {FRUITS.map((name) => (
            <MenuItem key={name} value={name.toLowerCase()}>
              {name}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      <Held name="mui-select" value={fruit} />
    </section>
  );
}

function MuiMultiSelect(): ReactNode {
  const [fruits, setFruits] = useState<string[]>(['apple', 'fig']);
  return (
    <section>
      <FormControl sx={{ m: 1, minWidth: 200 }}>
        <InputLabel id="mui-multi-label">Basket</InputLabel>
        <Select
          labelId="mui-multi-label"
          id="mui-multi"
          multiple
          value={fruits}
          label="Basket"
          onChange={(event) => {
            const { value } = event.target;
            setFruits(typeof value === 'string' ? value.split(',') : value);
          }}
        >
          {FRUITS.map((name) => (
            <MenuItem key={name} value={name.toLowerCase()}>
              {name}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      <Held name="mui-multi" value={fruits.join(',')} />
    </section>
  );
}

function MuiAutocomplete(): ReactNode {
  const [fruit, setFruit] = useState<string | null>(null);
  return (
    <section>
      <Autocomplete
        id="mui-autocomplete"
        sx={{ m: 1, width: 260 }}
        options={[...FRUITS]}
        value={fruit}
        onChange={(_event, value) => setFruit(value)}
        renderInput={(params) => <TextField {...params} label="Favourite fruit" />}
      />
      <Held name="mui-autocomplete" value={fruit ?? ''} />
    </section>
  );
}

mount(
  <main>
    <h1>Material UI</h1>
    <MuiSelect />
    <MuiMultiSelect />
    <MuiAutocomplete />
  </main>,
);
