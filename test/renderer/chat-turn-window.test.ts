/**
 * The window of a long conversation: which turns are drawn for a view, the space standing for the
 * others, and the reading text find counts matches in for turns that are not drawn.
 */
import { describe, expect, it } from 'vitest';
import { offsetsOf, piecesOf, windowOf } from '../../src-renderer/features/chat/turn-window';
import { occurrences, readingText } from '../../src-renderer/features/chat/find';

const keys = Array.from({ length: 500 }, (_, i) => `t${i}`);
/** Turns 100 px tall, but turn 10 is 1000 px (a long answer). */
const offsets = offsetsOf(keys, (k) => (k === 't10' ? 1000 : 100));

describe('the window of a long conversation', () => {
  it('lays the turns end to end, measured or estimated', () => {
    expect(offsets.length).toBe(501);
    expect(offsets[10]).toBe(1000);
    expect(offsets[11]).toBe(2000);
    expect(offsets[500]).toBe(499 * 100 + 1000);
  });

  it('draws the turns the view touches and those within the margin, not the rest', () => {
    // View 400 px tall from 5000 px (turns 41..44 of 100 px after the 1000 px one), 200 px margin.
    const drawn = windowOf(offsets, 5000, 400, [], 200);
    expect(drawn).toEqual([39, 40, 41, 42, 43, 44, 45, 46]);
    // A tall turn covering the view and its margins is drawn alone; a wider margin reaches its neighbours.
    expect(windowOf(offsets, 1200, 300, [], 150)).toEqual([10]);
    expect(windowOf(offsets, 1200, 300, [], 250)).toEqual([9, 10]);
  });

  it('at the end (top null) draws the last turns; kept turns are drawn wherever the view is', () => {
    // The last 300 px and 100 px above them: turns 496 to 499.
    expect(windowOf(offsets, null, 300, [], 100)).toEqual([496, 497, 498, 499]);
    expect(windowOf(offsets, 0, 250, [499, 250, -1, 9999], 0)).toEqual([0, 1, 2, 250, 499]);
  });

  it('stands the undrawn turns as space of their height, so the list keeps its whole height', () => {
    const pieces = piecesOf(offsets, [0, 1, 250, 499]);
    expect(pieces).toEqual([{ turn: 0 }, { turn: 1 }, { gap: 2, height: offsets[250] - offsets[2] }, { turn: 250 }, { gap: 251, height: offsets[499] - offsets[251] }, { turn: 499 }]);
    const height = pieces.reduce((s, p) => s + ('gap' in p ? p.height : offsets[p.turn + 1] - offsets[p.turn]), 0);
    expect(height).toBe(offsets[500]);
    // Turns gone from the conversation since the window was worked out are not drawn.
    expect(piecesOf(offsetsOf(['a', 'b'], () => 50), [0, 1, 5])).toEqual([{ turn: 0 }, { turn: 1 }]);
    expect(windowOf(offsetsOf([], () => 50), null, 300, [0])).toEqual([]);
  });
});

describe('the reading text of an answer, for find in turns not drawn', () => {
  it('counts the words as drawn: no Markdown marks, a link by its words, code without its fences', () => {
    const md = '# The quince\n\nBring **quince** _marmalade_ and [the quince list](https://quince.example/x).\n\n- a quince\n1. two\n> quoted quince\n\n```js\nconst quince = 1;\n```\n\n| a | quince |\n|---|---|\n| `quince` | ~~no~~ |';
    const text = readingText(md);
    expect(text).not.toMatch(/[*#`|>]|```|~~|https/);
    expect(text).toContain('Bring quince _marmalade_ and the quince list.');
    expect(text).toContain('const quince = 1;');
    expect(occurrences(text, 'quince').length).toBe(8);
    expect(occurrences(text, 'example').length).toBe(0);
  });

  it('leaves plain text as it is', () => {
    expect(readingText('Bring the quince marmalade to the picnic')).toBe('Bring the quince marmalade to the picnic');
  });
});
