// `node --import ./parent-port.mjs`: the child side of fake-utility.mjs. Gives the process what
// an Electron utility process has, `process.parentPort` (on('message', e => e.data / e.ports),
// postMessage), and turns the ports the parent hands over into MessagePortMain look-alikes.
import { EventEmitter } from 'node:events';

const ports = new Map();

class ChildPort extends EventEmitter {
  started = false;
  closed = false;
  queue = [];
  constructor(id) {
    super();
    this.id = id;
  }
  postMessage(data) {
    if (!this.closed && process.connected) process.send({ __fp: 'port', id: this.id, data });
  }
  start() {
    if (this.started) return;
    this.started = true;
    for (const ev of this.queue.splice(0)) this.emit('message', ev);
  }
  close() {
    if (this.closed) return;
    this.closed = true;
    ports.delete(this.id);
    if (process.connected) process.send({ __fp: 'close', id: this.id });
  }
  _receive(data) {
    const ev = { data, ports: [] };
    if (this.started) this.emit('message', ev);
    else this.queue.push(ev);
  }
  _remoteClosed() {
    if (this.closed) return;
    this.closed = true;
    ports.delete(this.id);
    this.emit('close');
  }
}

class ParentPort extends EventEmitter {
  pending = [];
  constructor() {
    super();
    // Like Electron's, messages wait for the first 'message' listener.
    this.on('newListener', (event) => {
      if (event === 'message') setImmediate(() => this.pending.splice(0).forEach((ev) => this.emit('message', ev)));
    });
  }
  postMessage(data) {
    if (process.connected) process.send({ __fp: 'parent', data });
  }
}
const parentPort = new ParentPort();

process.on('message', (m) => {
  if (m?.__fp === 'parent') {
    const ev = {
      data: m.data,
      ports: m.ports.map((id) => {
        const p = new ChildPort(id);
        ports.set(id, p);
        return p;
      }),
    };
    if (parentPort.listenerCount('message')) parentPort.emit('message', ev);
    else parentPort.pending.push(ev);
  } else if (m?.__fp === 'port') ports.get(m.id)?._receive(m.data);
  else if (m?.__fp === 'close') ports.get(m.id)?._remoteClosed();
});
// A utility process ends with the app that started it.
process.on('disconnect', () => process.exit(0));
Object.defineProperty(process, 'parentPort', { value: parentPort, configurable: true });
// What Electron sets in its utility processes too.
if (process.env.FAKE_ELECTRON_VERSION) Object.defineProperty(process.versions, 'electron', { value: process.env.FAKE_ELECTRON_VERSION, enumerable: true, configurable: true });
if (process.env.FAKE_RESOURCES_PATH) process.resourcesPath = process.env.FAKE_RESOURCES_PATH;
