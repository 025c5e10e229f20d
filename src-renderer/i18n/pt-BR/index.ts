import type { Catalog } from '../catalog';
import { common } from './common';
import { app } from './app';
import { settings } from './settings';

/** Brazilian Portuguese, loaded only when chosen (a chunk of its own). */
export const ptBR: Catalog = { common, app, settings };
