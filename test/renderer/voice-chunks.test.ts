/** What a voice is given: Markdown made speakable, cut into sentence-sized utterances, in the text's language. */
import { describe, expect, it } from 'vitest';
import { chunksOf, languageOf, speakable } from '../../src-renderer/stores/voice';

describe('reading aloud', () => {
  it('says the words of Markdown, not its marks, links or code blocks', () => {
    const md = '## Steps\n\n1. Open **Settings** and [the docs](https://x.test/a).\n\n```js\nconsole.log(1)\n```\n\nRun `npm test`.';
    expect(speakable(md)).toBe('Steps\n\nOpen Settings and the docs.\n\n \n\nRun npm test.');
  });

  it('gives one sentence per utterance, joins fragments, cuts a very long sentence at a comma', () => {
    expect(chunksOf('Yes. The harbour opens at nine in the morning today. It closes at six!')).toEqual(['Yes. The harbour opens at nine in the morning today.', 'It closes at six!']);
    const long = `${'word '.repeat(30)}and then, ${'more '.repeat(40)}end.`;
    const parts = chunksOf(long);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.every((p) => p.length <= 220)).toBe(true);
    expect(parts.join(' ').replace(/\s+/g, ' ')).toBe(long.replace(/\s+/g, ' ').trim());
    expect(parts[0].endsWith(',')).toBe(true);
  });

  it('reads Portuguese as pt-BR and English as en-US, else the app language', () => {
    expect(languageOf('Você pode marcar a revisão pelo aplicativo, que também mostra o histórico. Não esqueça.', 'en')).toBe('pt-BR');
    expect(languageOf('You can book the service in the app, and it will show the history for your car.', 'pt-BR')).toBe('en-US');
    expect(languageOf('OK 42', 'pt-BR')).toBe('pt-BR');
    expect(languageOf('OK 42', 'en')).toBe('en-US');
  });
});
