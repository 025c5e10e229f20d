import type { Migration } from '../migrate.js';
import { m001Core } from './001_core.js';

/** Every migration, one per file, numbered. Append only: never edit one that has shipped. */
export const migrations: Migration[] = [m001Core];
