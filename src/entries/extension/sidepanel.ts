import { mountApp } from '../../ui/sidepanel/app';
import { WorkerPort } from '../../ui/sidepanel/port';

const port = new WorkerPort();
port.connect();
const root = document.getElementById('app');
if (root !== null) {
  mountApp(root, port);
}
