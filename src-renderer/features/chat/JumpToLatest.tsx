/** Shown while the user reads higher up: one click back to the newest message. */
export function JumpToLatest({ visible, onJump }: { visible: boolean; onJump(): void }) {
  if (!visible) return null;
  return (
    <button type="button" className="btn jump-latest" onClick={onJump} data-testid="jump-latest">
      ↓ Jump to latest
    </button>
  );
}
