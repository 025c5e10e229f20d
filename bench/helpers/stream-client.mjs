/**
 * The gateway bench's client: times one streamed request to its first text delta and its end.
 * Run as a worker thread (the bench's default) it is a client apart from the server, as every real
 * client is: its reads do not wait behind the server's own work on one event loop. Times are
 * absolute (timeOrigin + now) so the bench can set them beside the server's marks.
 */
import { isMainThread, parentPort } from 'node:worker_threads';

/** The text of one SSE event's data, when it is a text delta of that door's format. */
function textOf(door, data) {
  if (data === '[DONE]') return null;
  const j = JSON.parse(data);
  if (door === 'responses') return j.type === 'response.output_text.delta' ? j.delta : null;
  if (door === 'messages') return j.type === 'content_block_delta' && j.delta?.type === 'text_delta' ? j.delta.text : null;
  return j.choices?.[0]?.delta?.content || null;
}

const isEnd = (door, data) =>
  door === 'responses' ? data.includes('"type":"response.completed"') : door === 'messages' ? data.includes('"type":"message_stop"') : data === '[DONE]';

const now = () => performance.timeOrigin + performance.now();

/** Times one stream: { first, done } in ms from the send, the text, and the absolute send and first-text times. */
export async function timeStream({ door, url, headers, body }) {
  const sentAt = now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  let text = '';
  let textAt = -1;
  let doneAt = -1;
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    buf += dec.decode(r.value, { stream: true });
    let i;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const data = block.split('\n').find((l) => l.startsWith('data: '))?.slice(6);
      if (data === undefined) continue;
      const t = textOf(door, data);
      if (t) {
        if (textAt < 0) textAt = now();
        text += t;
      }
      if (isEnd(door, data)) doneAt = now();
    }
  }
  if (doneAt < 0) throw new Error(`${url}: the stream did not complete`);
  return { first: textAt - sentAt, done: doneAt - sentAt, text, sentAt, textAt };
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  port.on('message', async (req) => {
    try {
      port.postMessage({ ok: true, result: await timeStream(req) });
    } catch (err) {
      port.postMessage({ ok: false, error: String(err?.stack ?? err) });
    }
  });
}
