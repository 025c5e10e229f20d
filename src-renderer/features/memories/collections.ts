import type { z } from 'zod';
import type { CollectionListed } from '../../../src-main/platform/contract/memories';
import { api } from '../../api';

export type ListedCollection = z.infer<typeof CollectionListed>;

/** Every collection, page by page (the API caps a page at 50). */
export async function loadAllCollections(): Promise<ListedCollection[]> {
  const all: ListedCollection[] = [];
  for (let page = 1; page <= 40; page++) {
    const res = await api.collections.list({ page, per_page: 50 });
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
