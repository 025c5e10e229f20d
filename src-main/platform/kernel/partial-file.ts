import fs from 'node:fs';

/**
 * Removes a partly written upload. A write stream destroyed while its file is still opening
 * creates that file afterwards, so wait for the stream to close before removing it (else a
 * `.part` can appear after the clean-up).
 */
export async function discardPartial(sink: fs.WriteStream | null, file: string | null): Promise<void> {
  if (sink && !sink.closed) await new Promise<void>((r) => sink.once('close', () => r()));
  if (file) fs.rmSync(file, { force: true });
}
