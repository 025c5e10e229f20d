/**
 * What one file's extraction may use. A hostile document (a compression bomb, a page tree
 * claiming a billion pages, a sheet declaring 17 billion cells) is refused by the guard of its
 * format, and whatever no guard foresaw is stopped by the memory and time limits of the process
 * that reads it. Every limit scales with the file's size where an honest bigger file needs more.
 */
export const MB = 1024 * 1024;

export interface ExtractionLimits {
  /** Resident memory of the reading process; above it the process is killed. */
  maxRssMb: number;
  /** Wall time for the whole file. */
  timeoutMs: number;
  /** Bytes all entries of a zip-based document (docx, xlsx, pptx) may unpack to. */
  maxUnpackedBytes: number;
  /** Bytes the non-image streams of a PDF may decode to, in total. */
  maxPdfDecodedBytes: number;
  maxPdfPages: number;
  /** Cells a workbook sheet's used range may span. */
  maxSheetCells: number;
  /** Entries of a zip-based document. */
  maxZipEntries: number;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The limits for a file of `bytes` bytes; `timeoutMs` caps the wall-time budget. */
export function limitsFor(bytes: number, caps: { timeoutMs?: number; maxRssMb?: number } = {}): ExtractionLimits {
  const mb = bytes / MB;
  return {
    // About 450 MB for anything up to 10 MB (the reader itself takes ~80 MB), more for big files.
    maxRssMb: caps.maxRssMb ?? Math.round(clamp(400 + 5 * mb, 450, 2048)),
    // 45 s plus 10 s per MB: a 1 MB PDF that needs more is hostile or broken; a 100 MB one gets 17 min.
    timeoutMs: Math.min(caps.timeoutMs ?? 30 * 60_000, 45_000 + Math.round(10_000 * mb)),
    // Office XML compresses 5-20 times; 100 times is allowed, at least 32 MB, at most 256 MB.
    maxUnpackedBytes: Math.round(clamp(100 * bytes, 32 * MB, 256 * MB)),
    maxPdfDecodedBytes: Math.round(clamp(20 * bytes, 160 * MB, 320 * MB)),
    maxPdfPages: 10_000,
    maxSheetCells: 5_000_000,
    maxZipEntries: 20_000,
  };
}

export const fmtMb = (bytes: number) => `${Math.round(bytes / MB).toLocaleString('en-US')} MB`;

/** A size for a sentence: KB under a megabyte, else MB. */
export const fmtSize = (bytes: number) => (bytes < MB ? `${Math.max(1, Math.round(bytes / 1024))} KB` : fmtMb(bytes));

/** The limits an extractor applies: those the runner chose, else the defaults for the file's size. */
export const limitsOf = (file: { bytes: number; limits?: ExtractionLimits }) => file.limits ?? limitsFor(file.bytes);
