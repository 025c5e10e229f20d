// Stand-ins for Electron's utilityProcess, MessageChannelMain and MessagePortMain in plain Node
// (shared by fake-electron-node.mjs and the vitest fake-electron.ts). A utility process is a
// child_process.fork whose child gets a `process.parentPort` from parent-port.mjs (--import);
// ports handed to a child are relayed over its IPC channel (structured clone), so a page's port
// talks to the platform process as it would in Electron.
import { fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import os from 'node:os';

const PRELOAD = new URL('./parent-port.mjs', import.meta.url).href;
let nextPortId = 1;

/** Every utility process forked, for the test to find (and kill) one. */
export const utilityProcesses = [];

export class FakePortMain extends EventEmitter {
  peer = null;
  started = false;
  closed = false;
  queue = [];
  /** Set when this end was handed to a utility process: messages for it go there. */
  remote = null;
  postMessage(data) {
    if (this.closed) return;
    this.peer?._deliver(data);
  }
  _deliver(data) {
    if (this.closed) return;
    if (this.remote) return this.remote.proc._sendPort(this.remote.id, data);
    const ev = { data: structuredClone(data), ports: [] };
    if (this.started) setImmediate(() => !this.closed && this.emit('message', ev));
    else this.queue.push(ev);
  }
  start() {
    if (this.started) return;
    this.started = true;
    for (const ev of this.queue.splice(0)) setImmediate(() => !this.closed && this.emit('message', ev));
  }
  /** Like Electron: the other end hears 'close'. */
  close() {
    if (this.closed) return;
    this.closed = true;
    const peer = this.peer;
    this.peer = null;
    peer?._peerClosed();
  }
  _peerClosed() {
    if (this.closed) return;
    this.closed = true;
    this.peer = null;
    if (this.remote) this.remote.proc._sendClose(this.remote.id);
    else this.emit('close');
  }
}

export class MessageChannelMain {
  constructor() {
    this.port1 = new FakePortMain();
    this.port2 = new FakePortMain();
    this.port1.peer = this.port2;
    this.port2.peer = this.port1;
  }
}

/** A web MessagePort (what a page's preload gets) over a port end kept in this process. */
export function webPort(port) {
  let handler = null;
  port.on('message', (e) => handler?.({ data: e.data }));
  return {
    postMessage: (data) => port.postMessage(data),
    start: () => port.start(),
    close: () => port.close(),
    get onmessage() {
      return handler;
    },
    set onmessage(fn) {
      handler = fn;
      port.start();
    },
  };
}

class FakeUtilityProcess extends EventEmitter {
  ports = new Map();
  constructor(modulePath, args = [], options = {}) {
    super();
    this.modulePath = modulePath;
    this.options = options;
    const stdio = options.stdio ?? 'inherit';
    const [, out, err] = Array.isArray(stdio) ? stdio : [stdio, stdio, stdio];
    this.child = fork(modulePath, args, {
      execArgv: ['--import', PRELOAD, ...(options.execArgv ?? [])],
      env: options.env ?? process.env,
      cwd: options.cwd,
      stdio: ['ignore', out, err, 'ipc'],
      serialization: 'advanced',
    });
    this.pid = this.child.pid;
    this.stdout = this.child.stdout;
    this.stderr = this.child.stderr;
    this.child.on('spawn', () => this.emit('spawn'));
    this.child.on('error', () => {});
    this.child.on('message', (m) => {
      if (m?.__fp === 'parent') this.emit('message', m.data);
      else if (m?.__fp === 'port') this.ports.get(m.id)?.peer?._deliver(m.data);
      else if (m?.__fp === 'close') {
        const p = this.ports.get(m.id);
        this.ports.delete(m.id);
        p?.close();
      }
    });
    this.child.on('exit', (code, signal) => {
      this.exited = true;
      for (const p of this.ports.values()) {
        p.remote = null;
        p.close();
      }
      this.ports.clear();
      this.emit('exit', code ?? 128 + (os.constants.signals[signal] ?? 0));
    });
    utilityProcesses.push(this);
  }
  postMessage(data, transfer = []) {
    const ids = transfer.map((p) => {
      const id = nextPortId++;
      p.remote = { proc: this, id };
      this.ports.set(id, p);
      return { id, queued: p.queue.splice(0).map((e) => e.data) };
    });
    if (!this.child.connected) return;
    this.child.send({ __fp: 'parent', data, ports: ids.map((x) => x.id) });
    for (const { id, queued } of ids) for (const d of queued) this._sendPort(id, d);
  }
  _sendPort(id, data) {
    if (this.child.connected) this.child.send({ __fp: 'port', id, data });
  }
  _sendClose(id) {
    this.ports.delete(id);
    if (this.child.connected) this.child.send({ __fp: 'close', id });
  }
  kill() {
    return this.child.kill();
  }
}

export const utilityProcess = {
  fork: (modulePath, args, options) => new FakeUtilityProcess(modulePath, args, options),
};
