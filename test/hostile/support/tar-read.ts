/** Reads the JSON entries of an export tar in memory (tests only): ustar headers, 512-byte blocks. */
export function tarEntries(tar: Buffer): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (let pos = 0; pos + 512 <= tar.length; ) {
    const h = tar.subarray(pos, pos + 512);
    if (h.every((b) => b === 0)) break;
    const name = h.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(h.subarray(124, 136).toString('ascii').replace(/\0.*$/s, '').trim(), 8);
    out.set(name, tar.subarray(pos + 512, pos + 512 + size));
    pos += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

export function tarJson(tar: Buffer, name: string): unknown {
  const e = tarEntries(tar).get(name);
  if (!e) throw new Error(`${name} is not in the archive`);
  return JSON.parse(e.toString('utf8'));
}
