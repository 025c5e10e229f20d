/** What a file's first bytes say it is, to explain a name whose extension lies. */
const SIGNATURES: [string, (b: Buffer) => boolean][] = [
  ['a PDF document', (b) => b.subarray(0, 5).toString('latin1') === '%PDF-'],
  ['a ZIP container (e.g. docx, xlsx, pptx)', (b) => b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04],
  ['a legacy Office document (doc, xls, ppt) or an encrypted Office file', (b) => b.readUInt32BE(0) === 0xd0cf11e0 && b.readUInt32BE(4) === 0xa1b11ae1],
  ['a PNG image', (b) => b.readUInt32BE(0) === 0x89504e47],
  ['a JPEG image', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['a GIF image', (b) => b.subarray(0, 4).toString('latin1') === 'GIF8'],
  ['a RIFF file (WAV, AVI, WebP)', (b) => b.subarray(0, 4).toString('latin1') === 'RIFF'],
  ['an MP4/MOV file', (b) => b.subarray(4, 8).toString('latin1') === 'ftyp'],
  ['an executable', (b) => b.subarray(0, 2).toString('latin1') === 'MZ' || b.readUInt32BE(0) === 0x7f454c46],
];

export function sniff(head: Buffer): string | null {
  if (head.length < 8) return null;
  for (const [what, test] of SIGNATURES) if (test(head)) return what;
  return null;
}

export const isCfb = (b: Buffer) => b.length >= 8 && b.readUInt32BE(0) === 0xd0cf11e0 && b.readUInt32BE(4) === 0xa1b11ae1;
export const isZip = (b: Buffer) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;
