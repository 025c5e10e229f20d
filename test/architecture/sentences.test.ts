import { describe, expect, it } from 'vitest';
import { say } from '../../src-main/platform/contract/messages.js';
import { linesWhere, sourcesUnder, type Source } from './sources.js';

/** The home of the hosted platform's (Laravel's) sentences. */
const HOME = 'src-main/platform/contract/messages.ts';

/** A Laravel-style sentence written by hand in a string: `The x field is required.`, `The selected x is invalid.` */
const HAND_WRITTEN = /['`"]The (selected )?[^'`"]*( field (is required|must |has |format )| is invalid)/;

export function sentencesElsewhere(files: Source[]): string[] {
  return linesWhere(files, (name, line) => name !== HOME && HAND_WRITTEN.test(line));
}

describe("one place for the sentences of errors (contract/messages.ts's say)", () => {
  it('finds planted sentences and leaves the builders alone', () => {
    const planted = [
      "if (!title) throw ValidationError.field('title', 'The title field is required.');",
      'errors[`file_ids.${i}`] = [`The selected file_ids.${i} is invalid.`];',
      "const u = httpUrl('The url field must be a valid http or https URL.');",
      "throw ValidationError.field('url', 'The url field has a malformed % escape in its file name.');",
    ].join('\n');
    expect(sentencesElsewhere([{ name: 'src-main/platform/modules/agents/service.ts', text: planted }])).toHaveLength(4);
    expect(sentencesElsewhere([{ name: HOME, text: planted }])).toEqual([]);
    expect(sentencesElsewhere([{ name: 'src-main/platform/modules/agents/service.ts', text: "throw ValidationError.field('title', say.required('title'));\n" }])).toEqual([]);
  });

  it('holds for all of src-main', () => {
    expect(sentencesElsewhere(sourcesUnder('src-main'))).toEqual([]);
  });

  it('words each kind of sentence as the hosted platform does', () => {
    expect(say.required('title')).toBe('The title field is required.');
    expect(say.required('start date', 'when end date is present')).toBe('The start date field is required when end date is present.');
    expect(say.invalid('agent id')).toBe('The selected agent id is invalid.');
    expect(say.invalid('messages.0.role', 'use user or assistant')).toBe('The selected messages.0.role is invalid: use user or assistant.');
    expect(say.must('url', 'be a valid URL')).toBe('The url field must be a valid URL.');
    expect(say.field('models.1', 'has a duplicate value')).toBe('The models.1 field has a duplicate value.');
  });
});
