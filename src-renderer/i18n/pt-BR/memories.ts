import type { Catalog } from '../catalog';

export const memories: Catalog['memories'] = {};
