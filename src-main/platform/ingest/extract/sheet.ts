import fs from 'node:fs';
import XLSX from '@e965/xlsx';
import { UnreadableFileError, type Extractor } from '../types.js';
import { isCfb, isZip, sniff } from './sniff.js';
import { isEncryptedOoxml } from './word.js';
import { checkZip } from './zip-guard.js';
import { limitsOf, type ExtractionLimits } from '../limits.js';

/**
 * Replaces a sheet's declared range (`<dimension ref>`, which the file may set to A1:XFD1048576,
 * 17 billion cells, around one real cell) by the range its cells really use, and refuses a sheet
 * whose used range is still too large to write out as text.
 */
function trueRange(name: string, ws: XLSX.WorkSheet, limits: ExtractionLimits): void {
  const rows = (ws as { '!data'?: (XLSX.CellObject | undefined)[][] })['!data'];
  if (!rows) return;
  let r0 = Infinity;
  let r1 = -1;
  let c0 = Infinity;
  let c1 = -1;
  rows.forEach((row, r) =>
    row?.forEach((cell, c) => {
      if (!cell || cell.t === 'z') return;
      if (r < r0) r0 = r;
      if (r > r1) r1 = r;
      if (c < c0) c0 = c;
      if (c > c1) c1 = c;
    }),
  );
  if (r1 < 0) {
    delete ws['!ref'];
    return;
  }
  const cells = (r1 - r0 + 1) * (c1 - c0 + 1);
  if (cells > limits.maxSheetCells) {
    throw new UnreadableFileError(
      `The sheet "${name.slice(0, 100)}" spans ${cells.toLocaleString('en-US')} cells (${XLSX.utils.encode_range({ s: { r: r0, c: c0 }, e: { r: r1, c: c1 } })}); Agent Desk reads sheets of up to ${limits.maxSheetCells.toLocaleString('en-US')} cells.`,
    );
  }
  ws['!ref'] = XLSX.utils.encode_range({ s: { r: r0, c: c0 }, e: { r: r1, c: c1 } });
}

/** Workbooks (xlsx, xls): each sheet as CSV lines under a "Sheet: name" heading. */
export const extractWorkbook: Extractor = async (file, sink) => {
  const buf = fs.readFileSync(file.path);
  if (isEncryptedOoxml(buf)) throw new UnreadableFileError('The workbook is encrypted (password protected).');
  if (!isZip(buf) && !isCfb(buf)) {
    const what = sniff(buf.subarray(0, 64));
    // SheetJS would happily read any text as a one-column sheet; a workbook name promises a workbook.
    throw new UnreadableFileError(`The file is not an Excel workbook${what ? ` (it looks like ${what})` : ''}.`);
  }
  const limits = limitsOf(file);
  if (isZip(buf)) await checkZip(buf, limits, 'workbook');
  let wb: XLSX.WorkBook;
  try {
    wb = XLSX.read(buf, { type: 'buffer', dense: true, cellFormula: false, cellHTML: false, cellStyles: false });
  } catch (err) {
    const msg = (err as Error).message;
    if (/password|encrypt/i.test(msg)) throw new UnreadableFileError('The workbook is encrypted (password protected).');
    throw new UnreadableFileError(`The workbook is damaged: ${msg}`);
  }
  let rows = 0;
  for (const name of wb.SheetNames) {
    const ws = wb.Sheets[name];
    if (!ws) continue;
    trueRange(name, ws, limits);
    const csv = XLSX.utils.sheet_to_csv(ws, { blankrows: false, strip: true });
    rows += csv ? csv.split('\n').length : 0;
    sink.text(`Sheet: ${name}\n\n${csv.replace(/\n/g, '\n')}\n\n`);
  }
  return { sheets: wb.SheetNames.length, sheet_names: wb.SheetNames.slice(0, 50), rows };
};
