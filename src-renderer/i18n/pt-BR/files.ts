import type { Catalog } from '../catalog';

export const files: Catalog['files'] = {};
