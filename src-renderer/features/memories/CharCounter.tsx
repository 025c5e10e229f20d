import { MEMORY_MAX } from '../../../src-main/platform/contract/memories';
import { formatNumber } from '../../components/format';
import { useT } from '../../i18n';

export function CharCounter({ length }: { length: number }) {
  const t = useT();
  const over = length > MEMORY_MAX;
  return (
    <span className={over ? 'counter over' : 'counter'} aria-live={over ? 'polite' : 'off'}>
      {formatNumber(length)} / {formatNumber(MEMORY_MAX)}
      {over ? ` ${t('memories.tooLong')}` : ''}
    </span>
  );
}
