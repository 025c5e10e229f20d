import { describe, expect, it } from 'vitest';
import { capResult, functionNames } from '../../src-main/platform/engine/tool-loop.js';

describe('model-facing tool names', () => {
  it('keeps a valid unique name, prefixes clashes and invalid names with the server, never takes a web tool name', () => {
    expect(
      functionNames([
        { server: 'files', tool: 'read_text_file' },
        { server: 'a', tool: 'search' },
        { server: 'b', tool: 'search' },
        { server: 'my server', tool: 'do.thing' },
        { server: 'web', tool: 'web_search' },
      ]),
    ).toEqual(['read_text_file', 'a__search', 'b__search', 'my_server__do_thing', 'web__web_search']);
  });

  it('names stay unique and within 64 characters', () => {
    const long = 'x'.repeat(80);
    const names = functionNames([
      { server: long, tool: 't' },
      { server: long, tool: 't' },
    ]);
    expect(new Set(names).size).toBe(2);
    for (const n of names) expect(n).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  it('caps a result with a note saying how much was cut', () => {
    expect(capResult('abc', 5)).toBe('abc');
    expect(capResult('abcdefgh', 5)).toBe('abcde\n\n[Agent Desk truncated this tool result: 8 characters, the first 5 shown.]');
  });
});
