// @vitest-environment jsdom
/** Find in a conversation: matches fold case and accents both ways, as the session search does, and map back to the text's own offsets. */
import { describe, expect, it } from 'vitest';
import { findRanges, fold, occurrences } from '../../src-renderer/features/chat/find';

describe('find in a conversation', () => {
  it('folds case and accents, keeping where each folded character came from', () => {
    expect(fold('Ação').folded).toBe('acao');
    expect(fold('Ação').from).toEqual([0, 1, 2, 3]);
  });

  it('finds every occurrence, case and accents folded both ways, at the offsets of the text as written', () => {
    expect(occurrences('Marmalade, then MARMALADE.', 'marmalade')).toEqual([
      [0, 9],
      [16, 25],
    ]);
    expect(occurrences('Uma ação rápida', 'acao')).toEqual([[4, 8]]);
    expect(occurrences('uma acao', 'AÇÃO')).toEqual([[4, 8]]);
    // Characters outside the basic plane keep their two code units.
    expect(occurrences('🙂 café 🙂 cafe', 'cafe')).toEqual([
      [3, 7],
      [11, 15],
    ]);
    expect(occurrences('nothing here', 'zeppelin')).toEqual([]);
    expect(occurrences('any text', '   ')).toEqual([]);
  });

  it('makes DOM ranges over the text people read, not what is marked to skip', () => {
    document.body.innerHTML = '<div id="c"><p>Bring the <b>quince</b> marmalade</p><div data-find-skip>marmalade</div><span class="sr-only">marmalade</span><p>More marmalade!</p></div>';
    const ranges = findRanges(document.getElementById('c')!, 'MARMALADE');
    expect(ranges.map((r) => [r.toString(), r.startContainer.parentElement!.tagName])).toEqual([
      ['marmalade', 'P'],
      ['marmalade', 'P'],
    ]);
  });
});
