import type { Catalog } from '../catalog';

export const developer: Catalog['developer'] = {};
