import { Streamdown } from 'streamdown';

export default function StreamedMarkdown({ text, streaming }: { text: string; streaming: boolean }) {
  return (
    <Streamdown className="md" mode={streaming ? 'streaming' : 'static'} isAnimating={streaming} parseIncompleteMarkdown>
      {text}
    </Streamdown>
  );
}
