import { MEMORY_MAX } from '../../../src-main/platform/contract/memories';

export function CharCounter({ length }: { length: number }) {
  const over = length > MEMORY_MAX;
  return (
    <span className={over ? 'counter over' : 'counter'} aria-live={over ? 'polite' : 'off'}>
      {length.toLocaleString()} / {MEMORY_MAX.toLocaleString()}
      {over ? ' (too long)' : ''}
    </span>
  );
}
