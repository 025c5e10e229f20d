import type { Catalog } from '../catalog';

export const usage: Catalog['usage'] = {};
