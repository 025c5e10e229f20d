import type { z } from 'zod';
import type { CollectionListed } from '../../../src-main/platform/contract/memories';
import { api, ops } from '../../api';
import { t } from '../../i18n';

export type ListedCollection = z.infer<typeof CollectionListed>;

/** Every collection, page by page (the API caps a page at 50). */
export async function loadAllCollections(): Promise<ListedCollection[]> {
  const all: ListedCollection[] = [];
  for (let page = 1; page <= 40; page++) {
    const res = await api.call(ops.listCollections, { query: { page, per_page: 50 } });
    all.push(...res.collections);
    if (page >= res.meta.last_page) break;
  }
  return all;
}

export function collectionLabel(c: ListedCollection): string {
  return c.display_name || c.name;
}

/** The user's default collection (stored as `default`, shown as "Default"): it cannot be renamed or deleted. */
export function isDefaultCollection(c: ListedCollection): boolean {
  return c.name === 'default';
}

/**
 * A collection as the screen offers it. The default collection is always offered, first, even
 * before the platform made it (it does so on first use): then its id is null, and a memory saved
 * or moved with no collection goes there.
 */
export interface CollectionChoice {
  id: number | null;
  label: string;
  isDefault: boolean;
  listed: ListedCollection | null;
}

export function collectionChoices(collections: ListedCollection[]): CollectionChoice[] {
  const def = collections.find(isDefaultCollection) ?? null;
  return [
    { id: def?.id ?? null, label: t('memories.default'), isDefault: true, listed: def },
    ...collections.filter((c) => !isDefaultCollection(c)).map((c) => ({ id: c.id, label: collectionLabel(c), isDefault: false, listed: c })),
  ];
}

/** The memory filter: every memory, the default collection (even before it exists), or one collection. */
export type CollectionFilter = { kind: 'all' } | { kind: 'default' } | { kind: 'one'; id: number };
