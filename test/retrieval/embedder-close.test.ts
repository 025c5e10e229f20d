import { describe, expect, it } from 'vitest';
import { BuiltinEmbedder } from '../../src-main/platform/ingest/embed/builtin.js';

describe('closing the built-in embedder', () => {
  it('fails a batch still waiting for the thread at once, so a platform closing mid-embedding never hangs', async () => {
    const e = new BuiltinEmbedder();
    const failed = expect(e.embed(['bees like lavender'])).rejects.toThrow('The built-in embedder was closed.');
    await e.close();
    await failed;
    expect(e.running).toBe(false);
    // And it starts again on the next request.
    const [v] = await e.embed(['bees like lavender']);
    expect(v).toHaveLength(512);
    await e.close();
  });
});
