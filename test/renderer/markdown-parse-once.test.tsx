// @vitest-environment jsdom
/**
 * A finished answer's markdown is parsed once per text: the chat list draws an answer again each
 * time it scrolls back into view, and that draw must not run the markdown pipeline again. A block
 * still being written is parsed on every draw; raw HTML in a block is still taken in.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../src-renderer/i18n';

/** How many times the pipeline ran over a block (our citations plugin runs once per parse), by the block's text. */
const runs = new Map<string, number>();
vi.mock('../../src-renderer/components/citations', async (real) => {
  const mod = await real<typeof import('../../src-renderer/components/citations')>();
  return {
    ...mod,
    rehypeCitations: function rehypeCitations() {
      const walk = mod.rehypeCitations();
      return (tree: Parameters<typeof walk>[0], file: { value?: unknown }) => {
        const text = String(file.value ?? '');
        runs.set(text, (runs.get(text) ?? 0) + 1);
        return walk(tree);
      };
    },
  };
});
const { default: StreamedMarkdown } = await import('../../src-renderer/components/StreamedMarkdown');

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;
let host: HTMLElement | null = null;
async function draw(text: string, streaming: boolean): Promise<HTMLElement> {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  await act(async () => root!.render(<StreamedMarkdown text={text} streaming={streaming} />));
  return host;
}
async function remove() {
  await act(async () => root?.unmount());
  host?.remove();
  root = null;
}
afterEach(remove);
const total = (part: string) => [...runs].filter(([k]) => k.includes(part)).reduce((s, [, n]) => s + n, 0);

describe('markdown of a finished answer', () => {
  it('is parsed once per text, however often it is drawn again', async () => {
    const text = 'Answer one with **bold words**.\n\n- first point\n- second point\n\nThe end of answer one.';
    const first = await draw(text, false);
    expect(first.querySelector('[data-streamdown="strong"]')?.textContent).toBe('bold words');
    expect(first.querySelectorAll('[data-streamdown="list-item"], li')).toHaveLength(2);
    const once = total('answer one');
    expect(once).toBeGreaterThan(0);
    await remove();
    for (let i = 0; i < 3; i++) {
      const again = await draw(text, false);
      expect(again.querySelector('[data-streamdown="strong"]')?.textContent).toBe('bold words');
      expect(again.querySelectorAll('[data-streamdown="list-item"], li')).toHaveLength(2);
      await remove();
    }
    expect(total('answer one')).toBe(once);
  });

  it('is parsed on each draw while it is still being written', async () => {
    const text = 'Streaming answer two with **bold';
    await draw(text, true);
    const once = total('answer two');
    expect(once).toBeGreaterThan(0);
    await remove();
    await draw(text, true);
    expect(total('answer two')).toBeGreaterThan(once);
  });

  it('still takes in raw HTML where a block has some, and a block without is the same markdown', async () => {
    const el = await draw('Press <kbd>Ctrl</kbd> and *F* to find.', false);
    expect(el.querySelector('kbd')?.textContent).toBe('Ctrl');
    expect(el.querySelector('em, [data-streamdown="emphasis"]')?.textContent).toBe('F');
    expect(el.textContent).not.toContain('<kbd>');
  });
});
