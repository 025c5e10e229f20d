/**
 * The spec's table of accepted upload patterns, by kind (seeds/agent-platform-api.md, "Files").
 * Matching is by extension, case-insensitive (CONTRACT.md "Files").
 */
export const FILE_KINDS = {
  text: ['txt'],
  word: ['doc', 'docx'],
  spreadsheet: ['csv'],
  pdf: ['pdf'],
  workbook: ['xls', 'xlsx'],
  presentation: ['ppt', 'pptx'],
  image: ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'svg', 'tiff', 'webp'],
  video: ['mp4', 'avi', 'mov', 'mkv', 'wmv', 'flv'],
  audio: ['mp3', 'wav', 'aac', 'ogg', 'flac', 'm4a'],
  code: [
    'bas', 'bat', 'xml', 'css', 'dart', 'html', 'htm', 'inc', 'js', 'json', 'kt', 'lua', 'pas', 'php', 'pl', 'ps1', 'py', 'r', 'sh', 'vsd',
    'sql', 'swift', 'ts', 'vb', 'vba', 'yml', 'yaml', 'md',
  ],
} as const;

export type FileKind = keyof typeof FILE_KINDS;

const byExt = new Map<string, FileKind>();
for (const [kind, exts] of Object.entries(FILE_KINDS) as [FileKind, readonly string[]][]) for (const e of exts) byExt.set(e, kind);

/** Every accepted extension, in the spec's order (for the 422 message). */
export const ACCEPTED_EXTENSIONS: string[] = [...byExt.keys()];

/** The lower-cased extension of a name (the part after the last dot of its last segment), or ''. */
export function extensionOf(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 || (dot === 0 && base.length > 1) ? base.slice(dot + 1).toLowerCase() : '';
}

/** The kind for an extension, or null when the spec does not accept it. */
export function kindOf(ext: string): FileKind | null {
  return byExt.get(ext.toLowerCase()) ?? null;
}
