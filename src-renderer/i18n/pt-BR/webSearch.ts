import type { Catalog } from '../catalog';

export const webSearch: Catalog['webSearch'] = {};
