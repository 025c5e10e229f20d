import fs from 'node:fs';
import XLSX from '@e965/xlsx';
import { UnreadableFileError, type Extractor } from '../types.js';
import { isCfb, isZip, sniff } from './sniff.js';
import { isEncryptedOoxml } from './word.js';

/** Workbooks (xlsx, xls): each sheet as CSV lines under a "Sheet: name" heading. */
export const extractWorkbook: Extractor = async (file, sink) => {
  const buf = fs.readFileSync(file.path);
  if (isEncryptedOoxml(buf)) throw new UnreadableFileError('The workbook is encrypted (password protected).');
  if (!isZip(buf) && !isCfb(buf)) {
    const what = sniff(buf.subarray(0, 64));
    // SheetJS would happily read any text as a one-column sheet; a workbook name promises a workbook.
    throw new UnreadableFileError(`The file is not an Excel workbook${what ? ` (it looks like ${what})` : ''}.`);
  }
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
    const csv = XLSX.utils.sheet_to_csv(ws, { blankrows: false, strip: true });
    rows += csv ? csv.split('\n').length : 0;
    sink.text(`Sheet: ${name}\n\n${csv.replace(/\n/g, '\n')}\n\n`);
  }
  return { sheets: wb.SheetNames.length, sheet_names: wb.SheetNames.slice(0, 50), rows };
};
