import type { Catalog } from '../catalog';

export const chat: Catalog['chat'] = {};
