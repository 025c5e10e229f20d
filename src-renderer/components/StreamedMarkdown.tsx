import { cloneElement, isValidElement, memo, useEffect, useMemo, useRef, type ComponentProps, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Streamdown, defaultComponents, defaultRehypePlugins, type LinkSafetyModalProps, type StreamdownProps } from 'streamdown';
import { createCodePlugin } from '@streamdown/code';
import 'streamdown/styles.css';
import { ConfirmDialog } from './ConfirmDialog';
import { SafeImage } from './SafeImage';
import { citeSup, rehypeCitations } from './citations';
import { useT } from '../i18n';

// Shiki with its JavaScript regex engine (no WebAssembly, so the app's CSP holds); grammars load on first use.
// GitHub's high-contrast light theme: the plain one's keyword red reads 4.15:1 on the code block's grey.
const plugins = { code: createCodePlugin({ themes: ['github-light-high-contrast', 'github-dark'] }) };

/** Links leave the app only after the user confirms where they go (system browser in the desktop app, a new tab in a browser). */
function LinkConfirm({ isOpen, onClose, onConfirm, url }: LinkSafetyModalProps) {
  const t = useT();
  // Streamdown renders the modal where the link is, inside a <p>: a <dialog> may not sit there,
  // so it goes to the end of the page (it opens in the top layer anyway).
  return createPortal(
    <ConfirmDialog open={isOpen} title={t('components.link.title')} confirmLabel={t('components.link.open')} onCancel={onClose} onConfirm={() => (onConfirm(), onClose())}>
      <p>{t('components.link.outside')}</p>
      <p className="dialog-url" data-testid="link-url">
        {url}
      </p>
    </ConfirmDialog>,
    document.body,
  );
}

const linkSafety = { enabled: true, renderModal: (p: LinkSafetyModalProps) => <LinkConfirm {...p} /> };
const DefaultSup = defaultComponents.sup;
type SupProps = ComponentProps<typeof DefaultSup>;
// Citation marks [n] become chips (after streamdown's own sanitizing); the answer's context comes
// from a CitationProvider, so the chips appear when it loads without re-parsing the markdown.
const components = { img: SafeImage, sup: citeSup((p: SupProps) => <DefaultSup {...p} />) };
const rehypePlugins = [...Object.values(defaultRehypePlugins), rehypeCitations];

/** Streamdown as the function inside its memo: for a finished answer it returns its providers around the one element that parses the text. */
const streamdownRender = (Streamdown as unknown as { type: (p: StreamdownProps) => ReactNode }).type;

/** Finished answers, parsed, by their markdown text (most recently used last). */
const parsed = new Map<string, ReactNode>();
const PARSED_MAX = 1000;

/**
 * In what Streamdown draws for a finished `text`, the element that parses it (a function
 * component given the text as its children), replaced by the tree of React elements it gives:
 * the same for the same text (this file's plugins and components never change), so it is kept.
 */
function withParsed(el: ReactNode, text: string): ReactNode {
  if (!isValidElement<{ children?: ReactNode }>(el)) return el;
  const props = el.props;
  if (typeof el.type === 'function' && props.children === text) {
    let tree = parsed.get(text);
    if (tree === undefined) {
      tree = (el.type as (p: object) => ReactNode)(props);
      if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value!);
    } else parsed.delete(text);
    parsed.set(text, tree);
    return tree;
  }
  if (!isValidElement(props.children)) return el;
  const inner = withParsed(props.children, text);
  return inner === props.children ? el : cloneElement(el, undefined, inner);
}

/**
 * A finished answer, parsed once per text for the window's life: a long conversation draws an
 * answer again each time it scrolls back into view, and parsing its markdown (remark, rehype,
 * sanitizing) was most of what drawing it cost. What Streamdown draws is otherwise unchanged.
 */
const FinishedMarkdown = memo(function FinishedMarkdown(props: StreamdownProps & { children: string }) {
  return withParsed(streamdownRender(props), props.children);
});

/**
 * Streamdown's icon buttons (the table's copy, say) are named by `title` alone, which not every
 * screen reader speaks: each gets an aria-label from it, also those it adds later (when the
 * answer finishes, a code block's language loads).
 */
function useNamedIconButtons() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const name = () => {
      for (const b of root.querySelectorAll<HTMLButtonElement>('button[title]:not([aria-label])')) if (!b.textContent?.trim()) b.setAttribute('aria-label', b.title);
    };
    name();
    const watch = new MutationObserver(name);
    watch.observe(root, { childList: true, subtree: true });
    return () => watch.disconnect();
  }, []);
  return ref;
}

const options = {
  className: 'md',
  plugins,
  linkSafety,
  components,
  rehypePlugins,
  lineNumbers: false,
  controls: { code: { copy: true, download: false }, table: { copy: true, download: false, fullscreen: false }, mermaid: false, image: false },
} satisfies StreamdownProps;

export default function StreamedMarkdown({ text, streaming }: { text: string; streaming: boolean }) {
  const ref = useNamedIconButtons();
  const t = useT();
  // Streamdown's own buttons (copy code, copy table) in the app's language.
  const translations = useMemo(() => t('components.markdown', { returnObjects: true }), [t]);
  return (
    // display: contents: the wrapper only holds the ref, the layout is Streamdown's.
    <div ref={ref} style={{ display: 'contents' }}>
      {streaming ? (
        <Streamdown {...options} translations={translations} mode="streaming" isAnimating parseIncompleteMarkdown>
          {text}
        </Streamdown>
      ) : (
        <FinishedMarkdown {...options} translations={translations} mode="static">
          {text}
        </FinishedMarkdown>
      )}
    </div>
  );
}
