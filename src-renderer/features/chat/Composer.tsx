import { useCallback, useEffect, useRef } from 'react';
import type { Agent } from '../../../src-main/platform/contract/agents';
import { useAgentChoice } from '../../stores/agent-choice';
import { attachmentBlock, imageNote, useAttachments } from '../../stores/attachments';
import { draftKey, useDrafts } from '../../stores/drafts';
import { selectBusy, selectTurns, useConversation } from '../../stores/conversation';
import { missingAnswers, mainTextQuestion } from '../../stores/answers';
import { pickFiles } from '../../components/pick-files';
import { AttachmentChips } from './AttachmentChips';
import { OptionsRow } from './OptionsRow';
import { useChatPrefs } from '../../stores/chat-prefs';
import { enterAction } from './enter-action';
import { preloadMarkdown } from '../../components/Markdown';
import { useSetup } from '../../stores/setup';
import { checkInput, inputLimits, pasteAsFile, pastedName } from './long-input';
import { questionLabel } from './option-words';
import { Trans, useT } from '../../i18n';
import { DictationButton, DictationNotice } from './DictationButton';

/** Pasted texts turned into files in this window, for their names ("Pasted text 2.txt"). */
let pastedCount = 0;

export function Composer({ agent }: { agent: Agent | null }) {
  const t = useT();
  // The draft belongs to the open conversation: kept when leaving it, and across reloads.
  const key = useConversation((s) => draftKey(s.rootId));
  const text = useDrafts((s) => s.drafts[key] ?? '');
  const setText = (v: string) => useDrafts.getState().set(key, v);
  const { send, stop, setEditing } = useConversation();
  const busy = useConversation(selectBusy);
  const turns = useConversation(selectTurns);
  const { attachments, attach } = useAttachments();
  const answers = useAgentChoice((s) => s.answers);
  const { enterSends, setEnterSends } = useChatPrefs();
  const box = useRef<HTMLTextAreaElement>(null);
  const main = agent && agent.type !== 'chat' ? mainTextQuestion(agent.questions) : null;
  const missing = agent ? agent.questions.filter((q) => missingAnswers(agent.questions, answers).includes(q.name) && q.name !== main?.name) : [];
  const model = useModelWindow(agent, answers.model);
  const limits = inputLimits(!main, model.id, model.window);
  const input = checkInput(text.length, limits);
  const blocked = attachmentBlock(attachments);
  const why = input.block ?? blocked ?? (missing.length ? t('chat.composer.choose', { what: questionLabel(missing[0]).toLowerCase() }) : null);
  const canSend = !!agent && !busy && !!text.trim() && !why;
  const note = !why ? imageNote(attachments) : null;

  const submit = () => {
    if (!canSend) return;
    const t = text;
    setText('');
    void send(t);
  };

  /** Dictated words go after what is typed, into the box, for the person to edit before sending. */
  const dictated = useCallback((said: string) => {
    const now = useDrafts.getState().drafts[key] ?? '';
    useDrafts.getState().set(key, now.trim() ? `${now.trimEnd()} ${said}` : said);
    box.current?.focus();
  }, [key]);

  /** The text as a file attachment (what a message too long to send becomes). */
  const asFile = (content: string) => attach([new File([content], pastedName(++pastedCount), { type: 'text/plain' })]);

  useEffect(() => {
    // Esc stops a running answer wherever focus is.
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && selectBusy(useConversation.getState())) {
        e.preventDefault();
        void stop();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [stop]);

  useEffect(() => {
    if (!busy) box.current?.focus({ preventScroll: true });
  }, [busy]);

  const sendKeys = enterSends ? 'Enter' : 'Ctrl+Enter';
  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {agent ? <OptionsRow agent={agent} /> : null}
      <AttachmentChips />
      {why ? (
        <div className={input.block || attachments.some((a) => a.phase === 'failed') ? 'note note-error small composer-why' : 'muted small composer-why'} role="status" data-testid="send-blocked">
          <span>{why}</span>
          {input.block ? (
            <button
              type="button"
              className="btn btn-small"
              onClick={() => {
                void asFile(text);
                setText('');
                box.current?.focus();
              }}
              data-testid="attach-as-file"
            >
              {t('chat.composer.attachAsFile')}
            </button>
          ) : null}
        </div>
      ) : note ? (
        <p className="muted small composer-why" role="status" data-testid="image-note">
          {note}
        </p>
      ) : null}
      <DictationNotice />
      <div className="composer-row">
        <label className="sr-only" htmlFor="chat-input">
          {main ? main.description || main.name : t('chat.composer.message')}
        </label>
        <textarea
          id="chat-input"
          ref={box}
          rows={3}
          value={text}
          placeholder={main ? `${main.description || main.name.replace(/_/g, ' ')}…` : attachments.length ? t('chat.composer.placeholderFile') : t('chat.composer.placeholder')}
          aria-describedby={input.counter ? 'chat-counter' : undefined}
          onFocus={preloadMarkdown}
          onChange={(e) => setText(e.target.value)}
          onPaste={(e) => {
            // Files and images pasted (a screenshot, files copied in the file manager) attach.
            const files = Array.from(e.clipboardData.files);
            if (files.length) {
              // Handled here (pasted screenshots get a unique name), not again by the app-wide drop zone.
              e.preventDefault();
              e.stopPropagation();
              void attach(files.map((f, i) => (f.name && f.name !== 'image.png' ? f : new File([f], `pasted-${Date.now()}-${i}.${f.type.split('/')[1] || 'bin'}`, { type: f.type }))));
              return;
            }
            // Text longer than a message holds (or the model reads) goes in as a file, as chat apps do.
            const pasted = e.clipboardData.getData('text/plain');
            const el = e.currentTarget;
            const kept = text.length - (el.selectionEnd - el.selectionStart);
            if (pasteAsFile(pasted.length, kept, limits)) {
              e.preventDefault();
              void asFile(pasted);
            }
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && !busy) {
              // Esc leaves the message box (the draft stays), so single-key shortcuts work again.
              e.preventDefault();
              e.currentTarget.blur();
              document.querySelector<HTMLElement>('main h1')?.focus({ preventScroll: true });
              return;
            }
            if (e.key === 'ArrowUp' && !text && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey) {
              // Up on an empty composer edits the last message, as in chat apps.
              const last = turns[turns.length - 1];
              if (last && !busy) {
                e.preventDefault();
                setEditing(last.key);
              }
              return;
            }
            const action = enterAction({ ...e, isComposing: e.nativeEvent.isComposing, keyCode: e.keyCode }, enterSends);
            if (action === 'send') {
              e.preventDefault();
              submit();
            }
          }}
        />
        <div className="composer-actions">
          <DictationButton put={dictated} disabled={busy} />
          <button type="button" className="btn" onClick={() => void pickFiles().then((f) => (f.length ? attach(f) : undefined))} disabled={busy}>
            {t('chat.composer.attach')}
          </button>
          {busy ? (
            <button type="button" className="btn btn-danger" onClick={() => void stop()} data-testid="stop">
              {t('chat.composer.stop')} <kbd>Esc</kbd>
            </button>
          ) : (
            <button type="submit" className="btn btn-primary" disabled={!canSend} data-testid="send">
              {t('chat.composer.send')} <kbd>{sendKeys}</kbd>
            </button>
          )}
        </div>
      </div>
      <div className="composer-hints small muted">
        {input.counter ? (
          <span id="chat-counter" className={input.block ? 'composer-counter over' : 'composer-counter'} data-testid="char-counter">
            {input.counter}
          </span>
        ) : (
          <span>
            <Trans i18nKey="chat.composer.hints" values={{ send: sendKeys, line: enterSends ? 'Shift+Enter' : 'Enter' }} components={{ kbd: <kbd /> }} />
          </span>
        )}
        <label className="check">
          <input type="checkbox" checked={!enterSends} onChange={(e) => setEnterSends(!e.target.checked)} data-testid="ctrl-enter-sends" /> {t('chat.composer.ctrlEnter')}
        </label>
      </div>
    </form>
  );
}

/** The model the next message goes to and its context window (tokens), when the app knows them. */
function useModelWindow(agent: Agent | null, chosen: unknown): { id: string | null; window: number | null } {
  const { models, defaultModel } = useSetup();
  // A remote platform's agent runs on the remote's models: nothing known here.
  if (!agent || agent.source === 'remote') return { id: null, window: null };
  const id = typeof chosen === 'string' && chosen ? chosen : (defaultModel?.model ?? null);
  const m = id ? models.find((x) => x.id === id) : undefined;
  return { id, window: m?.context_window ?? null };
}
