import type { Catalog } from '../catalog';

export const agents: Catalog['agents'] = {};
