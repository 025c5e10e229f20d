/**
 * A paced HTTP client, run as a child process (fork) by a bench: it sends GET requests at a fixed
 * rate spread over keep-alive connections, so that two servers given the same rate see the same
 * arrivals (autocannon's -R fires each second's budget at once, then waits: a burst at full speed).
 *
 * Message in: { url, headers, rate, seconds, connections }. Message out: { sent, done, non2xx,
 * errors, late, seconds, p50Ms, p99Ms } where `late` counts requests that found every connection
 * busy when they were due (sent when one frees up): a server that cannot keep up, or a client
 * descheduled on a loaded machine that then finds many requests due at once.
 *
 * Raw sockets and one prebuilt request: the client's own cost stays small and does not depend on
 * the server's answer beyond its length (every answer must carry Content-Length).
 */
import net from 'node:net';

/** One keep-alive connection that takes one request at a time. */
function connection(host, port, request) {
  const socket = net.connect({ host, port });
  socket.setNoDelay(true);
  let buf = Buffer.alloc(0);
  let need = -1;
  let status = 0;
  const conn = {
    /** Set by each round. */
    onAnswer: () => {},
    busy: false,
    dead: false,
    sentAt: 0,
    send(now) {
      conn.busy = true;
      conn.sentAt = now;
      socket.write(request);
    },
    close: () => socket.destroy(),
  };
  socket.on('data', (chunk) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    for (;;) {
      if (need < 0) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.subarray(0, end).toString('latin1');
        status = Number(head.slice(9, 12));
        const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
        if (!m) {
          lost();
          socket.destroy();
          return;
        }
        need = end + 4 + Number(m[1]);
      }
      if (buf.length < need) return;
      buf = buf.subarray(need);
      need = -1;
      conn.busy = false;
      conn.onAnswer(conn, status);
    }
  });
  // A connection lost (an error, the server's close) counts once, as a failed request if one was out.
  const lost = () => {
    if (conn.dead) return;
    conn.dead = true;
    conn.onAnswer(conn, -1);
  };
  socket.on('error', lost);
  socket.on('close', lost);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(conn));
    socket.once('error', reject);
  });
}

/** Open connections by target, kept between rounds. */
const pools = new Map();

async function run({ url, headers = {}, rate, seconds, connections = 16 }) {
  const u = new URL(url);
  const lines = [`GET ${u.pathname}${u.search} HTTP/1.1`, `Host: ${u.host}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  const request = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  const times = [];
  let done = 0;
  let non2xx = 0;
  let errors = 0;
  let finish = null;
  const idle = [];
  let waiting = 0;
  let dead = 0;
  const onAnswer = (conn, status) => {
    if (status < 0) {
      // Lost: a request that was out on it failed; an idle one is no longer idle.
      dead++;
      if (conn.busy) errors++;
      conn.busy = false;
      const at = idle.indexOf(conn);
      if (at >= 0) idle.splice(at, 1);
    } else {
      done++;
      if (status < 200 || status > 299) non2xx++;
      times.push(performance.now() - conn.sentAt);
    }
    // A request that was due while every connection was busy goes out now.
    if (waiting > 0 && status >= 0) {
      waiting--;
      conn.send(performance.now());
    } else if (status >= 0) idle.push(conn);
    if (finish && idle.length + dead >= conns.length) finish();
  };
  // The connections stay open from round to round: a round's cost is its requests, not 16 accepts.
  const key = `${url} ${JSON.stringify(headers)} ${connections}`;
  let conns = pools.get(key);
  if (conns?.some((c) => c.dead)) {
    for (const c of conns) c.close();
    conns = undefined;
  }
  if (!conns) pools.set(key, (conns = await Promise.all(Array.from({ length: connections }, () => connection(u.hostname, Number(u.port), request)))));
  for (const c of conns) c.onAnswer = onAnswer;
  idle.push(...conns);
  let sent = 0;
  let late = 0;
  const total = Math.round(rate * seconds);
  const t0 = performance.now();
  await new Promise((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * rate));
      while (sent < due) {
        sent++;
        const conn = idle.pop();
        if (conn) conn.send(performance.now());
        else {
          late++;
          waiting++;
        }
      }
      if (sent < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  if (idle.length + dead < conns.length) await new Promise((resolve) => (finish = resolve));
  const wall = (performance.now() - t0) / 1000;
  times.sort((a, b) => a - b);
  const q = (p) => +(times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0).toFixed(3);
  return { sent, done, non2xx, errors, late, seconds: wall, p50Ms: q(0.5), p99Ms: q(0.99) };
}

process.on('message', (msg) => {
  run(msg).then(
    (r) => process.send(r),
    (err) => process.send({ error: String(err?.stack ?? err) }),
  );
});
// The bench that forked this client is gone (it ended, or was killed): so is the client.
process.on('disconnect', () => process.exit(0));
