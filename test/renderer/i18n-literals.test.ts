/**
 * The build fails when a word a person reads is written in renderer code instead of the catalogs
 * (src-renderer/i18n), except in the files still listed as not converted, a list that only shrinks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RENDERER, scanRenderer, scanSource, unconverted } from './i18n/literals';

describe('words outside the catalogs', () => {
  it('finds each kind of written-in word, and leaves keys, code, class names and names alone', () => {
    const src = `
      import { t } from '../i18n';
      export function A({ n }: { n: number }) {
        toast('Saved the agent', 'error');
        toast(t('common.saved'), 'error');
        const nav = [{ id: 'x', label: 'Chat history' }, { id: 'y', label: t('app.screens.chat') }];
        if (n < 0) throw new Error('That number is negative.');
        void askConfirm({ title: \`Delete \${n} files?\`, confirmLabel: 'Delete' });
        return (
          <div className="row wide" data-testid="some-id" title="Open the file" aria-label={n ? 'Close it' : t('common.close')}>
            Hello there
            {n > 1 ? 'many' : null}
            <input placeholder="Search…" value={n} />
            <input placeholder="npx" />
            <input placeholder="http://127.0.0.1:3001/mcp" />
            <textarea placeholder={'-y\\n@scope/server-filesystem\\n/home/me/Documents'} title="API_TOKEN=…" />
            <span className="badge">revoked</span>
            <img alt={\`\${n} pictures\`} src="a.png" />
            <code>npm run serve</code>
            <kbd>g c</kbd>
            <span>Agent Desk</span>
            {t('settings.title')} · {n}
          </div>
        );
      }`;
    const found = scanSource('x.tsx', src).map((f) => `${f.where} ${f.text}`);
    expect(found).toEqual([
      'toast() Saved the agent',
      'label: Chat history',
      'new Error() That number is negative.',
      'title: Delete files?',
      'confirmLabel: Delete',
      'title= Open the file',
      'aria-label= Close it',
      'JSX text Hello there',
      'JSX expression many',
      'placeholder= Search…',
      'JSX text revoked',
      'alt= pictures',
    ]);
  });

  it('every renderer file speaks through the catalogs, but those still listed as not converted', () => {
    const listed = new Set(unconverted());
    const outside = scanRenderer().filter((f) => !listed.has(f.file));
    expect(outside.map((f) => `src-renderer/${f.file}:${f.line} ${f.where} "${f.text}"`), 'put these words in src-renderer/i18n/en and pt-BR and use t()').toEqual([]);
  });

  it('the not-converted list only holds files that exist and still hold such words (remove a converted file from it)', () => {
    const withWords = new Set(scanRenderer().map((f) => f.file));
    const stale = unconverted().filter((f) => !fs.existsSync(path.join(RENDERER, f)) || !withWords.has(f));
    expect(stale, 'remove these lines from test/renderer/i18n/unconverted.txt').toEqual([]);
  });
});
