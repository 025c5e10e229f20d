import type { Catalog } from '../catalog';

export const setup: Catalog['setup'] = {};
