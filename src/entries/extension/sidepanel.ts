import { h, render } from 'preact';
import { App } from '../../ui/sidepanel/components/app';
import { WorkerPort } from '../../ui/sidepanel/port';
import { PanelStore } from '../../ui/sidepanel/store';

// The store listens before the port connects, so the state the worker pushes on connect is not missed.
const port = new WorkerPort();
const store = new PanelStore(port);
port.connect();
const root = document.getElementById('app');
if (root !== null) {
  render(h(App, { port, store }), root);
}
