import type { Catalog } from '../catalog';

export const errors: Catalog['errors'] = {};
