/** What an Enter key press does in the composer. IME composition (e.g. Japanese input confirming a word) never sends. */
export function enterAction(e: { key: string; shiftKey: boolean; ctrlKey: boolean; metaKey: boolean; altKey: boolean; isComposing: boolean; keyCode?: number }, enterSends: boolean): 'send' | 'newline' | 'none' {
  if (e.key !== 'Enter') return 'none';
  if (e.isComposing || e.keyCode === 229) return 'none';
  if (e.ctrlKey || e.metaKey) return 'send';
  if (e.altKey) return 'newline';
  const plain = !e.shiftKey;
  return plain === enterSends ? 'send' : 'newline';
}
