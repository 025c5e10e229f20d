import type { en } from './en';

/** The shape every language's catalog has: the English one's keys, each a string. */
export type Catalog = typeof en;
